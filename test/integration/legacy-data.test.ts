import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/store/dynamo';
import { invoke } from '../helpers/api';
import { fixture } from '../helpers/legacy-tenant';
import { clientFor, type TenantClient } from '../helpers/tenant-client';

/**
 * Data written before issue 12 reads and writes correctly now. The fixture holds one tenant's
 * items exactly as the code of commit 4d1bc36 wrote them (test/fixtures/legacy-v1-items.json:
 * null fields stored, a sort attribute per search slot, `updatedAt` on tickets, tag items
 * without page attributes, every search counted in a counter item of its own). They are put
 * into the test table as they are; the current indexes pick them up the way DynamoDB fills a
 * new index from existing items. Then every list, search and count must read as it did, and
 * writes to those records must keep every count exact (each total equal to what paging finds).
 */
const { customers, agents, types, area, group, tickets } = fixture.ids;
const [t1, t2, t3] = tickets;
const [c1, c2] = customers;
const [a1, a2] = agents;

let api: TenantClient;

/** Every record a list URL reaches by following nextQuery, and the totalRecords of its first page. */
const walk = async (url: string, key = 'ticket'): Promise<{ total: number; ids: string[] }> => {
  const ids: string[] = [];
  let total = -1;
  let next: string | null = url;
  while (next) {
    const res = await api.get(next);
    expect(res.status, next).toBe(200);
    const page = res.body[key];
    if (total < 0) total = page.totalRecords;
    ids.push(...page.records.map((r: { id: string }) => r.id));
    next = page.nextQuery;
  }
  return { total, ids };
};

/** Asserts a list's totalRecords is exactly what paging reaches, and returns the ids. */
const exact = async (url: string, key = 'ticket'): Promise<string[]> => {
  const { total, ids } = await walk(url, key);
  expect(total, url).toBe(ids.length);
  return ids;
};

const sorted = (ids: string[]) => [...ids].sort();

beforeAll(async () => {
  const items = fixture.items;
  for (let i = 0; i < items.length; i += 25) {
    await db().send(
      new BatchWriteCommand({
        RequestItems: { [tableName()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
  }
  const res = await invoke('GET', '/oauth/token?grant_type=client_credentials', {
    headers: { authorization: `Basic ${fixture.apiToken}` },
  });
  expect(res.status).toBe(200);
  const token: string = res.body.access_token;
  api = clientFor({
    clientId: fixture.clientId,
    apiToken: fixture.apiToken,
    accessToken: token,
    headers: { authorization: `Bearer ${token}`, clientid: fixture.clientId },
  });
});

describe('data written before issue 12', () => {
  it('is in the shape the fixture claims (null fields, per-slot sort keys, updatedAt, tag items without references)', () => {
    const ticket = fixture.items.find((i) => i.pk === `T#${fixture.clientId}#TICKET#${t1}` && i.sk === '#');
    expect(ticket).toMatchObject({ memo: null, s1sk: expect.any(String), updatedAt: expect.any(Number) });
    const tag = fixture.items.find((i) => i.sk === 'TAG#vip' && i.ticketId === t1);
    expect(tag).toBeDefined();
    expect(tag).not.toHaveProperty('openedBy');
    expect(fixture.items.some((i) => i.sk === 'TICKET#status=opened')).toBe(true);
  });

  it('reads every list and search with exact totals, as it was written', async () => {
    expect(sorted(await exact('/ticket/list'))).toEqual(sorted(tickets));
    expect(await exact('/ticket/list?status=closed')).toEqual([t2]);
    expect(sorted(await exact('/ticket/list?status=opened'))).toEqual(sorted([t1, t3]));
    expect(await exact('/ticket/list?priority=1')).toEqual([t1]);
    expect(sorted(await exact(`/ticket/list?openedBy._id=${c1}`))).toEqual(sorted([t1, t3]));
    expect(await exact(`/ticket/list?assignedTo._id=${a1}`)).toEqual([t1]);
    expect(await exact(`/ticket/list?assignedTo._id=${a2}`)).toEqual([t3]);
    expect(await exact(`/ticket/list?type._id=${types[0]}`)).toEqual([t1]);
    expect(await exact(`/ticket/list?area._id=${area}`)).toEqual([t1]);
    expect(await exact(`/ticket/list?group._id=${group}`)).toEqual([t1]);
    expect(sorted(await exact('/ticket/list?tags=vip'))).toEqual(sorted([t1, t3]));
    expect(await exact('/ticket/list?externalId1=EXT-1')).toEqual([t1]);
    expect(sorted(await exact('/ticket/list?managedDate=0'))).toEqual(sorted(tickets));
    expect(sorted(await exact('/customer/list', 'customer'))).toEqual(sorted(customers));
    expect(await exact('/customer/list?email=OLD@example.com', 'customer')).toEqual([c1]);
    expect(sorted(await exact('/agent/list', 'agent'))).toEqual(sorted(agents));
  });

  it('shows old tickets whole: references expanded (from tag pages too), empty fields as null', async () => {
    const page = (await api.get('/ticket/list?tags=vip')).body.ticket;
    const first = page.records.find((r: { id: string }) => r.id === t1);
    expect(first.openedBy).toMatchObject({ id: c1, name: 'Old Customer' });
    expect(first.assignedTo).toMatchObject({ id: a1, name: 'Old Agent' });
    expect(first.cc).toEqual([expect.objectContaining({ id: a2 })]);
    expect(first.area).toMatchObject({ id: area, area: 'billing' });
    expect(first.memo).toBeNull();
    const detail = (await api.get(`/ticket/${t1}`)).body;
    expect(detail.replies.map((r: { text: string }) => r.text)).toEqual(['first reply', 'customer answer']);
    expect(detail.ticketNotes).toHaveLength(1);
    expect(detail.externalId1).toBe('EXT-1');
    expect((await api.get(`/ticket/${t3}`)).body.memo).toBe('a memo');
  });

  it('keeps every count exact through writes to old records', async () => {
    // Reassign t1 from a1 to a2, close it, drop a tag: moves counts that live in new places
    // (the agent's `assigned`, the total counter's `status=`) against old ones.
    const update = await api.put(`/ticket/update/${t1}`, {
      assignedTo: { id: a2 },
      status: 'closed',
      tags: ['billing', 'new'],
      memo: 'now set',
    });
    expect(update.status).toBe(200);
    expect(await exact(`/ticket/list?assignedTo._id=${a1}`)).toEqual([]);
    expect(sorted(await exact(`/ticket/list?assignedTo._id=${a2}`))).toEqual(sorted([t1, t3]));
    expect(sorted(await exact('/ticket/list?status=closed'))).toEqual(sorted([t1, t2]));
    expect(await exact('/ticket/list?status=opened')).toEqual([t3]);
    expect(await exact('/ticket/list?tags=vip')).toEqual([t3]);
    expect(await exact('/ticket/list?tags=new')).toEqual([t1]);
    expect((await api.get(`/ticket/${t1}`)).body.memo).toBe('now set');
    // The write left t1 in today's shape: nothing derivable stored (its type, tenant and dates are
    // in its keys), no per-slot sort copies, no null fields.
    const stored = (
      await db().send(
        new GetCommand({
          TableName: tableName(),
          Key: { pk: `T#${fixture.clientId}#TICKET#${t1}`, sk: '#' },
        }),
      )
    ).Item as Record<string, unknown>;
    for (const derivable of ['s1sk', 'updatedAt', 'tenantId', 'entity', 'insertDate', 'managedDate'])
      expect(stored).not.toHaveProperty(derivable);
    expect(Object.values(stored)).not.toContain(null);
    // A reply and a note on an old ticket, then its deletion.
    expect(
      (await api.put(`/ticket/reply/${t3}`, { text: 'a new reply', replyFromOperator: { id: a2 } })).status,
    ).toBe(200);
    expect((await api.put(`/ticket/addNote/${t3}`, { note: 'a new note', insertBy: a2 })).status).toBe(200);
    expect((await api.get(`/ticket/${t3}`)).body.numberOfReplies).toBe(2);
    expect((await api.del(`/ticket/delete/${t2}`)).status).toBe(200);
    expect(sorted(await exact('/ticket/list'))).toEqual(sorted([t1, t3]));
    expect(await exact('/ticket/list?status=closed')).toEqual([t1]);
    expect(await exact(`/ticket/list?openedBy._id=${c2}`)).toEqual([]);
    expect(await exact(`/ticket/list?type._id=${types[1]}`)).toEqual([]);
    // Nothing points at a1 any more (its old counts moved to zero): it can go; c1 cannot.
    expect((await api.del(`/agent/delete/${a1}`)).status).toBe(200);
    expect(await exact(`/ticket/list?assignedTo._id=${a1}`)).toEqual([]);
    expect((await api.del(`/customer/delete/${c1}`)).status).toBe(409);
    // An old customer item with stored nulls takes an update, and its e-mail stays unique.
    expect((await api.put(`/customer/update/${c2}`, { company: 'Now Inc' })).status).toBe(200);
    expect((await api.put(`/customer/update/${c2}`, { email: 'old@example.com' })).status).toBe(409);
    expect((await api.get(`/customer/${c2}`)).body).toMatchObject({ company: 'Now Inc', phoneNumber: null });
  });
});
