import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../shared/config';
import { encodeCursor } from '../../shared/store/cursor';
import { keys, sortableTime } from '../../shared/store/keys';
import { newTenant } from '../helpers/api';
import { drain, type FeedEvent, page, settle } from '../helpers/feed';
import { clientFor, type TenantClient, tenantWithCustomer } from '../helpers/tenant-client';

/**
 * The change feed (`GET /event/list`): every committed change is an event exactly once, in the
 * write's own transaction; following nextQuery from any point reads every later event once, in
 * order; the last page's nextQuery is where to poll; nothing of one tenant reaches another.
 */
/** What every new client's feed starts with: its four seeded ticket types, created with it. */
const SEEDED = Array(4).fill('ticket_type.created');

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfig();
});

describe('the change feed', () => {
  let api: TenantClient;
  let customer: string;

  beforeAll(async () => {
    ({ api, customer } = await tenantWithCustomer());
  });

  it('has one event per committed change, oldest first, each with its resource as it read after it', async () => {
    const agent = await api.create('/agent/insert', { name: 'Agent', email: 'agent@example.com' });
    const ticket = await api.create('/ticket/insert', {
      subject: 'Broken',
      description: 'd',
      openedBy: { id: customer },
      replies: [{ text: 'first' }],
    });
    const reply = (
      await api.put(`/ticket/reply/${ticket}`, { text: 'on it', replyFromOperator: { id: agent } })
    ).body.id;
    const note = (await api.put(`/ticket/addNote/${ticket}`, { note: 'called', insertBy: agent })).body.id;
    expect((await api.put(`/ticket/update/${ticket}`, { status: 'solved' })).status).toBe(200);
    expect((await api.put(`/customer/update/${customer}`, { company: 'Acme' })).status).toBe(200);
    // Refused writes leave no event.
    expect((await api.post('/agent/insert', { name: 'Twin', email: 'AGENT@example.com' })).status).toBe(409);
    expect(
      (await api.put(`/ticket/reply/${ticket}`, { text: 'x', replyFromOperator: { id: customer } })).status,
    ).toBe(400);
    expect((await api.del(`/ticket/delete/${ticket}`)).status).toBe(200);
    await settle();
    const { events } = await drain(api);
    expect(events.map((e) => e.type)).toEqual([
      ...SEEDED,
      'customer.created',
      'agent.created',
      'ticket.created',
      'ticket.replied',
      'ticket.note_added',
      'ticket.updated',
      'customer.updated',
      'ticket.deleted',
    ]);
    const [, , created, replied, noted, updated, customerUpdated, deleted] = events.slice(4) as FeedEvent[];
    expect(created?.resource).toMatchObject({ id: ticket, subject: 'Broken', openedBy: { id: customer } });
    expect(replied).toMatchObject({ resourceId: ticket, resource: { id: reply, text: 'on it' } });
    expect(replied?.resource?.replyFromOperator).toMatchObject({ id: agent, name: 'Agent' });
    expect(noted).toMatchObject({ resourceId: ticket, resource: { id: note, note: 'called' } });
    expect(updated?.resource).toMatchObject({ id: ticket, status: { status: 'solved' } });
    expect(customerUpdated?.resource).toMatchObject({ id: customer, company: 'Acme' });
    expect(deleted).toMatchObject({ resourceId: ticket, resource: null });
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const times = events.map((e) => e.occurredAt);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it("has a new client's four seeded ticket types as ticket_type.created events, written with the client", async () => {
    const mine = clientFor(await newTenant());
    await settle();
    const { events } = await drain(mine, '/event/list?since=0');
    const types = (await mine.get('/ticketType/list')).body.type.records as { id: string; type: string }[];
    expect(types.map((t) => t.type).sort()).toEqual(['incident', 'problem', 'question', 'task']);
    expect(events.map((e) => e.type)).toEqual(Array(4).fill('ticket_type.created'));
    expect(new Set(events.map((e) => e.resourceId))).toEqual(new Set(types.map((t) => t.id)));
    for (const e of events)
      expect(e.resource).toEqual(types.find((t) => t.id === e.resourceId) as Record<string, unknown>);
    // One transaction with the client: one instant.
    expect(new Set(events.map((e) => e.occurredAt)).size).toBe(1);
  });

  it('turns 200 concurrent writes on 20 tickets into exactly 200 events, none twice, none missing', async () => {
    const { api: mine, customer: shopper } = await tenantWithCustomer();
    const tickets: string[] = [];
    for (let i = 0; i < 20; i++)
      tickets.push(
        await mine.create('/ticket/insert', {
          subject: `t${i}`,
          description: 'd',
          openedBy: { id: shopper },
        }),
      );
    await settle();
    const { poll } = await drain(mine);
    const replies = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const res = await mine.put(`/ticket/reply/${tickets[i % 20]}`, { text: `reply ${i}` });
        expect(res.status).toBe(200);
        return res.body.id as string;
      }),
    );
    await settle();
    // From the poll cursor saved before the writes: every one of them, once.
    const { events } = await drain(mine, poll);
    expect(events).toHaveLength(200);
    expect(events.every((e) => e.type === 'ticket.replied')).toBe(true);
    expect(new Set(events.map((e) => e.resource?.id))).toEqual(new Set(replies));
    expect(new Set(events.map((e) => e.id)).size).toBe(200);
    // Each ticket's replies in the feed in the order they were written (their dates).
    for (const ticket of tickets) {
      const dates = events.filter((e) => e.resourceId === ticket).map((e) => e.occurredAt);
      expect(dates).toEqual([...dates].sort((a, b) => a - b));
    }
    // And from the start: 20 creations then the 200 replies (and the seeded types, the customer), nothing else.
    const all = await drain(mine);
    expect(all.events).toHaveLength(4 + 1 + 20 + 200);
  }, 120_000);

  it('resumes from a saved cursor missing nothing, and polls forever from the last page', async () => {
    const { api: mine, customer: shopper } = await tenantWithCustomer();
    await settle();
    const first = await drain(mine);
    expect(first.events.map((e) => e.type)).toEqual([...SEEDED, 'customer.created']);
    // Nothing new: the poll answers no events and a place to poll again.
    const idle = await page(mine, first.poll);
    expect(idle.records).toEqual([]);
    const made: string[] = [];
    for (let i = 0; i < 30; i++)
      made.push(
        await mine.create('/ticket/insert', {
          subject: `n${i}`,
          description: 'd',
          openedBy: { id: shopper },
        }),
      );
    await settle();
    const resumed = await drain(mine, idle.nextQuery);
    expect(resumed.events.map((e) => e.resourceId)).toEqual(made);
    // A page is 25 events at most; the saved cursor of page 1 resumes exactly after it.
    const p1 = await page(mine, first.poll);
    expect(p1.records).toHaveLength(25);
    const rest = await drain(mine, p1.nextQuery);
    expect(rest.events.map((e) => e.resourceId)).toEqual(made.slice(25));
  });

  it('filters by type and starts from an instant', async () => {
    const { api: mine, customer: shopper } = await tenantWithCustomer();
    const t = await mine.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: shopper },
    });
    await new Promise((r) => setTimeout(r, 5));
    const since = Date.now();
    await mine.put(`/ticket/reply/${t}`, { text: 'a' });
    await mine.put(`/ticket/addNote/${t}`, { note: 'n' });
    await settle();
    const replies = await drain(mine, '/event/list?type=ticket.replied');
    expect(replies.events.map((e) => e.type)).toEqual(['ticket.replied']);
    // The filter travels with the cursor: another filter on it is refused.
    expect(
      (await mine.get(replies.poll.replace('type=ticket.replied', 'type=ticket.note_added'))).status,
    ).toBe(400);
    const later = await drain(mine, `/event/list?since=${since}`);
    expect(later.events.map((e) => e.type)).toEqual(['ticket.replied', 'ticket.note_added']);
    const two = await drain(mine, '/event/list?type=ticket.note_added,ticket.created');
    expect(two.events.map((e) => e.type)).toEqual(['ticket.created', 'ticket.note_added']);
    expect((await mine.get('/event/list?type=ticket.exploded')).status).toBe(400);
    expect((await mine.get('/event/list?since=yesterday')).status).toBe(400);
  });

  it('never shows one tenant the events of another', async () => {
    const a = await tenantWithCustomer();
    const b = clientFor(await newTenant());
    await a.api.create('/ticket/insert', {
      subject: 'secret',
      description: 'd',
      openedBy: { id: a.customer },
    });
    await settle();
    const mineA = await drain(a.api);
    expect(mineA.events.length).toBeGreaterThan(0);
    const mineB = await drain(b);
    expect(mineB.events.map((e) => e.type)).toEqual(SEEDED);
    const ofA = new Set(mineA.events.map((e) => e.id));
    expect(mineB.events.filter((e) => ofA.has(e.id))).toEqual([]);
    // A's cursor is bound to A: B cannot read with it.
    expect((await b.get(mineA.poll)).status).toBe(400);
  });

  it('answers 410 for a cursor older than the events the feed keeps', async () => {
    const { api: mine, tenant } = await tenantWithCustomer();
    const old = Date.now() - 31 * 86_400_000;
    const at = sortableTime(old);
    const cursor = await encodeCursor({
      t: tenant.clientId,
      r: 'EVENT',
      f: '',
      p: 2,
      d: 'n',
      k: [at, keys.events(tenant.clientId), at],
    });
    const res = await mine.get(`/event/list?page=2&cursor=${encodeURIComponent(cursor)}`);
    expect(res.status).toBe(410);
    expect(res.body.type).toBe('urn:helpdesk:problem:cursor-expired');
  });

  it('shows an event only once the feed lag has passed (so a write committing late is not passed over)', async () => {
    vi.stubEnv('EVENT_FEED_LAG_MS', '1500');
    resetConfig();
    const { api: mine } = await tenantWithCustomer();
    const before = await page(mine, '/event/list');
    expect(before.records).toEqual([]);
    await new Promise((r) => setTimeout(r, 1600));
    const after = await page(mine, before.nextQuery);
    expect(after.records.map((e) => e.type)).toEqual([...SEEDED, 'customer.created']);
  });
});
