import { type Entity, type Item, nonEmpty, type Pointer, slotSearches } from './entity';
import { same } from './entity-item';
import { Conflict, InvalidReference } from './errors';
import { type Cond, conditionOf, updateOf } from './expression';
import { isId } from './ids';
import { counterNames, type EntityKind, ERASED_MARK, keys } from './keys';
import { searchCells } from './search-counts';
import { LIST_INDEX } from './table-schema';
import {
  ABSENT,
  COUNT,
  type CountCell,
  counterCell,
  countMove,
  type Deltas,
  EXISTS,
  itemId,
  nonZero,
  type WriteOp,
} from './write-ops';

/**
 * Everything a write of one record implies beyond its own item, derived from its declaration:
 * counter moves, child items of multi-valued fields, reference checks and counts, unique guards.
 */

const valuesOf = <T>(get: (r: T) => readonly string[], record: T | undefined): Set<string> =>
  new Set(record ? get(record) : []);

/** Counter moves of the list total, every exact search and every value of a multi-valued field. */
const counterMoves = <T>(e: Entity<T>, tenantId: string, after?: T, before?: T): WriteOp[] => {
  if (!e.list) return [];
  const kind = e.list.kind;
  const ops: WriteOp[] = [];
  const move = (cell: CountCell | undefined, delta: number) => {
    if (cell) ops.push(countMove(cell.key, { [cell.attribute]: delta }));
  };
  const total = counterCell(tenantId, counterNames.total(kind));
  const { max } = e.list;
  if (!before && max) {
    const ceiling = max.count();
    ops.push(
      countMove(
        total.key,
        { [COUNT]: 1 },
        { attribute: COUNT, max: ceiling, exceeded: () => max.exceeded(ceiling) },
      ),
    );
  } else if (!before) move(total, 1);
  if (!after) move(total, -1);
  for (const [param, search] of slotSearches(e)) {
    const now = after && nonEmpty(search.value(after));
    const old = before && nonEmpty(search.value(before));
    if (now === old) continue;
    if (old !== undefined) move(searchCells(e, tenantId, param, search, old).moved, -1);
    if (now !== undefined) move(searchCells(e, tenantId, param, search, now).moved, 1);
  }
  for (const [param, multi] of Object.entries(e.multi ?? {})) {
    const olds = valuesOf(multi.values, before);
    const news = valuesOf(multi.values, after);
    const cell = (v: string) => counterCell(tenantId, counterNames.search(kind, param, v));
    for (const v of olds) if (!news.has(v)) move(cell(v), -1);
    for (const v of news) if (!olds.has(v)) move(cell(v), 1);
  }
  return ops;
};

/** Adds and removes the child items whose `list` entries serve multi-valued searches. */
const childMoves = <T>(e: Entity<T>, tenantId: string, after?: T, before?: T): WriteOp[] => {
  const record = (after ?? before) as T;
  if (!e.list || !e.multi) return [];
  const { pk } = e.key(tenantId, record);
  const ops: WriteOp[] = [];
  for (const [param, multi] of Object.entries(e.multi)) {
    const olds = valuesOf(multi.values, before);
    const news = valuesOf(multi.values, after);
    for (const v of olds) if (!news.has(v)) ops.push({ item: { Delete: { Key: { pk, sk: multi.sk(v) } } } });
    for (const v of news) {
      // A kept value is rewritten only when what its item carries (page attributes) changed.
      if (olds.has(v) && before && same(multi.attributes(before, v), multi.attributes(record, v))) continue;
      ops.push({ item: { Put: { Item: childItem(e, tenantId, record, param, v) } } });
    }
  }
  return ops;
};

/** The child item holding one value of a multi-valued field, its `list` entry in the value's partition. */
export const childItem = <T>(
  e: Entity<T>,
  tenantId: string,
  record: T,
  param: string,
  value: string,
): Item => {
  const { list, multi } = e;
  const m = multi?.[param];
  if (!list || !m) throw new Error(`${e.entity} has no multi-valued ${param}`);
  return {
    ...e.key(tenantId, record),
    sk: m.sk(value),
    tenantId,
    ...m.attributes(record, value),
    [LIST_INDEX.partition]: keys.search(tenantId, list.kind, param, value),
    [LIST_INDEX.sort]: list.order(record),
  };
};

/**
 * Checks a pointed-at record exists and moves its counts (`refCount`, and what the reference
 * also counts) by `deltas`, inside the writer's transaction. Several moves of one record in one
 * transaction merge (see mergeCounters); all-zero sums are a plain existence check.
 */
export const referenceOp = (
  tenantId: string,
  ref: { kind: EntityKind; label: string },
  pointer: Pointer,
  deltas: Deltas,
): WriteOp => {
  const key = keys.record(tenantId, ref.kind, pointer.id);
  const onConditionFailed = () => new InvalidReference(pointer.path, `${ref.label} ${pointer.id}`);
  if (!isId(pointer.id)) throw onConditionFailed();
  // A count that grows needs a live record: an erased customer's mark (store/customer-erasure.ts)
  // keeps counting the tickets an erasure kept, as they drop it, and takes no new one.
  const live: Cond = { and: [EXISTS, { missing: ERASED_MARK }] };
  const build = (sums: Deltas): WriteOp => {
    const add = nonZero(sums);
    const when = Object.values(sums).some((d) => d > 0) ? live : EXISTS;
    return add
      ? { item: { Update: { Key: key, ...updateOf({ add }, when) } }, onConditionFailed }
      : { item: { ConditionCheck: { Key: key, ...conditionOf(when) } }, onConditionFailed };
  };
  return { ...build(deltas), counter: { id: itemId(key), deltas, build } };
};

/**
 * Counted references: +1 for each new pointer (which also checks the target exists), -1 for
 * each dropped one; unchanged pointers cost nothing. Uncounted ones: a check of each new target.
 */
const referenceMoves = <T>(e: Entity<T>, tenantId: string, after?: T, before?: T, path = ''): WriteOp[] =>
  (e.references ?? []).flatMap((ref) => {
    const at = (p: Pointer) => ({ id: p.id, path: `${path}${p.path}` });
    const olds = before ? ref.pointers(before).map(at) : [];
    const news = after ? ref.pointers(after).map(at) : [];
    if (!ref.counted) {
      const had = new Set(olds.map((p) => p.id));
      return news.filter((p) => !had.has(p.id)).map((p) => referenceOp(tenantId, ref, p, {}));
    }
    const moves = new Map<string, { pointer: Pointer; delta: number }>();
    const add = (pointer: Pointer, delta: number) => {
      const seen = moves.get(pointer.id);
      moves.set(pointer.id, {
        pointer: delta > 0 || !seen ? pointer : seen.pointer,
        delta: (seen?.delta ?? 0) + delta,
      });
    };
    for (const p of olds) add(p, -1);
    for (const p of news) add(p, 1);
    const counts = (delta: number): Deltas => ({
      refCount: delta,
      ...(ref.alsoCounts ? { [ref.alsoCounts]: delta } : {}),
    });
    return [...moves.values()]
      .filter((m) => m.delta !== 0)
      .map((m) => referenceOp(tenantId, ref, m.pointer, counts(m.delta)));
  });

/** Guard items that keep a field's value unique in the tenant: claimed, moved or released. */
const uniqueMoves = <T>(e: Entity<T>, tenantId: string, id: string, after?: T, before?: T): WriteOp[] => {
  if (!e.list) return [];
  const kind = e.list.kind;
  return (e.unique ?? []).flatMap((u) => {
    const value = after && nonEmpty(u.value(after));
    const old = before && nonEmpty(u.value(before));
    if (value === old) return [];
    const ops: WriteOp[] = [];
    if (old !== undefined) ops.push({ item: { Delete: { Key: keys.unique(tenantId, kind, u.field, old) } } });
    if (value !== undefined)
      ops.push({
        item: {
          Put: {
            Item: { ...keys.unique(tenantId, kind, u.field, value), entity: 'UNIQUE', ownerId: id },
            ...conditionOf(ABSENT),
          },
        },
        onConditionFailed: () => new Conflict(u.code, u.message, u.field),
      });
    return ops;
  });
};

/**
 * Everything a write of one record implies beyond its own item, derived from the declaration:
 * counters, child items of multi-valued fields, reference checks and counts, unique guards.
 * `before` absent: a create; `after` absent: a delete. `path` prefixes the body paths named by
 * a failed reference check (a reply inside a ticket body: `replies.2.`).
 */
export const derivedWrites = <T>(
  e: Entity<T>,
  tenantId: string,
  id: string,
  after?: T,
  before?: T,
  path = '',
): WriteOp[] => [
  ...counterMoves(e, tenantId, after, before),
  ...childMoves(e, tenantId, after, before),
  ...referenceMoves(e, tenantId, after, before, path),
  ...uniqueMoves(e, tenantId, id, after, before),
];
