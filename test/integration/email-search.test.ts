import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/store/dynamo';
import { type EntityKind, keys } from '../../shared/store/keys';
import { newTenant, type Tenant } from '../helpers/api';
import { clientFor, type TenantClient } from '../helpers/tenant-client';

/**
 * `?email=` of customers and agents is served by the e-mail's unique guard (the guard, then the
 * record its ownerId names), not by an index entry of the record: a page holds that one record
 * or none, in two BatchGetItem requests, and records carry no `s1pk`.
 */
const RESOURCES = [
  { kind: 'CUSTOMER', path: '/customer', key: 'customer' },
  { kind: 'AGENT', path: '/agent', key: 'agent' },
] as const satisfies readonly { kind: EntityKind; path: string; key: string }[];

/** DynamoDB requests sent while `work` runs, by command. */
let sent: Record<string, number> | undefined;
const counted = async <T>(
  work: () => Promise<T>,
): Promise<{ result: T; requests: Record<string, number> }> => {
  const requests: Record<string, number> = {};
  sent = requests;
  try {
    return { result: await work(), requests };
  } finally {
    sent = undefined;
  }
};

const stored = async (tenant: Tenant, kind: EntityKind, id: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.record(tenant.clientId, kind, id) })))
    .Item;

let tenant: Tenant;
let api: TenantClient;

beforeAll(async () => {
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (sent) {
        const command = (context.commandName ?? '').replace(/Command$/, '');
        sent[command] = (sent[command] ?? 0) + 1;
      }
      return next(args);
    },
    { step: 'initialize', name: 'countEmailSearchRequests' },
  );
  tenant = await newTenant();
  api = clientFor(tenant);
});

describe.each(RESOURCES)('$path/list?email=', ({ kind, path, key }) => {
  const list = async (query: string) => {
    const res = await api.get(`${path}/list?${query}`);
    expect(res.status, query).toBe(200);
    return res.body[key];
  };
  const ids = (page: { records: { id: string }[] }) => page.records.map((r) => r.id);

  it('finds exactly the record with that e-mail, case-insensitively, as the detail shows it', async () => {
    const ada = await api.create(`${path}/insert`, { name: 'Ada', email: `Ada.${kind}@Example.com` });
    await api.create(`${path}/insert`, { name: 'Ada', email: `ada.other.${kind}@example.com` });
    for (const email of [`ada.${kind}@example.com`, `ADA.${kind}@EXAMPLE.COM`, `Ada.${kind}@Example.com`]) {
      const page = await list(`email=${encodeURIComponent(email)}`);
      expect(page).toEqual({
        totalRecords: 1,
        recordsPerPage: 25,
        previousQuery: null,
        nextQuery: null,
        records: [(await api.get(`${path}/${ada}`)).body],
      });
    }
    // The other kind's guard of the same address is not this one's.
    const other = RESOURCES.find((r) => r.kind !== kind) as (typeof RESOURCES)[number];
    expect(
      (await api.get(`${other.path}/list?email=ada.${kind}@example.com`)).body[other.key].totalRecords,
    ).toBe(0);
  });

  it('answers an unknown e-mail with an empty page', async () => {
    expect(await list('email=nobody@example.com')).toEqual({
      totalRecords: 0,
      recordsPerPage: 25,
      previousQuery: null,
      nextQuery: null,
      records: [],
    });
  });

  it('follows an e-mail change and a delete', async () => {
    const id = await api.create(`${path}/insert`, { name: 'Moving', email: `old.${kind}@example.com` });
    expect((await api.put(`${path}/update/${id}`, { email: `New.${kind}@example.com` })).status).toBe(200);
    expect((await list(`email=old.${kind}@example.com`)).totalRecords).toBe(0);
    expect(ids(await list(`email=old.${kind}@example.com`))).toEqual([]);
    const found = await list(`email=new.${kind}@example.com`);
    expect(found.totalRecords).toBe(1);
    expect(ids(found)).toEqual([id]);
    expect((await api.del(`${path}/delete/${id}`)).status).toBe(200);
    expect(await list(`email=new.${kind}@example.com`)).toMatchObject({ totalRecords: 0, records: [] });
  });

  it('answers later pages empty with a previous link, as any list past its end, and refuses a cursor', async () => {
    await api.create(`${path}/insert`, { name: 'Paged', email: `paged.${kind}@example.com` });
    const base = `${path}/list`;
    const second = await list(`email=Paged.${kind}%40example.com&page=2`);
    expect(second).toMatchObject({ totalRecords: 1, records: [], nextQuery: null });
    const previous = new URL(second.previousQuery);
    expect(previous.pathname).toBe(base);
    expect(Object.fromEntries(previous.searchParams)).toEqual({
      email: `Paged.${kind}@example.com`,
      page: '1',
    });
    const third = await list(`email=paged.${kind}%40example.com&page=3`);
    expect(Object.fromEntries(new URL(third.previousQuery).searchParams)).toEqual({
      email: `paged.${kind}@example.com`,
      page: '2',
    });
    // No page of it has a next one, so no cursor was ever signed for it: any is refused.
    const res = await api.get(`${base}?email=paged.${kind}%40example.com&page=2&cursor=abc.def`);
    expect(res.status).toBe(400);
  });

  it('costs two BatchGetItem requests (the guard, then the record), one when no guard exists', async () => {
    await api.create(`${path}/insert`, { name: 'Cost', email: `cost.${kind}@example.com` });
    await api.get(`${path}/list`); // the access token verified and cached
    const hit = await counted(() => api.get(`${path}/list?email=cost.${kind}@example.com`));
    expect(hit.result.body[key].totalRecords).toBe(1);
    expect(hit.requests).toEqual({ BatchGetItem: 2 });
    const miss = await counted(() => api.get(`${path}/list?email=missing.${kind}@example.com`));
    expect(miss.result.body[key].totalRecords).toBe(0);
    expect(miss.requests).toEqual({ BatchGetItem: 1 });
  });

  it('writes no e-mail index entry, and drops one an older item carries on its next write', async () => {
    const id = await api.create(`${path}/insert`, { name: 'Entry', email: `entry.${kind}@example.com` });
    expect(await stored(tenant, kind, id)).not.toHaveProperty('s1pk');
    // As written before the guard served the search: with its search1v2 entry.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.record(tenant.clientId, kind, id),
        UpdateExpression: 'SET s1pk = :p',
        ExpressionAttributeValues: {
          ':p': keys.search(tenant.clientId, kind, 'email', `entry.${kind}@example.com`),
        },
      }),
    );
    expect(ids(await list(`email=entry.${kind}@example.com`))).toEqual([id]);
    expect((await api.put(`${path}/update/${id}`, { name: 'Entry Renamed' })).status).toBe(200);
    const item = await stored(tenant, kind, id);
    expect(item).toMatchObject({ name: 'Entry Renamed', email: `entry.${kind}@example.com` });
    expect(item).not.toHaveProperty('s1pk');
    expect(ids(await list(`email=entry.${kind}@example.com`))).toEqual([id]);
  });
});
