import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/store/dynamo';
import { newTenant } from '../helpers/api';
import { collectionItems, finishCascades } from '../helpers/cascades';
import { clientFor, type TenantClient } from '../helpers/tenant-client';

/**
 * Writes that do not depend on each other do not conflict, and contention never answers 500:
 * each write is conditioned on what it depends on (the values it moves counters, guards and
 * references from), not on the whole record's version, unless the client sent If-Match.
 */
const setup = async () => {
  const tenant = await newTenant();
  const api: TenantClient = clientFor(tenant);
  const customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
  const ticket = await api.create('/ticket/insert', {
    subject: 's0',
    description: 'd',
    openedBy: { id: customer },
  });
  return { tenant, api, customer, ticket };
};

const replies = (api: TenantClient, ticket: string, streams: number, each: number) =>
  Promise.all(
    Array.from({ length: streams }, async (_, s) => {
      const statuses: number[] = [];
      for (let i = 0; i < each; i++)
        statuses.push((await api.put(`/ticket/reply/${ticket}`, { text: `r${s}.${i}` })).status);
      return statuses;
    }),
  ).then((all) => all.flat());

/**
 * A store a few milliseconds away, as DynamoDB is from Lambda: every call waits before it is
 * sent, so the window between an update's read and its write is as wide as in production.
 */
beforeAll(() => {
  db().middlewareStack.add(
    (next) => async (args) => {
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 10));
      return next(args);
    },
    { step: 'finalizeRequest', name: 'network-latency' },
  );
});
afterAll(() => {
  db().middlewareStack.remove('network-latency');
});

describe('contention', () => {
  it('lets plain updates through while eight streams of replies run on the ticket, each read once', async () => {
    const { api, ticket } = await setup();
    // Replies write without reading the ticket, so every GetItem now is an update's read of it:
    // an update that had to start over because a reply moved the version would read it again.
    const reads = { n: 0 };
    db().middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'GetItemCommand') reads.n++;
        return next(args);
      },
      { step: 'initialize', name: 'count-reads' },
    );
    const updates = (async () => {
      const statuses: number[] = [];
      for (let i = 1; i <= 10; i++)
        statuses.push((await api.put(`/ticket/update/${ticket}`, { subject: `s${i}` })).status);
      return statuses;
    })();
    const [updateStatuses, replyStatuses] = await Promise.all([updates, replies(api, ticket, 8, 10)]);
    db().middlewareStack.remove('count-reads');
    expect(updateStatuses).toEqual(Array(10).fill(200));
    expect(reads.n).toBe(10);
    expect(replyStatuses).toEqual(Array(80).fill(200));
    const detail = (await api.get(`/ticket/${ticket}`)).body;
    expect(detail.subject).toBe('s10');
    expect(detail.numberOfReplies).toBe(80);
    expect(detail.replies).toHaveLength(80);
  }, 60_000);

  it('closes and then deletes a busy ticket, leaving nothing behind', async () => {
    const { tenant, api, ticket, customer } = await setup();
    const busy = replies(api, ticket, 8, 12);
    await new Promise((r) => setTimeout(r, 50));
    const close = await api.put(`/ticket/update/${ticket}`, { status: { status: 'closed' }, tags: ['x'] });
    expect(close.status).toBe(200);
    const del = await api.del(`/ticket/delete/${ticket}`);
    expect(del.status).toBe(200);
    expect((await api.del(`/ticket/purge/${ticket}`)).status).toBe(200);
    const statuses = await busy;
    // A reply either landed before the delete (and went with its cascade) or found no ticket.
    expect(statuses.every((s) => s === 200 || s === 404)).toBe(true);
    expect(await finishCascades(tenant.clientId)).toBe(1);
    expect(await collectionItems(tenant.clientId, ticket)).toEqual([]);
    const list = (await api.get('/ticket/list')).body.ticket;
    expect(list.totalRecords).toBe(0);
    expect((await api.get('/ticket/list?status=closed')).body.ticket.totalRecords).toBe(0);
    expect((await api.get('/ticket/list?tags=x')).body.ticket.totalRecords).toBe(0);
    // The customer is free again: its reference count went back to zero.
    expect((await api.del(`/customer/delete/${customer}`)).status).toBe(200);
  }, 60_000);

  it('keeps 30 concurrent customer updates of different fields, with no 500', async () => {
    const api = clientFor(await newTenant());
    const id = await api.create('/customer/insert', { name: 'C', email: 'c@example.com' });
    const fields = ['memo', 'city', 'company', 'address', 'signature', 'website'] as const;
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        api.put(`/customer/update/${id}`, { [fields[i % fields.length] as string]: `v${i}` }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(200));
    const detail = (await api.get(`/customer/${id}`)).body;
    for (const field of fields) expect(detail[field]).toMatch(/^v\d+$/);
  }, 60_000);

  it('never answers 500 when concurrent updates move the same counters, and keeps them exact', async () => {
    const { api, ticket } = await setup();
    const statuses = ['opened', 'on hold', 'solved', 'closed'];
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        api.put(`/ticket/update/${ticket}`, { status: statuses[i % 4], tags: [`t${i % 3}`] }),
      ),
    );
    for (const r of results) expect([200, 503]).toContain(r.status);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    const final = (await api.get(`/ticket/${ticket}`)).body;
    for (const status of statuses) {
      const n = (await api.get(`/ticket/list?status=${encodeURIComponent(status)}`)).body.ticket.totalRecords;
      expect(n, status).toBe(status === final.status.status ? 1 : 0);
    }
    for (const tag of ['t0', 't1', 't2']) {
      const n = (await api.get(`/ticket/list?tags=${tag}`)).body.ticket.totalRecords;
      expect(n, tag).toBe(final.tags.some((t: { tag: string }) => t.tag === tag) ? 1 : 0);
    }
  }, 60_000);
});
