import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../shared/config';
import { forgetRateWindows } from '../../shared/http/rate-limit';
import { invoke, newTenant, type Tenant } from '../helpers/api';
import { drain, settle } from '../helpers/feed';
import { clientFor, type TenantClient, tenantWithCustomer } from '../helpers/tenant-client';

/**
 * `POST /ticket/bulk` and `POST /customer/bulk` (shared/http/bulk.ts): every operation answered
 * with what its own route would have answered, in order; exactly the valid ones written, each with
 * its events; a retry with the same keys replays; an operation not started in time is a 503 that
 * wrote nothing; the rate limit counts each operation; no operation reaches another tenant.
 */

let tenant: Tenant;
let api: TenantClient;
let customer: string;

beforeEach(async () => {
  ({ tenant, api, customer } = await tenantWithCustomer());
});
afterEach(() => {
  vi.unstubAllEnvs();
  resetConfig();
  forgetRateWindows();
});

const bulk = (path: '/ticket/bulk' | '/customer/bulk', operations: unknown[], t: Tenant = tenant) =>
  invoke('POST', path, {
    headers: { ...t.headers, 'content-type': 'application/json' },
    body: { operations },
  });

interface Result {
  status: number;
  body: { id?: string; type?: string; instance?: string; errors?: { path: string }[] };
  replayed?: true;
}
const results = async (path: '/ticket/bulk' | '/customer/bulk', operations: unknown[], t?: Tenant) => {
  const res = await bulk(path, operations, t);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results as Result[];
};

const newTicket = (subject = 's') => ({ subject, description: 'd', openedBy: { id: customer } });
const ticketTotal = async () => (await api.get('/ticket/list')).body.ticket.totalRecords as number;

describe('POST /ticket/bulk', () => {
  it('answers each operation as its own route would, and writes exactly the valid ones', async () => {
    const target = await api.create('/ticket/insert', newTicket('target'));
    const merged = await api.create('/ticket/insert', newTicket('merged'));
    const into = await api.create('/ticket/insert', newTicket('into'));
    expect((await api.put(`/ticket/merge/${into}`, { sources: [merged] })).status).toBe(200);
    const stale = (await api.get(`/ticket/${target}`)).headers.etag as string;
    expect((await api.put(`/ticket/update/${target}`, { subject: 'changed first' })).status).toBe(200);
    const current = (await api.get(`/ticket/${target}`)).headers.etag as string;
    const before = await ticketTotal();

    const out = await results('/ticket/bulk', [
      { op: 'insert', body: newTicket('valid') },
      { op: 'insert', body: { subject: '', description: 'd', openedBy: { id: customer } } },
      { op: 'insert', body: { ...newTicket(), openedBy: { id: 'ffffffffffffffffffffffff' } } },
      { op: 'update', id: target, ifMatch: stale, body: { subject: 'stale' } },
      { op: 'update', id: merged, body: { subject: 'into a merged ticket' } },
      { op: 'update', id: target, ifMatch: current, body: { subject: 'current' } },
      { op: 'reply', id: 'ffffffffffffffffffffffff', body: { text: 'nobody' } },
      { op: 'reply', id: target, body: { text: 'hello' } },
      { op: 'addNote', id: target, body: { note: 'n' } },
      { op: 'insert', key: 'bad key é', body: newTicket() },
      { op: 'reply', id: target, ifMatch: current, body: { text: 'after others changed it' } },
    ]);
    expect(out.map((r) => r.status)).toEqual([201, 400, 400, 412, 409, 200, 404, 200, 200, 400, 412]);
    expect(out.map((r) => r.body.type)).toEqual([
      undefined,
      'urn:helpdesk:problem:validation-error',
      'urn:helpdesk:problem:invalid-reference',
      'urn:helpdesk:problem:precondition-failed',
      'urn:helpdesk:problem:ticket-merged',
      undefined,
      'urn:helpdesk:problem:not-found',
      undefined,
      undefined,
      'urn:helpdesk:problem:validation-error',
      'urn:helpdesk:problem:precondition-failed',
    ]);
    // A problem names the item's own route and field.
    expect(out[1]?.body.instance).toBe('/ticket/insert');
    expect(out[1]?.body.errors?.map((e) => e.path)).toEqual(['subject']);
    expect(out[3]?.body.instance).toBe(`/ticket/update/${target}`);

    expect(await ticketTotal()).toBe(before + 1);
    const created = (await api.get(`/ticket/${out[0]?.body.id}`)).body;
    expect(created.subject).toBe('valid');
    const t = (await api.get(`/ticket/${target}`)).body;
    expect(t.subject).toBe('current');
    expect(t.replies.map((r: { text: string }) => r.text)).toEqual(['hello']);
    expect(t.ticketNotes).toHaveLength(1);
    expect((await api.get(`/ticket/${merged}`)).body.subject).toBe('merged');
  });

  it('gives each written operation the events and history its route gives', async () => {
    const { poll } = await drain(api);
    const target = await api.create('/ticket/insert', newTicket());
    const out = await results('/ticket/bulk', [
      { op: 'insert', body: newTicket('one') },
      { op: 'reply', id: target, body: { text: 'r' } },
      { op: 'update', id: target, body: { status: 'solved' } },
      { op: 'delete', id: target },
    ]);
    expect(out.map((r) => r.status)).toEqual([201, 200, 200, 200]);
    await settle();
    const types = (await drain(api, poll)).events.map((e) => `${e.type} ${e.resourceId}`);
    expect(types).toEqual(
      expect.arrayContaining([
        `ticket.created ${target}`,
        `ticket.created ${out[0]?.body.id}`,
        `ticket.replied ${target}`,
        `ticket.updated ${target}`,
        `ticket.deleted ${target}`,
      ]),
    );
    // The operations on one ticket ran in their order: replied, updated, deleted.
    const mine = types.filter((t) => t.endsWith(target) && !t.startsWith('ticket.created'));
    expect(mine).toEqual([
      `ticket.replied ${target}`,
      `ticket.updated ${target}`,
      `ticket.deleted ${target}`,
    ]);
    const history = (await api.get(`/ticket/${out[0]?.body.id}/history`)).body.history.records;
    expect(history.length).toBeGreaterThan(0);
  });

  it("tells where each change is in the feed, the call's latest as its Helpdesk-Position", async () => {
    const res = await bulk('/ticket/bulk', [
      { op: 'insert', body: newTicket('a') },
      { op: 'insert', body: { subject: '' } },
      { op: 'insert', body: newTicket('b') },
    ]);
    const positions = (res.body.results as { position?: string }[]).map((r) => r.position);
    expect(positions[1]).toBeUndefined();
    expect(positions[0]).toMatch(/^[0-9]{17}#/);
    expect(positions[2]).toMatch(/^[0-9]{17}#/);
    expect(res.headers['helpdesk-position']).toBe([positions[0], positions[2]].sort().at(-1));
  });

  it('replays a retried call with the same keys: the same results, nothing written twice', async () => {
    const target = await api.create('/ticket/insert', newTicket());
    const operations = [
      { op: 'insert', key: 'k-insert', body: newTicket('once') },
      { op: 'reply', id: target, key: 'k-reply', body: { text: 'once' } },
      { op: 'delete', id: target, key: 'k-delete' },
      { op: 'insert', key: 'k-bad', body: { subject: '' } },
    ];
    const first = await results('/ticket/bulk', operations);
    const before = await ticketTotal();
    const retry = await results('/ticket/bulk', operations);
    expect(retry.map((r) => [r.status, r.body])).toEqual(first.map((r) => [r.status, r.body]));
    expect(retry.map((r) => r.replayed)).toEqual([true, true, true, undefined]);
    expect(await ticketTotal()).toBe(before);
    // A key reused for another operation's body is refused, as on the single route.
    const reused = await results('/ticket/bulk', [
      { op: 'insert', key: 'k-insert', body: newTicket('other') },
    ]);
    expect([reused[0]?.status, reused[0]?.body.type]).toEqual([
      422,
      'urn:helpdesk:problem:idempotency-key-reused',
    ]);
    // The key is the single route's too: the same insert sent alone replays the bulk item's answer.
    const alone = await invoke('POST', '/ticket/insert', {
      headers: { ...tenant.headers, 'content-type': 'application/json', 'idempotency-key': 'k-insert' },
      body: newTicket('once'),
    });
    expect([alone.status, alone.body.id, alone.headers['idempotent-replayed']]).toEqual([
      201,
      first[0]?.body.id,
      'true',
    ]);
  });

  it('applies each keyed operation once when the same call is sent five times at once', async () => {
    const before = await ticketTotal();
    const operations = Array.from({ length: 10 }, (_, i) => ({
      op: 'insert',
      key: `race-${i}`,
      body: newTicket(`race ${i}`),
    }));
    const calls = await Promise.all(Array.from({ length: 5 }, () => results('/ticket/bulk', operations)));
    expect(await ticketTotal()).toBe(before + 10);
    for (let i = 0; i < 10; i++) {
      const answers = calls.map((c) => c[i] as Result);
      // Each is the insert's answer, or the single route's 409 while the first still holds the key.
      for (const a of answers) expect([201, 409]).toContain(a.status);
      const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id));
      expect(ids.size).toBe(1);
    }
  });

  it('refuses a malformed call whole, writing nothing', async () => {
    const before = await ticketTotal();
    const cases: [unknown, string][] = [
      [[], 'operations'],
      [Array(101).fill({ op: 'insert', body: newTicket() }), 'operations'],
      [
        [
          { op: 'insert', body: newTicket() },
          { op: 'merge', id: 'x' },
        ],
        'operations.1.op',
      ],
      [
        [
          { op: 'insert', body: newTicket() },
          { op: 'update', body: { subject: 'no id' } },
        ],
        'operations.1.id',
      ],
      [
        [
          { op: 'insert', body: newTicket() },
          { op: 'delete', id: 'x', ifmatch: '"1"' },
        ],
        'operations.1',
      ],
    ];
    for (const [operations, path] of cases) {
      const res = await bulk('/ticket/bulk', operations as unknown[]);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.type).toBe('urn:helpdesk:problem:validation-error');
      expect(res.body.errors.map((e: { path: string }) => e.path).join(' ')).toContain(path);
    }
    const notJson = await invoke('POST', '/ticket/bulk', {
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      rawBody: Buffer.from('{"operations": ['),
    });
    expect(notJson.status).toBe(400);
    expect(await ticketTotal()).toBe(before);
  });

  it('answers 503 for the operations it had no time to start, having written none of them', async () => {
    // 2.6 s of function time: the call's deadline 1.1 s away (1.5 s kept to answer), and an
    // operation starts only with 1 s left: a few have time, the rest are not attempted.
    vi.stubEnv('HELPDESK_TIMEOUT_MS', '2560');
    const before = await ticketTotal();
    const out = await results(
      '/ticket/bulk',
      Array.from({ length: 100 }, (_, i) => ({ op: 'insert', body: newTicket(`t${i}`) })),
    );
    vi.unstubAllEnvs();
    expect(out).toHaveLength(100);
    const created = out.filter((r) => r.status === 201);
    const skipped = out.filter((r) => r.status === 503);
    expect(created.length + skipped.length).toBe(100);
    expect(skipped.length).toBeGreaterThan(0);
    for (const r of skipped) {
      expect(r.body.type).toBe('urn:helpdesk:problem:unavailable');
      expect(r.body.instance).toBe('/ticket/insert');
    }
    expect(await ticketTotal()).toBe(before + created.length);
    const subjects = new Set<string>();
    for (let url: string | null = '/ticket/list?view=summary'; url; ) {
      const page: { records: { subject: string }[]; nextQuery: string | null } = (await api.get(url)).body
        .ticket;
      for (const t of page.records) subjects.add(t.subject);
      url = page.nextQuery;
    }
    out.forEach((r, i) => {
      expect(subjects.has(`t${i}`), `t${i}`).toBe(r.status === 201);
    });
  });

  it('counts each operation against the rate limit: past it, an operation answers 429 and writes nothing', async () => {
    const before = await ticketTotal();
    // A minute of its own, whose shared budget no earlier request used.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-22T10:00:05Z') });
    try {
      vi.stubEnv('RATE_LIMIT_PER_MINUTE', '6');
      resetConfig();
      forgetRateWindows();
      // The call is one request, each operation another: 1 + 5 fit in 6.
      const out = await results(
        '/ticket/bulk',
        Array.from({ length: 8 }, (_, i) => ({ op: 'insert', body: newTicket(`r${i}`) })),
      );
      const statuses = out.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
      expect(out.find((r) => r.status === 429)?.body.type).toBe('urn:helpdesk:problem:rate-limited');
      vi.unstubAllEnvs();
      resetConfig();
      forgetRateWindows();
      expect(await ticketTotal()).toBe(before + 5);
    } finally {
      vi.useRealTimers();
    }
  });

  it("never reaches another tenant's tickets", async () => {
    const other = await newTenant();
    const otherApi = clientFor(other);
    const otherCustomer = await otherApi.create('/customer/insert', { name: 'O', email: 'o@example.com' });
    const theirs = await otherApi.create('/ticket/insert', {
      subject: 'theirs',
      description: 'd',
      openedBy: { id: otherCustomer },
    });
    const out = await results('/ticket/bulk', [
      { op: 'update', id: theirs, body: { subject: 'mine now' } },
      { op: 'reply', id: theirs, body: { text: 'hi' } },
      { op: 'delete', id: theirs },
      { op: 'insert', body: { subject: 's', description: 'd', openedBy: { id: otherCustomer } } },
    ]);
    expect(out.map((r) => r.status)).toEqual([404, 404, 404, 400]);
    const t = (await otherApi.get(`/ticket/${theirs}`)).body;
    expect([t.subject, t.replies.length]).toEqual(['theirs', 0]);
  });

  it('answers one result per operation, in order, for any mix of operations (generated)', async () => {
    const target = await api.create('/ticket/insert', newTicket());
    const op = fc.oneof(
      fc.record({ op: fc.constant('insert'), body: fc.constantFrom(newTicket(), { subject: '' }, null) }),
      fc.record({
        op: fc.constant('update'),
        id: fc.oneof(
          fc.constantFrom(target, 'ffffffffffffffffffffffff'),
          fc.string({ minLength: 1, maxLength: 3000 }),
        ),
        body: fc.constantFrom({ priority: 1 }, { priority: 'x' }, {}),
      }),
      fc.record({
        op: fc.constant('reply'),
        id: fc.constant(target),
        body: fc.constantFrom({ text: 'r' }, {}),
      }),
      fc.record({
        op: fc.constant('addNote'),
        id: fc.constant(target),
        body: fc.constantFrom({ note: 'n' }, 5),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (operations) => {
        const before = await ticketTotal();
        const out = await results('/ticket/bulk', operations);
        expect(out).toHaveLength(operations.length);
        out.forEach((r, i) => {
          const sent = operations[i] as { op: string };
          expect(r.status).toBeLessThan(500);
          if (r.status < 300) expect(r.body.id).toEqual(expect.any(String));
          else
            expect(r.body.instance).toContain(
              sent.op === 'insert' ? '/ticket/insert' : `/ticket/${sent.op}/`,
            );
        });
        const inserted = out.filter((r, i) => operations[i]?.op === 'insert' && r.status === 201).length;
        expect(await ticketTotal()).toBe(before + inserted);
      }),
      { numRuns: 15 },
    );
  });
});

describe('POST /customer/bulk', () => {
  it('inserts, updates and deletes customers, each with its own outcome', async () => {
    const gone = await api.create('/customer/insert', { name: 'G', email: 'g@example.com' });
    const out = await results('/customer/bulk', [
      { op: 'insert', key: 'c1', body: { name: 'New', email: 'new@example.com' } },
      { op: 'insert', body: { name: 'Dup', email: 'ada@example.com' } },
      { op: 'update', id: customer, body: { company: 'Acme' } },
      { op: 'delete', id: gone },
      { op: 'delete', id: gone },
      { op: 'update', id: customer, body: { email: 'not an e-mail' } },
    ]);
    expect(out.map((r) => r.status)).toEqual([201, 409, 200, 200, 404, 400]);
    expect(out[1]?.body.type).toBe('urn:helpdesk:problem:duplicate-email');
    expect((await api.get(`/customer/${customer}`)).body.company).toBe('Acme');
    expect((await api.get(`/customer/${gone}`)).status).toBe(404);
    expect((await api.get(`/customer/${out[0]?.body.id}`)).body.name).toBe('New');
    const retry = await results('/customer/bulk', [
      { op: 'insert', key: 'c1', body: { name: 'New', email: 'new@example.com' } },
    ]);
    expect([retry[0]?.status, retry[0]?.body.id, retry[0]?.replayed]).toEqual([201, out[0]?.body.id, true]);
    // Ticket operations are not customer operations.
    expect((await bulk('/customer/bulk', [{ op: 'reply', id: customer, body: { text: 'x' } }])).status).toBe(
      400,
    );
  });
});
