import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readCells } from '../../shared/store/counters';
import { db, tableName } from '../../shared/store/dynamo';
import { ticketEntity } from '../../shared/store/entities/ticket';
import type { Item } from '../../shared/store/entity';
import { type ItemKey, keys } from '../../shared/store/keys';
import { readCounters, settleCounts } from '../../shared/store/migrations/counts';
import * as legacyCode from '../../shared/store/migrations/legacy';
import { reindexTenant, shapeOf } from '../../shared/store/migrations/reindex';
import { rewriteRecord } from '../../shared/store/migrations/rewrite';
import { searchTarget } from '../../shared/store/search-targets';
import { listTickets } from '../../shared/store/ticket-pages';
import { StaleWrite } from '../../shared/store/transact';
import { newTenant } from '../helpers/api';
import { type LegacyFixture, legacyTenant } from '../helpers/legacy-tenant';
import { clientFor, type TenantClient } from '../helpers/tenant-client';

/**
 * `helpdesk reindex` (store/migrations/reindex.ts) on the tenant of test/fixtures/legacy-v1-items.json
 * (items as written before issue 12), loaded under a fresh id per test. After it, every list, search
 * and total reads exactly as it did, also with the code kept for old data switched off (as if
 * store/migrations/legacy.ts were deleted: `legacyReads.off`), and every item is what the current
 * code writes for the same record.
 */
const legacyReads = {
  /** Reads as if store/migrations/legacy.ts were deleted: no legacy count cell, every entry with page attributes. */
  set off(off: boolean) {
    vi.restoreAllMocks();
    if (!off) return;
    vi.spyOn(legacyCode, 'legacyCountCells').mockReturnValue([]);
    vi.spyOn(legacyCode, 'hasPageAttributes').mockReturnValue(true);
  },
};

afterEach(() => {
  legacyReads.off = false;
});

const sorted = (ids: string[]) => [...ids].sort();

/** totalRecords of a list's first page, and every id its nextQuery chain reaches. */
const follow = async (api: TenantClient, url: string, key: string) => {
  const ids: string[] = [];
  let total: number | undefined;
  for (let next: string | null = url; next; ) {
    const res = await api.get(next);
    expect(res.status, next).toBe(200);
    total ??= res.body[key].totalRecords as number;
    ids.push(...res.body[key].records.map((r: { id: string }) => r.id));
    next = res.body[key].nextQuery;
  }
  return { total, ids: sorted(ids) };
};

/** Every list and search of the fixture's tenant: what paging finds, and its total equal to that. */
const expectEveryListExact = async (api: TenantClient, { ids }: LegacyFixture) => {
  const [t1, t2, t3] = ids.tickets;
  const [c1] = ids.customers;
  const [a1, a2] = ids.agents;
  const expected: [string, string[], string?][] = [
    ['/ticket/list', ids.tickets],
    ['/ticket/list?status=closed', [t2]],
    ['/ticket/list?status=opened', [t1, t3]],
    ['/ticket/list?priority=0', [t2, t3]],
    ['/ticket/list?priority=1', [t1]],
    [`/ticket/list?openedBy._id=${c1}`, [t1, t3]],
    [`/ticket/list?assignedTo._id=${a1}`, [t1]],
    [`/ticket/list?assignedTo._id=${a2}`, [t3]],
    [`/ticket/list?type._id=${ids.types[0]}`, [t1]],
    [`/ticket/list?area._id=${ids.area}`, [t1]],
    [`/ticket/list?group._id=${ids.group}`, [t1]],
    ['/ticket/list?tags=vip', [t1, t3]],
    ['/ticket/list?tags=bug', [t2]],
    ['/ticket/list?externalId1=EXT-1', [t1]],
    ['/ticket/list?managedDate=0', ids.tickets],
    ['/customer/list', ids.customers, 'customer'],
    ['/customer/list?email=OLD@example.com', [c1], 'customer'],
    ['/customer/list?name=Old Customer', [c1], 'customer'],
    ['/agent/list', ids.agents, 'agent'],
    ['/ticketType/list', ids.types, 'type'],
  ];
  for (const [url, want, key] of expected) {
    const found = await follow(api, url, key ?? 'ticket');
    expect(found, url).toEqual({ total: want.length, ids: sorted(want) });
  }
};

const read = async (key: ItemKey): Promise<Item | undefined> =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** The items of the fixture's keys as stored now (undefined: deleted). */
const readAll = async (items: Record<string, unknown>[]): Promise<Item[]> => {
  const found: Item[] = [];
  for (let i = 0; i < items.length; i += 100) {
    const Keys = items.slice(i, i + 100).map((item) => ({ pk: item.pk, sk: item.sk }));
    const out = await db().send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys, ConsistentRead: true } } }),
    );
    found.push(...((out.Responses?.[tableName()] ?? []) as Item[]));
  }
  return found;
};

const ticketKey = (tenantId: string, id: string) => keys.record(tenantId, 'TICKET', id);
const countOf = (tenantId: string, param: string, value: string) =>
  readCells(searchTarget(ticketEntity, tenantId, { param, value }).count);

describe('helpdesk reindex on data written before issue 12', () => {
  it('moves every legacy count, so lists stay exact with and without the code kept for old data', async () => {
    const legacy = await legacyTenant();
    const { clientId: tenant, ids } = legacy;
    // The code kept for old data is what makes these exact before the reindex.
    legacyReads.off = true;
    expect(await countOf(tenant, 'status', 'opened')).toBe(0);
    expect(await countOf(tenant, 'assignedTo._id', ids.agents[0])).toBe(0);
    legacyReads.off = false;
    expect(await countOf(tenant, 'status', 'opened')).toBe(2);

    const report = await reindexTenant(tenant);
    expect(report).toMatchObject({ tenantId: tenant, complete: true, skipped: [] });
    // status closed/opened/solved, priority 0/1, the two agents' assignments.
    expect(report.countsMoved).toBe(7);
    // Every item of the tenant but its unique guards (not rewritten) and the client item (not the tenant's).
    const guardsAndClient = legacy.items.filter((i) => i.entity === 'UNIQUE' || i.entity === 'CLIENT');
    expect(report.itemsRead).toBe(legacy.items.length - guardsAndClient.length);
    for (const off of [false, true]) {
      legacyReads.off = off;
      await expectEveryListExact(legacy.api, legacy);
      // A tag page shows whole tickets from the tag items alone.
      const vip = (await legacy.api.get('/ticket/list?tags=vip')).body.ticket.records;
      expect(vip.map((t: { openedBy: { name: string } }) => t.openedBy.name)).toEqual([
        'Old Customer',
        'Old Customer',
      ]);
    }
    // Writes after it keep every count exact without the legacy cells.
    legacyReads.off = true;
    const [t1, t2] = ids.tickets;
    expect(
      (await legacy.api.put(`/ticket/update/${t1}`, { status: 'closed', assignedTo: { id: ids.agents[1] } }))
        .status,
    ).toBe(200);
    expect((await legacy.api.del(`/ticket/delete/${t2}`)).status).toBe(200);
    expect(await follow(legacy.api, '/ticket/list?status=closed', 'ticket')).toEqual({ total: 1, ids: [t1] });
    expect(await follow(legacy.api, `/ticket/list?assignedTo._id=${ids.agents[0]}`, 'ticket')).toEqual({
      total: 0,
      ids: [],
    });
    expect(
      (await legacy.api.get(`/ticket/list?assignedTo._id=${ids.agents[1]}`)).body.ticket.totalRecords,
    ).toBe(2);
    legacyReads.off = false;
  });

  it('leaves every item as the current code writes it: compared with the same records written through the API', async () => {
    const legacy = await legacyTenant();
    const { clientId: tenant, ids, api } = legacy;
    await reindexTenant(tenant);
    const [t1] = ids.tickets;
    const [c1] = ids.customers;
    const [a1, a2] = ids.agents;
    // The same records through today's API (another e-mail: they are unique).
    const customer = await api.create('/customer/insert', {
      name: 'Old Customer',
      email: 'new@example.com',
      company: 'Acme',
    });
    const ticket = await api.create('/ticket/insert', {
      subject: 'First old ticket',
      description: 'd'.repeat(300),
      openedBy: { id: c1 },
      assignedTo: { id: a1 },
      cc: [{ id: a2 }],
      type: { id: ids.types[0] },
      area: { id: ids.area },
      group: { id: ids.group },
      priority: 1,
      tags: ['billing', 'vip'],
      externalId1: 'EXT-1',
      toReply: true,
      toReplyCustomer: false,
    });
    expect(
      (await api.put(`/ticket/reply/${ticket}`, { text: 'first reply', replyFromOperator: { id: a1 } }))
        .status,
    ).toBe(200);
    expect((await api.put(`/ticket/addNote/${ticket}`, { note: 'an old note', insertBy: a1 })).status).toBe(
      200,
    );

    const names = (item: Item | undefined, without: string[] = []) =>
      Object.keys(item ?? {})
        .filter((name) => !without.includes(name))
        .sort();
    const oldTicket = await read(ticketKey(tenant, t1));
    const newTicket = await read(ticketKey(tenant, ticket));
    // `feedAt`: the instant of a ticket's last event (none since this version for the old one).
    expect(names(oldTicket)).toEqual(names(newTicket, ['feedAt']));
    for (const name of [
      'dv',
      'subject',
      'priority',
      'status',
      'tags',
      'cc',
      'openedBy',
      'assignedTo',
      'externalId1',
    ])
      expect(oldTicket?.[name], name).toEqual(newTicket?.[name]);
    for (const slot of ['s1pk', 's2pk', 's3pk', 's4pk', 's5pk', 's6pk', 's7pk', 's8pk', 's9pk'])
      expect(oldTicket?.[slot], slot).toEqual(newTicket?.[slot]);
    // Its children: the tag items (page attributes), a reply by an agent, a note.
    const children = async (id: string) => {
      const all = await readAll(
        ['TAG#vip', 'TAG#billing'].map((sk) => ({ pk: ticketKey(tenant, id).pk, sk })),
      );
      return all
        .map(({ pk, ticketId, listsk, ...rest }) => rest)
        .sort((a, b) => String(a.sk).localeCompare(String(b.sk)));
    };
    expect(await children(t1)).toEqual(await children(ticket));
    const stored = (pick: (i: Record<string, unknown>) => boolean) => {
      const item = legacy.items.find(pick);
      return item && read({ pk: String(item.pk), sk: String(item.sk) });
    };
    const oldReply = await stored((i) => i.text === 'first reply');
    const oldNote = await stored((i) => i.note === 'an old note');
    const { replies, ticketNotes } = (await api.get(`/ticket/${ticket}`)).body;
    const newReply = await read({
      pk: ticketKey(tenant, ticket).pk,
      sk: keys.reply(replies[0].replyDate, replies[0].id),
    });
    const newNote = await read({ pk: ticketKey(tenant, ticket).pk, sk: keys.note(ticketNotes[0].id) });
    expect(names(oldReply)).toEqual(names(newReply));
    expect(names(oldNote)).toEqual(names(newNote));
    // A customer: the counts tickets keep on it aside.
    const counts = ['refCount', 'assigned'];
    expect(names(await read(keys.record(tenant, 'CUSTOMER', c1)), counts)).toEqual(
      names(await read(keys.record(tenant, 'CUSTOMER', customer)), counts),
    );
    // No item of the tenant keeps what the current code does not write.
    for (const item of await readAll(legacy.items)) {
      expect(Object.values(item), `${item.pk} ${item.sk}`).not.toContain(null);
      if (item.sk === '#' && String(item.pk).includes('#TICKET#'))
        for (const stale of ['tenantId', 'entity', 'updatedAt', 'insertDate', 'managedDate', 's1sk', 's2sk'])
          expect(item, `${item.pk} ${stale}`).not.toHaveProperty(stale);
    }
    // Only counts something reads are left.
    const counters = (await readCounters(tenant)).map((c) => String(c.sk));
    expect(counters.filter((name) => name.includes('='))).toEqual(
      expect.arrayContaining(['TICKET#tags=billing', 'TICKET#tags=bug', 'TICKET#tags=vip']),
    );
    expect(counters.filter((name) => name.includes('=') && !name.startsWith('TICKET#tags='))).toEqual([]);
  });
});

describe('helpdesk reindex, run beside the API', () => {
  it('can be interrupted anywhere: the API reads exactly meanwhile, `from` continues, and a run again writes nothing', async () => {
    const legacy = await legacyTenant();
    const { clientId: tenant, ids } = legacy;
    const stop = new AbortController();
    const positions: string[] = [];
    const first = await reindexTenant(tenant, {
      pageSize: 1,
      signal: stop.signal,
      onProgress: (position) => {
        positions.push(position);
        if (position.includes('/TICKET/')) stop.abort(); // after the first ticket
      },
    });
    expect(first.complete).toBe(false);
    expect(first.resumeFrom).toBe(positions.at(-1));
    expect(first.resumeFrom).toMatch(new RegExp(`^${tenant}/TICKET/\\d{15}#[0-9a-f]{24}$`));
    // One ticket rewritten, the others not yet: both shapes at once read exactly.
    const shapes = await Promise.all(
      ids.tickets.map(async (id) => 'updatedAt' in ((await read(ticketKey(tenant, id))) ?? {})),
    );
    expect(shapes.filter((old) => old)).toHaveLength(2);
    await expectEveryListExact(legacy.api, legacy);

    const rest = await reindexTenant(tenant, { from: first.resumeFrom });
    expect(rest).toMatchObject({ complete: true, skipped: [], countsMoved: 0 });
    // It read only what was left: the counters, two tickets and their children.
    expect(rest.itemsRead).toBeLessThan(first.itemsRead);
    for (const id of ids.tickets) expect(await read(ticketKey(tenant, id))).not.toHaveProperty('updatedAt');
    legacyReads.off = true;
    await expectEveryListExact(legacy.api, legacy);
    legacyReads.off = false;

    const again = await reindexTenant(tenant);
    expect(again).toMatchObject({ complete: true, skipped: [], countsMoved: 0, itemsWritten: 0 });
  });

  it('never overwrites a change the API made after it read an item: the write is refused and the item read again', async () => {
    const legacy = await legacyTenant();
    const { clientId: tenant, ids, api } = legacy;
    const [t1] = ids.tickets;
    const tickets = shapeOf('TICKET');
    if (!tickets) throw new Error('tickets are walked');
    // What a run read, before the API changed the ticket's status, tags and memo.
    const stale = (await read(ticketKey(tenant, t1))) as Item;
    const staleTags = await readAll(
      legacy.items.filter((i) => i.ticketId === t1 && String(i.sk).startsWith('TAG#')),
    );
    const update = await api.put(`/ticket/update/${t1}`, {
      status: 'solved',
      tags: ['vip', 'later'],
      memo: 'kept',
    });
    expect(update.status).toBe(200);
    await expect(rewriteRecord(tickets, tenant, stale, staleTags)).rejects.toBeInstanceOf(StaleWrite);
    // The same for a record, then the legacy counts read twice (two runs at once).
    const agents = shapeOf('AGENT');
    if (!agents) throw new Error('agents are walked');
    const agent = (await read(keys.record(tenant, 'AGENT', ids.agents[0]))) as Item;
    expect((await api.put(`/agent/update/${ids.agents[0]}`, { phoneNumber: '+1 555 0100' })).status).toBe(
      200,
    );
    await expect(rewriteRecord(agents, tenant, agent)).rejects.toBeInstanceOf(StaleWrite);
    const counters = await readCounters(tenant);

    const report = await reindexTenant(tenant);
    expect(report).toMatchObject({ complete: true, skipped: [], countsMoved: 7 });
    const moved = { itemsRead: 0, itemsWritten: 0, countsMoved: 0 };
    await settleCounts([ticketEntity as never], tenant, counters, moved);
    expect(moved.countsMoved).toBe(0);
    expect((await api.get(`/ticket/${t1}`)).body).toMatchObject({
      status: { status: 'solved' },
      memo: 'kept',
    });
    expect((await api.get(`/agent/${ids.agents[0]}`)).body.phoneNumber).toBe('+1 555 0100');
    legacyReads.off = true;
    expect(await follow(api, '/ticket/list?status=solved', 'ticket')).toEqual({ total: 1, ids: [t1] });
    expect(await follow(api, '/ticket/list?status=opened', 'ticket')).toEqual({
      total: 1,
      ids: [ids.tickets[2]],
    });
    expect(await follow(api, '/ticket/list?tags=later', 'ticket')).toEqual({ total: 1, ids: [t1] });
    expect(await follow(api, '/ticket/list?tags=billing', 'ticket')).toEqual({ total: 0, ids: [] });
    legacyReads.off = false;
  });
});

describe('helpdesk reindex after a declaration changes', () => {
  it('applies a new counted search to records written before it: index entries and exact counts', async () => {
    const tenant = await newTenant();
    const api = clientFor(tenant);
    const customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
    const subjects = ['printer', 'printer', 'network'];
    for (const subject of subjects)
      await api.create('/ticket/insert', { subject, description: 'd', openedBy: { id: customer } });
    const searches = ticketEntity.searches as NonNullable<typeof ticketEntity.searches>;
    const externalId1 = searches.externalId1;
    // A new search on slot s9 (all nine are taken: it replaces externalId1 for this test),
    // counted in a counter item of its own (no `count`).
    delete searches.externalId1;
    searches.subject = { slot: 's9', value: (t) => t.subject };
    try {
      const page = (value: string) =>
        listTickets(tenant.clientId, { page: 1, search: { param: 'subject', value } }, () => []);
      expect((await page('printer')).totalRecords).toBe(0);
      const report = await reindexTenant(tenant.clientId);
      expect(report).toMatchObject({ complete: true, skipped: [] });
      // Each ticket with the count of its subject (one transaction each).
      expect(report.itemsWritten).toBe(3 * 2);
      for (const [value, n] of [
        ['printer', 2],
        ['network', 1],
      ] as const) {
        const found = await page(value);
        expect(found.totalRecords, value).toBe(n);
        expect(found.items.filter(Boolean), value).toHaveLength(n);
      }
      expect((await reindexTenant(tenant.clientId)).itemsWritten).toBe(0);
    } finally {
      delete searches.subject;
      searches.externalId1 = externalId1 as (typeof searches)['externalId1'];
    }
  });
});
