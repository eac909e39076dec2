import { cascadeWrite } from '../store/cascades';
import type { BaseRecord, RecordEntity, Stored } from '../store/entities/records';
import type { EventDraft } from '../store/events';
import type { HistoryOf } from '../store/history';
import { getRecord } from '../store/record-reads';
import { checkVersion, deleteWrites, fieldsOf, insertWrites, updateWrites } from '../store/record-writes';
import { assertFits } from '../store/transact';
import { FIRST_VERSION, type WriteOp } from '../store/write-ops';
import {
  commit,
  NOTHING_STAGED,
  type Staged,
  versionAfter,
  type WriteContext,
  type WritePlan,
} from './commit';
import { changed, inFeed } from './events';

/**
 * The write service of the record resources (customers, agents, lookups): what a resource
 * adds to its declaration (store/entities/records.ts) is how a body becomes stored fields and,
 * for customers, the photo kept in S3. Each write is one commit (domain/commit.ts).
 */
export interface RecordResource<T extends BaseRecord, I> {
  entity: RecordEntity<T>;
  /** The stored fields a validated body sets (over `current` on update: merge semantics). */
  prepare: (input: I, current: T | undefined) => Partial<T>;
  /** Checks a body needs beyond its schema, before anything is staged or written (a webhook's URL). */
  check?: (input: I) => Promise<void>;
  /**
   * Its writes are not events of the change feed (webhook subscriptions: they configure the
   * feed's delivery, they are not what it reports). Records of a kind the feed has no name for
   * must say so here.
   */
  silent?: true;
  /** Its changes have a history (domain/history.ts), which the cascade of its delete removes. */
  history?: HistoryOf;
  /**
   * Items an update writes beside the record, in its transaction, given the record as read and
   * its fields after the change (a re-enabled webhook subscription starts its redelivery).
   */
  alsoUpdates?: (tenantId: string, current: Stored<T>, after: T) => WriteOp[];
  /**
   * Bytes kept outside the table: staged before the write; the objects a change leaves no record
   * pointing at (`released`) are deleted by the change's cascade (store/cascades.ts).
   */
  files?: {
    stage: (tenantId: string, input: I) => Promise<{ fields: Partial<T>; staged: Staged }>;
    released: (before: T | undefined, after: T | undefined) => string[];
  };
}

type Change = Parameters<typeof changed>[1];

/** The feed events of a record write: one, or none for a resource that opts out (`silent`). */
const eventsOf = <T extends BaseRecord, I>(
  r: RecordResource<T, I>,
  change: Change,
  id: string,
  record: T | null,
  before?: T,
): EventDraft[] => {
  if (r.silent) return [];
  const { kind } = r.entity;
  if (!inFeed(kind)) throw new Error(`${kind} records have no feed events: declare the resource silent`);
  return [changed(kind, change, id, record, before)];
};

/** The cascade deleting the objects a change leaves no record pointing at (none: no element). */
const releaseWrites = <T extends BaseRecord, I>(
  r: RecordResource<T, I>,
  tenantId: string,
  before: T | undefined,
  after: T | undefined,
): WriteOp[] => {
  const released = r.files?.released(before, after) ?? [];
  return released.length > 0 ? [cascadeWrite(tenantId, { kind: 'files', keys: released })] : [];
};

const stage = <T extends BaseRecord, I>(r: RecordResource<T, I>, tenantId: string, input: I) =>
  r.files
    ? r.files.stage(tenantId, input)
    : Promise.resolve({ fields: {} as Partial<T>, staged: NOTHING_STAGED });

/**
 * The plan of one record's insert: its writes and its `created` event. Also what seeds a new
 * client's ticket types (domain/new-client.ts), in the client's own commit.
 */
export const insertPlan = <T extends BaseRecord, I>(
  r: RecordResource<T, I>,
  tenantId: string,
  input: I,
  fields: Partial<T> = {},
): WritePlan<string> => {
  const { id, record, ops } = insertWrites(r.entity, tenantId, {
    ...r.prepare(input, undefined),
    ...fields,
  } as T);
  return { result: id, ops, events: eventsOf(r, 'created', id, record), version: FIRST_VERSION };
};

/** Inserts a record; `also` adds writes to its transaction, given its id (an import's source item). */
export const insertRecord = async <T extends BaseRecord, I>(
  r: RecordResource<T, I>,
  ctx: WriteContext,
  input: I,
  also: (id: string) => WriteOp[] = () => [],
): Promise<string> => {
  await r.check?.(input);
  const { fields, staged } = await stage(r, ctx.tenantId, input);
  return commit(
    ctx,
    () => {
      const plan = insertPlan(r, ctx.tenantId, input, fields);
      return { ...plan, ops: [...plan.ops, ...also(plan.result)] };
    },
    staged,
  );
};

/**
 * Merge update: only the fields sent change; `null` clears a nullable field. The record is read
 * first (404 and the size limit checked before any file is stored), and the write is
 * conditioned on what it depends on (store/item-changes.ts `updateWrite`): a concurrent change of
 * other fields does not make it start over.
 */
export const updateRecord = async <T extends BaseRecord, I>(
  r: RecordResource<T, I>,
  ctx: WriteContext,
  id: string,
  input: I,
): Promise<string> => {
  // Like the schema's, its checks answer a bad body (400) before an unknown id (404).
  await r.check?.(input);
  let known: Stored<T> | undefined = await getRecord(r.entity, ctx.tenantId, id, true);
  checkVersion(`${r.entity.label} ${id}`, known, ctx.ifMatch);
  const writes = (current: Stored<T>, fields: Partial<T>) => {
    const before = fieldsOf(current);
    const after = { ...before, ...r.prepare(input, before), ...fields };
    const ops = [
      ...updateWrites(r.entity, ctx.tenantId, current, after, ctx.ifMatch),
      ...(r.alsoUpdates?.(ctx.tenantId, current, after) ?? []),
    ];
    return { before, after, ops };
  };
  assertFits(writes(known, {}).ops);
  const { fields, staged } = await stage(r, ctx.tenantId, input);
  return commit(
    ctx,
    async () => {
      const current = known ?? (await getRecord(r.entity, ctx.tenantId, id, true));
      known = undefined;
      checkVersion(`${r.entity.label} ${id}`, current, ctx.ifMatch);
      const { before, after, ops } = writes(current, fields);
      return {
        result: id,
        ops: [...ops, ...releaseWrites(r, ctx.tenantId, before, after)],
        events: eventsOf(r, 'updated', id, after, before),
        ...versionAfter(ctx, current.version),
      };
    },
    staged,
  );
};

export const deleteRecord = <T extends BaseRecord, I>(
  r: RecordResource<T, I>,
  ctx: WriteContext,
  id: string,
): Promise<string> =>
  commit(ctx, async () => {
    const current = await getRecord(r.entity, ctx.tenantId, id, true);
    checkVersion(`${r.entity.label} ${id}`, current, ctx.ifMatch);
    return {
      result: id,
      ops: [
        ...deleteWrites(r.entity, ctx.tenantId, current, ctx.ifMatch),
        ...releaseWrites(r, ctx.tenantId, fieldsOf(current), undefined),
        ...(r.history ? [cascadeWrite(ctx.tenantId, { kind: 'history', of: r.history, recordId: id })] : []),
      ],
      events: eventsOf(r, 'deleted', id, null),
    };
  });
