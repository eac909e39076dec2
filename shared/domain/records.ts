import type { BaseRecord, RecordEntity } from '../store/entities/records';
import { isId } from '../store/ids';
import {
  checkVersion,
  deleteWrites,
  fieldsOf,
  getRecord,
  insertWrites,
  recordMissing,
  updateWrites,
} from '../store/records';
import { commit, NOTHING_STAGED, type Staged, type WriteContext } from './commit';

/**
 * The write service of the record resources (customers, agents, lookups): what a resource
 * adds to its declaration (store/entities/records.ts) is how a body becomes stored fields and,
 * for customers, the photo kept in S3. Each write is one commit (domain/commit.ts).
 */
export interface RecordResource<T extends BaseRecord, I> {
  entity: RecordEntity<T>;
  /** The stored fields a validated body sets (over `current` on update: merge semantics). */
  prepare: (input: I, current: T | undefined) => Partial<T>;
  /** Bytes kept outside the table: staged before the write, released after it. */
  files?: {
    stage: (tenantId: string, input: I) => Promise<{ fields: Partial<T>; staged: Staged }>;
    release: (before: T | undefined, after: T | undefined) => Promise<void>;
  };
}

const stage = <T extends BaseRecord, I>(r: RecordResource<T, I>, tenantId: string, input: I) =>
  r.files
    ? r.files.stage(tenantId, input)
    : Promise.resolve({ fields: {} as Partial<T>, staged: NOTHING_STAGED });

export const insertRecord = async <T extends BaseRecord, I>(
  r: RecordResource<T, I>,
  ctx: WriteContext,
  input: I,
): Promise<string> => {
  const { fields, staged } = await stage(r, ctx.tenantId, input);
  return commit(
    ctx,
    () => {
      const { id, ops } = insertWrites(r.entity, ctx.tenantId, {
        ...r.prepare(input, undefined),
        ...fields,
      } as T);
      return { result: id, ops };
    },
    staged,
  );
};

/** Merge update: only the fields sent change; `null` clears a nullable field. */
export const updateRecord = async <T extends BaseRecord, I>(
  r: RecordResource<T, I>,
  ctx: WriteContext,
  id: string,
  input: I,
): Promise<string> => {
  if (!isId(id)) throw recordMissing(r.entity, id);
  const { fields, staged } = await stage(r, ctx.tenantId, input);
  return commit(
    ctx,
    async () => {
      const current = await getRecord(r.entity, ctx.tenantId, id, true);
      checkVersion(`${r.entity.label} ${id}`, current, ctx.ifMatch);
      const before = fieldsOf(current);
      const after = { ...before, ...r.prepare(input, before), ...fields };
      return {
        result: id,
        ops: updateWrites(r.entity, ctx.tenantId, current, after),
        after: async () => r.files?.release(before, after),
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
      ops: deleteWrites(r.entity, ctx.tenantId, current),
      after: async () => r.files?.release(fieldsOf(current), undefined),
    };
  });
