import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { conflict, invalidReference, notFound, preconditionFailed } from '../http/errors';
import type { Fields, ResourceSpec } from '../resources/resource-spec';
import { countDelta } from './counters';
import { db, tableName } from './dynamo';
import { isId, newId } from './ids';
import { type EntityKind, keys } from './keys';
import { LIST_INDEX, SEARCH_INDEXES } from './table-schema';
import { retryStale, type WriteOp, writeAtomically } from './transact';

/**
 * The generic repository behind customers, agents and the lookups. Every write is one
 * transaction: the record, its uniqueness guards, its counters and checks on the records it
 * references. Updates and deletes read the current record once (they must know the old
 * indexed values to move guards and counters) and write conditioned on its version.
 */

/** Attributes owned by the store; everything else on a record item is an API field. */
const SYSTEM_ATTRIBUTES = new Set([
  'pk',
  'sk',
  'entity',
  'tenantId',
  'createdAt',
  'updatedAt',
  'version',
  'refCount',
]);
const isSystem = (name: string) => SYSTEM_ATTRIBUTES.has(name) || /^(list|s\d)(pk|sk)$/.test(name);

export const fieldsOf = (item: Fields): Fields =>
  Object.fromEntries(Object.entries(item).filter(([name]) => !isSystem(name)));

const searchValue = (spec: ResourceSpec, param: string, fields: Fields): string | undefined => {
  const search = spec.search[param];
  const value = search ? fields[search.field] : undefined;
  if (!search || typeof value !== 'string' || value === '') return undefined;
  return search.normalize ? search.normalize(value) : value;
};

const uniqueValue = (field: string, normalize: (v: string) => string, fields: Fields) => {
  const value = fields[field];
  return typeof value === 'string' && value !== '' ? normalize(value) : undefined;
};

export const searchCountName = (spec: ResourceSpec, param: string, value: string) =>
  `${spec.kind}#${param}=${value}`;

const recordItem = (
  spec: ResourceSpec,
  tenantId: string,
  id: string,
  fields: Fields,
  created: number,
  version: number,
) => {
  const order = keys.byCreation(created, id);
  const item: Fields = {
    ...fields,
    ...keys.record(tenantId, spec.kind, id),
    entity: spec.kind,
    tenantId,
    id,
    createdAt: created,
    updatedAt: Date.now(),
    version,
    [LIST_INDEX.partition]: keys.list(tenantId, spec.kind),
    [LIST_INDEX.sort]: order,
  };
  for (const [param, search] of Object.entries(spec.search)) {
    const value = searchValue(spec, param, fields);
    if (value === undefined) continue;
    item[SEARCH_INDEXES[search.slot].partition] = keys.search(tenantId, spec.kind, param, value);
    item[SEARCH_INDEXES[search.slot].sort] = order;
  }
  return item;
};

const referenceChecks = (spec: ResourceSpec, tenantId: string, fields: Fields): WriteOp[] =>
  spec.references.flatMap((ref) => {
    const id = ref.idOf(fields);
    return id === null || id === undefined ? [] : [referenceOp(tenantId, { ...ref, id }, 0)];
  });

const claimUnique = (
  spec: ResourceSpec,
  tenantId: string,
  id: string,
  fields: Fields,
  before?: Fields,
): WriteOp[] =>
  spec.unique.flatMap((u) => {
    const value = uniqueValue(u.field, u.normalize, fields);
    const old = before && uniqueValue(u.field, u.normalize, before);
    if (value === old) return [];
    const ops: WriteOp[] = [];
    if (old !== undefined)
      ops.push({ item: { Delete: { Key: keys.unique(tenantId, spec.kind, u.field, old) } } });
    if (value !== undefined)
      ops.push({
        item: {
          Put: {
            Item: { ...keys.unique(tenantId, spec.kind, u.field, value), entity: 'UNIQUE', ownerId: id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        onConditionFailed: () => conflict(u.code, u.message, u.field),
      });
    return ops;
  });

const moveCounters = (spec: ResourceSpec, tenantId: string, after?: Fields, before?: Fields): WriteOp[] => {
  const ops: WriteOp[] = [];
  if (!before) ops.push(countDelta(tenantId, spec.kind, 1));
  if (!after) ops.push(countDelta(tenantId, spec.kind, -1));
  for (const param of Object.keys(spec.search)) {
    const now = after && searchValue(spec, param, after);
    const old = before && searchValue(spec, param, before);
    if (now === old) continue;
    if (old !== undefined) ops.push(countDelta(tenantId, searchCountName(spec, param, old), -1));
    if (now !== undefined) ops.push(countDelta(tenantId, searchCountName(spec, param, now), 1));
  }
  return ops;
};

/**
 * A ticket's pointer at another record: checks that it exists and moves its `refCount`, in the
 * ticket's transaction. Several moves of one record merge; a zero sum is a plain existence check.
 */
export const referenceOp = (
  tenantId: string,
  ref: { kind: EntityKind; id: string; path: string; label: string },
  delta: number,
): WriteOp => {
  const key = keys.record(tenantId, ref.kind, ref.id);
  const onConditionFailed = () => invalidReference(ref.path, `${ref.label} ${ref.id}`);
  const build = (sum: number): WriteOp =>
    sum === 0
      ? {
          item: { ConditionCheck: { Key: key, ConditionExpression: 'attribute_exists(pk)' } },
          onConditionFailed,
        }
      : {
          item: {
            Update: {
              Key: key,
              UpdateExpression: 'ADD refCount :d',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':d': sum },
            },
          },
          onConditionFailed,
        };
  if (!isId(ref.id)) throw onConditionFailed();
  return { ...build(delta), counter: { id: `${key.pk}\n${key.sk}`, delta, build } };
};

/** The writes that create a record; exposed so client creation can add default records atomically. */
export const insertOps = (
  spec: ResourceSpec,
  tenantId: string,
  input: Fields,
): { id: string; ops: WriteOp[] } => {
  const id = newId();
  const fields = spec.store(input, undefined);
  const item = recordItem(spec, tenantId, id, fields, Date.now(), 1);
  const ops: WriteOp[] = [
    { item: { Put: { Item: item, ConditionExpression: 'attribute_not_exists(pk)' } } },
    ...claimUnique(spec, tenantId, id, fields),
    ...moveCounters(spec, tenantId, fields),
    ...referenceChecks(spec, tenantId, fields),
  ];
  return { id, ops };
};

/** Runs a write between the spec's blob staging and release, undoing the staging if it fails. */
const withBlobs = async (
  spec: ResourceSpec,
  tenantId: string,
  input: Fields,
  write: (input: Fields) => Promise<{ before?: Fields; after?: Fields }>,
): Promise<void> => {
  const staged = spec.blobs
    ? await spec.blobs.stage(tenantId, input)
    : { input, undo: async () => undefined };
  let outcome: { before?: Fields; after?: Fields };
  try {
    outcome = await write(staged.input);
  } catch (error) {
    await staged.undo();
    throw error;
  }
  await spec.blobs?.release(outcome.before, outcome.after);
};

/** Extra elements a caller adds to a create's transaction, given the new id (Idempotency-Key record). */
export type CreateGuard = (id: string) => WriteOp[];

export const insertRecord = async (
  spec: ResourceSpec,
  tenantId: string,
  input: Fields,
  guard: CreateGuard = () => [],
): Promise<string> => {
  let id = '';
  await withBlobs(spec, tenantId, input, async (staged) => {
    const insert = insertOps(spec, tenantId, staged);
    id = insert.id;
    await writeAtomically([...guard(id), ...insert.ops]);
    return {};
  });
  return id;
};

/** `If-Match` check against the version just read; the write itself is conditioned on that version. */
export const checkVersion = (what: string, current: Fields, ifMatch: number | undefined) => {
  if (ifMatch !== undefined && ifMatch !== current.version) throw preconditionFailed(what);
};

export const getRecord = async (spec: ResourceSpec, tenantId: string, id: string, consistent = false) => {
  if (!isId(id)) throw notFound(`${spec.label} ${id}`);
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.record(tenantId, spec.kind, id),
      ConsistentRead: consistent,
    }),
  );
  if (!out.Item) throw notFound(`${spec.label} ${id}`);
  return out.Item as Fields;
};

const versionGuard = (version: unknown) => ({
  ConditionExpression: 'version = :v',
  ExpressionAttributeValues: { ':v': version },
});

/** Merge update: only the fields sent change; `null` clears a nullable field. */
export const updateRecord = async (
  spec: ResourceSpec,
  tenantId: string,
  id: string,
  given: Fields,
  ifMatch?: number,
) => {
  if (!isId(id)) throw notFound(`${spec.label} ${id}`);
  await withBlobs(spec, tenantId, given, (patch) =>
    retryStale(async () => {
      const current = await getRecord(spec, tenantId, id, true);
      checkVersion(`${spec.label} ${id}`, current, ifMatch);
      const before = fieldsOf(current);
      const after = { ...before, ...spec.store(patch, before) };
      const version = (current.version as number) + 1;
      const item = recordItem(spec, tenantId, id, after, current.createdAt as number, version);
      await writeAtomically([
        { item: { Put: { Item: item, ...versionGuard(current.version) } }, onConditionFailed: () => 'stale' },
        ...claimUnique(spec, tenantId, id, after, before),
        ...moveCounters(spec, tenantId, after, before),
        ...referenceChecks(spec, tenantId, patch),
      ]);
      return { before, after };
    }),
  );
  return id;
};

/**
 * Tickets count the records they point at (`refCount`, moved in the ticket's transaction), so a
 * customer with tickets, or an agent or lookup a ticket uses, cannot be deleted (409). The
 * delete's condition re-checks the count, so a ticket created meanwhile makes it re-read.
 */
export const deleteRecord = async (
  spec: ResourceSpec,
  tenantId: string,
  id: string,
  ifMatch?: number,
): Promise<string> => {
  await withBlobs(spec, tenantId, {}, () =>
    retryStale(async () => {
      const current = await getRecord(spec, tenantId, id, true);
      checkVersion(`${spec.label} ${id}`, current, ifMatch);
      if (typeof current.refCount === 'number' && current.refCount > 0) {
        throw conflict('in-use', `${spec.label} ${id} is still used by ${current.refCount} ticket(s).`);
      }
      const before = fieldsOf(current);
      await writeAtomically([
        {
          item: {
            Delete: {
              Key: keys.record(tenantId, spec.kind, id),
              ConditionExpression: 'version = :v AND (attribute_not_exists(refCount) OR refCount <= :zero)',
              ExpressionAttributeValues: { ':v': current.version, ':zero': 0 },
            },
          },
          onConditionFailed: () => 'stale',
        },
        ...claimUnique(spec, tenantId, id, {}, before),
        ...moveCounters(spec, tenantId, undefined, before),
      ]);
      return { before };
    }),
  );
  return id;
};
