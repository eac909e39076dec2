import { beforeAll, describe, expect, it } from 'vitest';
import { newTenant } from '../helpers/api';
import { clientFor, type TenantClient } from '../helpers/tenant-client';

let api: TenantClient;
let customerA: string;
let customerB: string;
let agent: string;
let typeId: string;
let area: string;
let group: string;
/** [id, spec index] in insertion order. */
const tickets: string[] = [];
const ids = (page: { records: { id: string }[] }) => page.records.map((r) => r.id);

/** Ticket i: status by i%4, priority i%2, customer A for even i, assigned/typed/tagged on i%3==0. */
const STATUSES = ['opened', 'on hold', 'solved', 'closed'];
const specOf = (i: number) => ({
  subject: `Ticket ${i}`,
  description: 'd',
  openedBy: { id: i % 2 === 0 ? customerA : customerB },
  status: STATUSES[i % 4],
  priority: i % 2,
  ...(i % 3 === 0
    ? {
        assignedTo: { id: agent },
        type: { id: typeId },
        area: { id: area },
        group: { id: group },
        tags: ['vip', `t${i}`],
      }
    : { tags: ['normal'] }),
});
const matching = (pred: (i: number) => boolean) => tickets.filter((_, i) => pred(i)).reverse();

beforeAll(async () => {
  api = clientFor(await newTenant());
  customerA = await api.create('/customer/insert', { name: 'A', email: 'a@example.com' });
  customerB = await api.create('/customer/insert', { name: 'B', email: 'b@example.com' });
  agent = await api.create('/agent/insert', { name: 'Agent', email: 'agent@example.com' });
  typeId = (await api.get('/ticketType/list?type=task')).body.type.records[0].id;
  area = await api.create('/ticketArea/insert', { area: 'hardware' });
  group = await api.create('/ticketGroup/insert', { group: 'l2' });
  for (let i = 0; i < 60; i++) tickets.push(await api.create('/ticket/insert', specOf(i)));
}, 120_000);

describe('ticket list', () => {
  it('pages 60 tickets newest first with no gap or duplicate while new ones arrive between pages', async () => {
    const seen: string[] = [];
    let page = (await api.get('/ticket/list')).body.ticket;
    expect(page.totalRecords).toBe(60);
    // Records are details (CONTRACT.md §5): these tickets have no conversation.
    expect(page.records[0]).toMatchObject({ replies: [], ticketNotes: [], attachedDocuments: [] });
    expect(page.records[0]).toMatchObject({
      subject: 'Ticket 59',
      openedBy: { id: customerB },
      status: { status: 'closed' },
    });
    seen.push(...ids(page));
    const arrived: string[] = [];
    while (page.nextQuery) {
      arrived.push(await api.create('/ticket/insert', specOf(100 + arrived.length)));
      page = (await api.get(page.nextQuery)).body.ticket;
      seen.push(...ids(page));
    }
    expect(seen).toEqual([...tickets].reverse());
    expect(page.totalRecords).toBe(60 + arrived.length);
    // the newcomers show up on a fresh page 1
    expect(ids((await api.get('/ticket/list')).body.ticket).slice(0, arrived.length)).toEqual(
      arrived.reverse(),
    );
    for (const id of arrived) await api.del(`/ticket/delete/${id}`);
  });

  it('serves a bare ?page=n like the cursor walk', async () => {
    const p1 = (await api.get('/ticket/list')).body.ticket;
    const p2 = (await api.get(p1.nextQuery)).body.ticket;
    expect(ids((await api.get('/ticket/list?page=2')).body.ticket)).toEqual(ids(p2));
    expect((await api.get('/ticket/list?page=4')).body.ticket).toMatchObject({
      records: [],
      nextQuery: null,
    });
  });
});

describe('ticket search', () => {
  const cases: [string, (i: number) => boolean][] = [
    ['status=opened', (i) => i % 4 === 0],
    ['status=on%20hold', (i) => i % 4 === 1],
    ['status=onhold', (i) => i % 4 === 1],
    ['status=closed', (i) => i % 4 === 3],
    ['priority=1', (i) => i % 2 === 1],
    ['tags=vip', (i) => i % 3 === 0],
    ['tags=t9', (i) => i === 9],
    ['tags=normal', (i) => i % 3 !== 0],
  ];
  it.each(cases)('%s: exact matches, newest first, with their own count', async (query, pred) => {
    const expected = matching(pred);
    const found: string[] = [];
    let page = (await api.get(`/ticket/list?${query}`)).body.ticket;
    expect(page.totalRecords).toBe(expected.length);
    found.push(...ids(page));
    while (page.nextQuery) {
      expect(page.nextQuery).toContain(query.split('=')[0]);
      page = (await api.get(page.nextQuery)).body.ticket;
      found.push(...ids(page));
    }
    expect(found).toEqual(expected);
  });

  it('finds by every reference id', async () => {
    const refs: [string, string, (i: number) => boolean][] = [
      ['openedBy._id', customerA, (i) => i % 2 === 0],
      ['assignedTo._id', agent, (i) => i % 3 === 0],
      ['type._id', typeId, (i) => i % 3 === 0],
      ['area._id', area, (i) => i % 3 === 0],
      ['group._id', group, (i) => i % 3 === 0],
    ];
    for (const [param, id, pred] of refs) {
      const page = (await api.get(`/ticket/list?${param}=${id}`)).body.ticket;
      expect(page.totalRecords, param).toBe(matching(pred).length);
      expect(ids(page), param).toEqual(matching(pred).slice(0, 25));
    }
  });

  it('finds tickets changed since a time, most recently changed first', async () => {
    const since = Date.now();
    await new Promise((r) => setTimeout(r, 2));
    await api.put(`/ticket/reply/${tickets[5]}`, { text: 'bump' });
    await api.put(`/ticket/addNote/${tickets[7]}`, { note: 'bump' });
    await api.put(`/ticket/update/${tickets[2]}`, { memo: 'bump' });
    const page = (await api.get(`/ticket/list?managedDate=${since}`)).body.ticket;
    expect(page.totalRecords).toBe(3);
    expect(ids(page)).toEqual([tickets[2], tickets[7], tickets[5]]);
    const future = (await api.get(`/ticket/list?managedDate=${Date.now() + 60_000}`)).body.ticket;
    expect(future.totalRecords).toBe(0);

    // From the beginning of time: every ticket, counted from the short (empty) side, and the
    // total travels with the cursor to the next pages.
    const all = (await api.get('/ticket/list?managedDate=0')).body.ticket;
    const total = (await api.get('/ticket/list')).body.ticket.totalRecords;
    expect(all.totalRecords).toBe(total);
    const second = (await api.get(all.nextQuery)).body.ticket;
    expect(second.totalRecords).toBe(total);
    expect(new Set([...ids(all), ...ids(second)]).size).toBe(50);
    expect((await api.get('/ticket/list?managedDate=-86400000')).body.ticket.totalRecords).toBe(total);
  });

  it('moves search counts when a ticket changes', async () => {
    const id = tickets[0] as string;
    const before = (await api.get('/ticket/list?status=solved')).body.ticket.totalRecords;
    await api.put(`/ticket/update/${id}`, { status: 'solved' });
    expect((await api.get('/ticket/list?status=solved')).body.ticket.totalRecords).toBe(before + 1);
    expect(ids((await api.get('/ticket/list?status=solved')).body.ticket)).toContain(id);
    await api.put(`/ticket/update/${id}`, { status: 'opened' });
    expect((await api.get('/ticket/list?status=solved')).body.ticket.totalRecords).toBe(before);
  });

  it('rejects unknown fields, bad values and two fields at once', async () => {
    for (const q of [
      'subject=x',
      'status=lost',
      'priority=2',
      'managedDate=yesterday',
      'status=opened&priority=1',
      'page=0',
      'limit=1000',
      `externalId1=${'x'.repeat(256)}`,
      `externalId1=${encodeURIComponent('€'.repeat(500))}`,
    ]) {
      const res = await api.get(`/ticket/list?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });

  it("shares nothing with another tenant, not even through this tenant's cursor", async () => {
    const other = clientFor(await newTenant());
    const theirs = (await other.get('/ticket/list')).body.ticket;
    expect(theirs).toMatchObject({ totalRecords: 0, records: [] });
    expect((await other.get('/ticket/list?tags=vip')).body.ticket.totalRecords).toBe(0);
    expect((await other.get(`/ticket/list?openedBy._id=${customerA}`)).body.ticket.totalRecords).toBe(0);
    const mine = (await api.get('/ticket/list')).body.ticket;
    expect((await other.get(mine.nextQuery)).status).toBe(400);
    const foreign = tickets[0] as string;
    expect((await other.get(`/ticket/${foreign}`)).status).toBe(404);
  });
});

describe('search by externalId1', () => {
  it("finds tickets by their key in an integrator's system, exactly, with totals that follow every write", async () => {
    const own = clientFor(await newTenant());
    const shopper = await own.create('/customer/insert', { name: 'S', email: 's@example.com' });
    const open = (externalId1?: string | null) =>
      own.create('/ticket/insert', {
        subject: 's',
        description: 'd',
        openedBy: { id: shopper },
        ...(externalId1 === undefined ? {} : { externalId1 }),
      });
    const search = async (value: string) => {
      const res = await own.get(`/ticket/list?externalId1=${encodeURIComponent(value)}`);
      expect(res.status, value).toBe(200);
      return res.body.ticket as {
        totalRecords: number;
        records: { id: string; externalId1: string | null }[];
      };
    };
    const long = `K${'€'.repeat(254)}`; // 763 bytes of UTF-8: the longest key there is
    const first = await open('ORD-1');
    const second = await open('ORD-2');
    const third = await open('ORD-1'); // not unique: the integrator's business
    const none = await open();
    const nulled = await open(null);
    const unicode = await open('Bestellung #42/ü & co');
    const longest = await open(long);

    expect(await search('ORD-1')).toMatchObject({ totalRecords: 2, records: [{ id: third }, { id: first }] });
    expect((await search('ORD-1')).records[0]?.externalId1).toBe('ORD-1');
    expect(await search('ORD-2')).toMatchObject({ totalRecords: 1, records: [{ id: second }] });
    expect(await search('Bestellung #42/ü & co')).toMatchObject({
      totalRecords: 1,
      records: [{ id: unicode }],
    });
    expect(await search(long)).toMatchObject({ totalRecords: 1, records: [{ id: longest }] });
    // Exact: neither case nor blanks nor prefixes match.
    for (const value of ['ord-1', 'ORD-1 ', 'ORD', 'ORD-12']) {
      expect(await search(value), value).toMatchObject({ totalRecords: 0, records: [] });
    }
    expect((await own.get(`/ticket/${first}`)).body.externalId1).toBe('ORD-1');
    expect((await own.get(`/ticket/${none}`)).body.externalId1).toBeNull();
    expect((await own.get(`/ticket/${nulled}`)).body.externalId1).toBeNull();
    const listed = (await own.get('/ticket/list')).body.ticket.records;
    expect(listed.map((t: { externalId1: string | null }) => t.externalId1)).toEqual([
      long,
      'Bestellung #42/ü & co',
      null,
      null,
      'ORD-1',
      'ORD-2',
      'ORD-1',
    ]);

    // Changed: it leaves one count for the other.
    expect((await own.put(`/ticket/update/${first}`, { externalId1: 'ORD-9' })).status).toBe(200);
    expect(await search('ORD-1')).toMatchObject({ totalRecords: 1, records: [{ id: third }] });
    expect(await search('ORD-9')).toMatchObject({ totalRecords: 1, records: [{ id: first }] });
    // Set on a ticket that had none; other fields changed leave it where it is.
    await own.put(`/ticket/update/${none}`, { externalId1: 'ORD-2' });
    await own.put(`/ticket/update/${second}`, { subject: 'changed', status: 'closed' });
    expect(await search('ORD-2')).toMatchObject({ totalRecords: 2, records: [{ id: none }, { id: second }] });
    // Cleared: out of every search, and reads null.
    await own.put(`/ticket/update/${first}`, { externalId1: null });
    expect(await search('ORD-9')).toMatchObject({ totalRecords: 0, records: [] });
    expect((await own.get(`/ticket/${first}`)).body.externalId1).toBeNull();
    // Deleted: out of its count.
    await own.del(`/ticket/delete/${third}`);
    expect(await search('ORD-1')).toMatchObject({ totalRecords: 0, records: [] });
    expect((await own.get('/ticket/list')).body.ticket.totalRecords).toBe(6);
  });

  it('pages a search through its signed cursors like every other one', async () => {
    const own = clientFor(await newTenant());
    const shopper = await own.create('/customer/insert', { name: 'S', email: 's@example.com' });
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) {
      ids.push(
        await own.create('/ticket/insert', {
          subject: `${i}`,
          description: 'd',
          openedBy: { id: shopper },
          externalId1: 'BATCH',
        }),
      );
    }
    const p1 = (await own.get('/ticket/list?externalId1=BATCH')).body.ticket;
    expect(p1.totalRecords).toBe(27);
    expect(p1.nextQuery).toContain('externalId1=BATCH');
    const p2 = (await own.get(p1.nextQuery)).body.ticket;
    expect([...p1.records, ...p2.records].map((t: { id: string }) => t.id)).toEqual(ids.reverse());
  });
});
