import { derivedWrites } from './derived-writes';
import { type BaseRecord, RECORD_META, type RecordEntity, type Stored } from './entities/records';
import type { Item } from './entity';
import { itemOf, recordOf } from './entity-item';
import { Conflict, StaleVersion } from './errors';
import { conditionOf, updateOf } from './expression';
import { newId } from './ids';
import { deleteWrite, preconditionOf, updateWrite } from './item-changes';
import { ABSENT, FIRST_VERSION, type WriteOp } from './write-ops';

/**
 * The writes of the record resources (customers, agents, lookups, webhook subscriptions) as
 * transaction elements: a create, an update and a delete. Everything a record implies (indexes,
 * counters, guards, reference checks) comes from its declaration through the entity engine.
 * Updates and deletes are conditioned on the version they read: domain/commit.ts re-reads and
 * retries when another write got there first.
 */

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
          Put: { Item: stored(e, tenantId, record, FIRST_VERSION), ...conditionOf(ABSENT) },
        },
      },
      ...derivedWrites(e, tenantId, id, record),
    ],
  };
};

/**
 * Changes the record read as `current` into `after` (merged by the caller): only the fields that
 * differ are written, conditioned on what the change depends on (item-changes.ts `updateWrite`).
 */
export const updateWrites = <T extends BaseRecord>(
  e: RecordEntity<T>,
  tenantId: string,
  current: Stored<T>,
  after: T,
  ifMatch?: readonly number[],
): WriteOp[] => [
  updateWrite(e, tenantId, current as unknown as Item, after, {
    ...preconditionOf(e.label, current.id, ifMatch),
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
      ...preconditionOf(e.label, current.id, ifMatch),
      condition: { or: [{ missing: 'refCount' }, { le: ['refCount', 0] }] },
    }),
    ...derivedWrites(e, tenantId, current.id, undefined, fieldsOf(current)),
  ];
};
