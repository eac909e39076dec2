import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { childItem } from '../derived-writes';
import type { Entity, Item } from '../entity';
import { hydrate, itemOf, recordOf, same } from '../entity-item';
import { type Cond, conditionOf, type UpdateSpec, updateOf } from '../expression';
import { childKind, type ItemKey, keys } from '../keys';
import { searchTarget } from '../search-targets';
import { LIST_INDEX, SEARCH_INDEXES, SEARCH_SLOTS } from '../table-schema';
import { mergeCounters, StaleWrite, writeAtomically } from '../transact';
import { updateIf } from '../update-if';
import { countMove, EXISTS, type WriteOp } from '../write-ops';

/**
 * One item of `helpdesk reindex` (migrations/reindex.ts): what the current code would write for
 * the record it holds, and the conditioned writes that make it so. The item becomes exactly what
 * `itemOf` writes today (index attributes per the current declarations and index migration step,
 * no stored null or default, no copy of what the keys hold, no attribute of an older shape), with
 * the counts that depend on it kept exact: a record is counted for a search value exactly when its
 * item carries that value's index partition (the engine writes both in one transaction), so a
 * partition the rewrite adds is counted and one it takes away uncounted, in the same transaction.
 * A ticket's tag items are made what the engine writes (page attributes included), counted the
 * same way. The version is not bumped: the record is unchanged (If-Match tags stay valid, no event).
 */

/** How one kind of item is rewritten: its declaration, and the attributes besides the record's own. */
export interface Shape {
  entity: Entity<Item>;
  /** Attributes of the item that are not the record's (stripped before `itemOf`). */
  system: readonly string[];
  /** Of those, the ones kept as they are (the version, counts other writes move). */
  keep: readonly string[];
}

/** SET what `next` has differently, REMOVE what it lacks; undefined when the item is already `next`. */
const changes = (current: Item, next: Item): UpdateSpec | undefined => {
  const set = Object.fromEntries(
    Object.entries(next).filter(
      ([name, value]) => name !== 'pk' && name !== 'sk' && !same(current[name], value),
    ),
  );
  const remove = Object.keys(current).filter((name) => !(name in next));
  return Object.keys(set).length > 0 || remove.length > 0 ? { set, remove } : undefined;
};

const keyOf = (item: Item): ItemKey => ({ pk: String(item.pk), sk: String(item.sk) });

/** The record `current` holds (what the keys hold and defaults put back), and the item the current code writes for it. */
const nextOf = (shape: Shape, tenantId: string, current: Item): { record: Item; next: Item } => {
  // A copy: `current` stays the item as stored, which `changes` compares with.
  const record = recordOf<Item>(hydrate(shape.entity, { ...current }), shape.system);
  const kept = Object.fromEntries(
    shape.keep.flatMap((name) => (name in current ? [[name, current[name]]] : [])),
  );
  return { record, next: itemOf(shape.entity, tenantId, record, kept) };
};

/** The exact-search values an item carries index partitions for, by query parameter. */
const indexedValues = (e: Entity<Item>, tenantId: string, item: Item): Map<string, string> => {
  const found = new Map<string, string>();
  const kind = e.list?.kind;
  if (!kind) return found;
  for (const slot of SEARCH_SLOTS) {
    const partition = item[SEARCH_INDEXES[slot].partition];
    const named = typeof partition === 'string' ? keys.searchOf(tenantId, kind, partition) : undefined;
    if (named) found.set(named.field, named.value);
  }
  return found;
};

/** +1 / -1 on the cell the engine counts one search value in now. */
const countOne = (
  e: Entity<Item>,
  tenantId: string,
  param: string,
  value: string,
  delta: number,
): WriteOp[] => {
  const [cell] = searchTarget(e, tenantId, { param, value }).count;
  return cell ? [countMove(cell.key, { [cell.attribute]: delta })] : [];
};

/**
 * Counts of the exact searches whose partition the rewrite adds or takes away. Searches counted
 * on a reference (moved with its `refCount`) or not counted (`entries`) have nothing to move here.
 */
const searchCounts = (e: Entity<Item>, tenantId: string, current: Item, next: Item): WriteOp[] => {
  const before = indexedValues(e, tenantId, current);
  const after = indexedValues(e, tenantId, next);
  return Object.entries(e.searches ?? {}).flatMap(([param, search]) => {
    if ('servedBy' in search || search.count?.on === 'reference' || search.count?.on === 'entries') return [];
    const old = before.get(param);
    const now = after.get(param);
    if (old === now) return [];
    return [
      ...(old === undefined ? [] : countOne(e, tenantId, param, old, -1)),
      ...(now === undefined ? [] : countOne(e, tenantId, param, now, 1)),
    ];
  });
};

/** The child items of multi-valued fields (tags) made what the engine writes, with their counts. */
const multiWrites = (
  e: Entity<Item>,
  tenantId: string,
  record: Item,
  children: readonly Item[],
): WriteOp[] => {
  const kind = e.list?.kind;
  if (!kind || !e.multi) return [];
  const existing = new Map(children.filter((c) => childKind(String(c.sk)) === 'tag').map((c) => [c.sk, c]));
  const ops: WriteOp[] = [];
  for (const [param, multi] of Object.entries(e.multi)) {
    for (const value of new Set(multi.values(record))) {
      const item = childItem(e, tenantId, record, param, value);
      const old = existing.get(item.sk);
      existing.delete(item.sk);
      if (old && same(old, item)) continue;
      ops.push({ item: { Put: { Item: item } } });
      if (!old) ops.push(...countOne(e, tenantId, param, value, 1));
    }
  }
  for (const stale of existing.values()) {
    ops.push({ item: { Delete: { Key: keyOf(stale) } } });
    const named = keys.searchOf(tenantId, kind, String(stale[LIST_INDEX.partition]));
    if (named && e.multi[named.field]) ops.push(...countOne(e, tenantId, named.field, named.value, -1));
  }
  return ops;
};

/** Sends a rewrite: one conditioned UpdateItem when it is one, else one transaction. `stale`: StaleWrite. */
const send = async (ops: WriteOp[]): Promise<void> => {
  const [only] = ops;
  if (ops.length > 1 || !only?.item.Update) return writeAtomically(ops);
  if (!(await updateIf(only.item.Update as Omit<UpdateCommandInput, 'TableName'>))) throw new StaleWrite();
};

/**
 * Rewrites a record's or a ticket's item (with its tag items, from `children`) into the current
 * shape, only if its version is still the one read: StaleWrite otherwise (read it again). Returns
 * how many items it wrote (0: it was in shape).
 */
export const rewriteRecord = async (
  shape: Shape,
  tenantId: string,
  current: Item,
  children: readonly Item[] = [],
): Promise<number> => {
  const e = shape.entity;
  const { record, next } = nextOf(shape, tenantId, current);
  const spec = changes(current, next);
  const version: Cond =
    current.version === undefined ? { missing: 'version' } : { eq: ['version', current.version] };
  const when: Cond = { and: [EXISTS, version] };
  const key = keyOf(current);
  const others = [...searchCounts(e, tenantId, current, next), ...multiWrites(e, tenantId, record, children)];
  if (!spec && others.length === 0) return 0;
  const own: WriteOp = spec
    ? { item: { Update: { Key: key, ...updateOf(spec, when) } }, onConditionFailed: () => 'stale' }
    : { item: { ConditionCheck: { Key: key, ...conditionOf(when) } }, onConditionFailed: () => 'stale' };
  const ops = mergeCounters([own, ...others]);
  await send(ops);
  return ops.filter((op) => !op.item.ConditionCheck).length;
};

/**
 * Rewrites an item of a ticket's collection that nothing else changes (a reply, a note, a document
 * record) into the current shape, only while it exists (a deleted ticket's children are swept).
 * Returns how many items it wrote.
 */
export const rewriteChild = async (e: Entity<Item>, tenantId: string, current: Item): Promise<number> => {
  const spec = changes(current, itemOf(e, tenantId, recordOf<Item>(current, [])));
  if (!spec) return 0;
  return (await updateIf({ Key: keyOf(current), ...updateOf(spec, EXISTS) })) ? 1 : 0;
};
