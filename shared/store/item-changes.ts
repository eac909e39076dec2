import type { Entity, Item } from './entity';
import { BASE, DERIVED, derivedDigest, itemOf, recordOf, same } from './entity-item';
import { NotFound, StaleVersion } from './errors';
import { type Cond, conditionOf, updateOf } from './expression';
import { EXISTS, itemBytes, nonZero, type WriteOp } from './write-ops';

/**
 * The UpdateItem and DeleteItem of an item read as `current`: only what differs is written, on
 * condition that what the change was derived from still holds (the version `If-Match` named,
 * the derived values it moves counts from).
 */
export interface Precondition {
  /** The versions `If-Match` named (any one must be current); undefined when it named none. */
  ifMatch?: readonly number[];
  /** What a failed condition means when the item is gone. */
  missing: () => Error;
  /** What it means when `If-Match` no longer holds. */
  stale: () => Error;
}

/** A write to `<label> <id>`: gone is a 404, an If-Match no longer holding a 412. */
export const preconditionOf = (label: string, id: string, ifMatch?: readonly number[]): Precondition => ({
  ifMatch,
  missing: () => new NotFound(`${label} ${id}`),
  stale: () => new StaleVersion(`${label} ${id}`),
});

/**
 * The condition of a write that read `current` and derived moves from it: the item exists, the
 * derived values it read are still there (only when the write moves something from them), and
 * the version is one `If-Match` named and the one read. A failure re-reads (`stale`) unless the
 * item is gone or If-Match no longer holds.
 */
const conditionOn = (current: Item, derivedChanges: boolean, pre: Precondition, extra?: Cond) => {
  const derived: Cond | undefined = !derivedChanges
    ? undefined
    : current[DERIVED] === undefined
      ? { missing: DERIVED }
      : { eq: [DERIVED, current[DERIVED]] };
  // Under If-Match, also exactly the version read (one If-Match named), so the write's new
  // version is known (`current.version + 1`: its ETag); another named version re-reads.
  const versions: Cond | undefined = pre.ifMatch
    ? { and: [{ in: ['version', pre.ifMatch] }, { eq: ['version', current.version] }] }
    : undefined;
  const condition: Cond = { and: [EXISTS, derived, versions, extra] };
  const onConditionFailed = (old?: Item) => {
    if (!old) return pre.missing();
    if (pre.ifMatch && !pre.ifMatch.includes(old.version as number)) return pre.stale();
    return 'stale' as const;
  };
  return { condition, onConditionFailed };
};

/**
 * Changes the item read as `current` into `after` with one UpdateItem that sets only what
 * differs (so concurrent writes of other fields are kept), removes what no longer applies
 * (index entries, emptied fields; `keep` names counts other writes move), adds `add` to counters kept on the item (e.g. `numberOfReplies`) and bumps
 * the version, conditioned on what the change depends on (see conditionOn) and on `condition`.
 */
export const updateWrite = <T>(
  e: Entity<T>,
  tenantId: string,
  current: Item,
  after: T,
  pre: Precondition & {
    meta?: Item;
    add?: Record<string, number>;
    keep?: readonly string[];
    /** Holds too, or the write re-reads (`stale`). */
    condition?: Cond;
  },
): WriteOp => {
  const next = itemOf(e, tenantId, after, pre.meta);
  const add = pre.add ?? {};
  const set: Item = {};
  const remove: string[] = [];
  for (const [attr, value] of Object.entries(next)) {
    if (BASE.includes(attr) && attr !== DERIVED) continue;
    if (attr in add || same(current[attr], value)) continue;
    set[attr] = value;
  }
  // What the item had and the new one does not: index entries that no longer apply, fields
  // that became empty (null is not stored). Counts other writes keep on the item stay.
  for (const attr of Object.keys(current)) {
    // Keys and the version stay; anything else the new item lacks goes (an older item's
    // `tenantId`, `entity` and derivable copies included).
    if (attr in next || attr in add || attr === 'pk' || attr === 'sk' || attr === 'version') continue;
    if (pre.keep?.includes(attr)) continue;
    remove.push(attr);
  }
  const derivedChanges = derivedDigest(e, recordOf<T>(current, [])) !== next[DERIVED];
  const when = conditionOn(current, derivedChanges, pre, pre.condition);
  return {
    item: {
      Update: {
        Key: e.key(tenantId, after),
        ...updateOf({ set, remove, add: { version: 1, ...nonZero(add) } }, when.condition),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    onConditionFailed: when.onConditionFailed,
    itemBytes: itemBytes({ ...current, ...next }),
  };
};

/** Deletes the item read as `current`, conditioned like updateWrite (derived values always count), and on `condition`. */
export const deleteWrite = <T>(
  e: Entity<T>,
  tenantId: string,
  current: Item,
  pre: Precondition & { condition?: Cond },
): WriteOp => {
  const when = conditionOn(current, true, pre, pre.condition);
  return {
    item: {
      Delete: {
        Key: e.key(tenantId, recordOf<T>(current, [])),
        ...conditionOf(when.condition),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    onConditionFailed: when.onConditionFailed,
  };
};
