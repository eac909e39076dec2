import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { derivedWrites } from './derived-writes';
import { db, tableName } from './dynamo';
import { type BaseRecord, RECORD_META, type RecordEntity, type Stored } from './entities/records';
import type { Item } from './entity';
import { itemOf, recordOf } from './entity-item';
import { Conflict, NotFound, StaleVersion } from './errors';
import { conditionOf, queryOf, updateOf } from './expression';
import { isId, newId } from './ids';
import { deleteWrite, updateWrite } from './item-changes';
import { type ItemKey, keys } from './keys';
import { guardPage, listPage } from './pages';
import { queryAll } from './query-all';
import { guardTarget, searchTarget } from './search-targets';
import { LIST_INDEX } from './table-schema';
import { ABSENT, itemId, type WriteOp } from './write-ops';

/**
 * The record engine behind customers, agents and the lookups: reads, and the writes of a
 * create, an update and a delete as transaction elements. Everything a record implies
 * (indexes, counters, guards, reference checks) comes from its declaration through the entity
 * engine. Updates and deletes are conditioned on the version they read: domain/commit.ts
 * re-reads and retries when another write got there first.
 */
export const recordMissing = <T extends BaseRecord>(e: RecordEntity<T>, id: string) =>
  new NotFound(`${e.label} ${id}`);

/**
 * Every record of a kind in a tenant, read whole from its list index (eventually consistent): for
 * kinds a tenant has few of (webhook subscriptions, capped by their entity's `list.max`).
 */
export const allRecords = async <T extends BaseRecord>(
  e: RecordEntity<T>,
  tenantId: string,
): Promise<Stored<T>[]> =>
  (await queryAll({
    IndexName: LIST_INDEX.name,
    ...queryOf({ partition: [LIST_INDEX.partition, keys.list(tenantId, e.kind)] }),
  })) as unknown as Stored<T>[];

export const getRecord = async <T extends BaseRecord>(
  e: RecordEntity<T>,
  tenantId: string,
  id: string,
  consistent = false,
): Promise<Stored<T>> => {
  if (!isId(id)) throw recordMissing(e, id);
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: e.key(tenantId, { id } as T),
      ConsistentRead: consistent,
    }),
  );
  if (!out.Item) throw recordMissing(e, id);
  return out.Item as Stored<T>;
};

/**
 * Sets `fields` (none searched, counted or referenced) of the record read as `current`, bumping its
 * version, only if it is still that version: `stale` otherwise (a user's change stands).
 */
export const fieldsAtVersion = <T extends BaseRecord>(
  e: RecordEntity<T>,
  tenantId: string,
  current: Stored<T>,
  fields: Partial<T>,
  at: number,
): WriteOp => ({
  item: {
    Update: {
      Key: e.key(tenantId, current),
      ...updateOf(
        { set: { ...fields, version: current.version + 1, updatedAt: at } },
        { eq: ['version', current.version] },
      ),
    },
  },
  onConditionFailed: () => 'stale',
});

/** The record's own fields, without keys, index attributes and the store's bookkeeping. */
export const fieldsOf = <T extends BaseRecord>(item: Stored<T>): T =>
  recordOf<T>(item as unknown as Item, RECORD_META);

/**
 * `If-Match` (the versions it names, any one of which may match) against the version just read;
 * the write itself is then conditioned on that version.
 */
export const checkVersion = (
  what: string,
  current: { version: number },
  ifMatch: readonly number[] | undefined,
) => {
  if (ifMatch !== undefined && !ifMatch.includes(current.version)) throw new StaleVersion(what);
};

const stored = <T extends BaseRecord>(e: RecordEntity<T>, tenantId: string, record: T, version: number) =>
  itemOf(e, tenantId, record, { updatedAt: Date.now(), version });

/** The writes that create a record (exposed so client creation adds default records atomically). */
export const insertWrites = <T extends BaseRecord>(
  e: RecordEntity<T>,
  tenantId: string,
  fields: Omit<T, keyof BaseRecord>,
): { id: string; record: T; ops: WriteOp[] } => {
  const id = newId();
  const record = { ...fields, id, createdAt: Date.now() } as T;
  return {
    id,
    record,
    ops: [
      {
        item: {
          Put: { Item: stored(e, tenantId, record, 1), ...conditionOf(ABSENT) },
        },
      },
      ...derivedWrites(e, tenantId, id, record),
    ],
  };
};

/** How a record write's condition failures read: gone (404) or If-Match no longer holding (412). */
const precondition = <T extends BaseRecord>(e: RecordEntity<T>, id: string, ifMatch?: readonly number[]) => ({
  ifMatch,
  missing: () => recordMissing(e, id),
  stale: () => new StaleVersion(`${e.label} ${id}`),
});

/**
 * Changes the record read as `current` into `after` (merged by the caller): only the fields that
 * differ are written, conditioned on what the change depends on (entity.ts `updateWrite`).
 */
export const updateWrites = <T extends BaseRecord>(
  e: RecordEntity<T>,
  tenantId: string,
  current: Stored<T>,
  after: T,
  ifMatch?: readonly number[],
): WriteOp[] => [
  updateWrite(e, tenantId, current as unknown as Item, after, {
    ...precondition(e, current.id, ifMatch),
    meta: { updatedAt: Date.now() },
    keep: RECORD_META,
  }),
  ...derivedWrites(e, tenantId, current.id, after, fieldsOf(current)),
];

/**
 * Tickets count the records they point at (`refCount`, moved in the ticket's transaction), so a
 * customer with tickets, or an agent or lookup a ticket uses, cannot be deleted (409). The
 * delete's condition re-checks the count, so a ticket created meanwhile makes it re-read.
 */
export const deleteWrites = <T extends BaseRecord>(
  e: RecordEntity<T>,
  tenantId: string,
  current: Stored<T>,
  ifMatch?: readonly number[],
): WriteOp[] => {
  if (typeof current.refCount === 'number' && current.refCount > 0) {
    throw new Conflict('in-use', `${e.label} ${current.id} is still used by ${current.refCount} ticket(s).`);
  }
  return [
    deleteWrite(e, tenantId, current as unknown as Item, {
      ...precondition(e, current.id, ifMatch),
      condition: { or: [{ missing: 'refCount' }, { le: ['refCount', 0] }] },
    }),
    ...derivedWrites(e, tenantId, current.id, undefined, fieldsOf(current)),
  ];
};

/**
 * A page of a resource's records: the whole list or one exact-match search, each from its own
 * index. A plain list's entries are the records; a search's entries are keys only, so the page's
 * one BatchGetItem reads the records with the count. A search served by a unique guard (e-mail)
 * reads the guard, then the record it names.
 */
export const listRecords = async <T extends BaseRecord>(
  e: RecordEntity<T>,
  tenantId: string,
  query: { page: number; cursor?: string; search?: { param: string; value: string } },
) => {
  const guard = guardTarget(e, tenantId, query.search);
  if (guard) {
    const page = await guardPage(guard, query.page, query.cursor);
    return { ...page, items: page.items as unknown as (Stored<T> | undefined)[] };
  }
  const target = searchTarget(e, tenantId, query.search);
  const whole = target.index.projection === 'ALL';
  const page = await listPage(
    { tenantId, resource: e.kind, target, page: query.page, cursor: query.cursor },
    whole ? undefined : (entries) => entries.map((entry) => ({ pk: String(entry.pk), sk: String(entry.sk) })),
  );
  // Aligned with the entries (links resume after them); a record deleted since is undefined.
  const items = whole
    ? page.items
    : page.items.map((entry) => page.fetched.get(itemId(entry as unknown as ItemKey)));
  return { ...page, items: items as unknown as (Stored<T> | undefined)[] };
};
