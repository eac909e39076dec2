import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { type Cond, updateOf } from './expression';
import { type ItemKey, keys } from './keys';

/**
 * Write elements as data, before they meet the SDK: the shape of one element of an atomic
 * write, DynamoDB's limits and how it sizes an item, and counter moves. Nothing here imports
 * the AWS SDK at run time, so the entity engine and the route table that reads it stay out of
 * the SDK's way (the public OpenAPI function bundles the route table without it).
 */
type FullItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
/** A transaction element without TableName: the one table is filled in by writeAtomically. */
export type TransactItem = { [K in keyof FullItem]?: Omit<NonNullable<FullItem[K]>, 'TableName'> };

/**
 * One element of an atomic write. `onConditionFailed` names what a failed condition on this
 * element means to the client (duplicate e-mail, missing reference, ...). Return `'stale'` for
 * an optimistic-version mismatch the caller resolves by re-reading and retrying. Elements that
 * ask for `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'` get the item that failed them.
 */
export interface WriteOp {
  item: TransactItem;
  onConditionFailed?: (current?: Record<string, unknown>) => Error | 'stale';
  /**
   * Set on counter moves (and reference counts) so several moves of one item become one
   * element (see mergeCounters): `deltas` by attribute, summed per item, then `build` makes the
   * element (undefined drops it, e.g. when every sum is zero).
   */
  counter?: {
    id: string;
    deltas: Deltas;
    build: (deltas: Deltas) => WriteOp | undefined;
    /** The builder holds a ceiling (`countMove`): merged moves of the item are built by it. */
    capped?: true;
  };
  /** The size the item will have after an UpdateItem (a Put's is measured from its item). */
  itemBytes?: number;
  /**
   * Writes the item whose events must reach the feed in the order they commit (a ticket): the
   * commit stamps it with its events' instant, conditioned on its last one being older
   * (store/events.ts `orderInFeed`).
   */
  feedOrdered?: true;
}

/** The item exists (a write of it, not its creation), or does not (its creation). */
/**
 * What a committed write tells its answer besides its body (answered as headers; an
 * Idempotency-Key's record keeps it for every replay).
 */
export interface WriteOutcome {
  /** The sort key of its last event in the tenant's feed (`Helpdesk-Position`); none without events. */
  readonly position?: string;
  /** The version it gave the record its route names (`ETag`), only when known exactly. */
  readonly version?: number;
}

/** A new record's version (its first ETag, `"1"`). */
export const FIRST_VERSION = 1;

export const EXISTS: Cond = { exists: 'pk' };
export const ABSENT: Cond = { missing: 'pk' };

/** DynamoDB's limits on one item and one transaction (checked before anything is sent). */
export const LIMITS = {
  itemBytes: 400 * 1024,
  transactionItems: 100,
  transactionBytes: 4 * 1024 * 1024,
} as const;

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * The size of a value as DynamoDB counts it: strings in UTF-8 bytes, numbers about one byte
 * per two significant digits plus one, binary in bytes, booleans and null one byte, lists and
 * maps three bytes plus each element (one more byte each, plus the names of a map's keys).
 */
const valueBytes = (value: unknown): number => {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number') {
    const digits = String(Math.abs(value)).replace(/e.*$/, '').replace('.', '').replace(/^0+/, '');
    return Math.ceil(Math.max(1, digits.length) / 2) + 1;
  }
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((sum: number, v) => sum + valueBytes(v), 0);
  if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + valueBytes(v) + 1, 3);
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).reduce(
      (sum, [k, v]) => (v === undefined ? sum : sum + utf8(k) + valueBytes(v) + 1),
      3,
    );
  }
  return 0;
};

/** An item's size as DynamoDB counts it against its 400 KB limit: names plus values. */
export const itemBytes = (item: Record<string, unknown>): number =>
  Object.entries(item).reduce(
    (sum, [name, v]) => (v === undefined ? sum : sum + utf8(name) + valueBytes(v)),
    0,
  );

/** Numbers to add, by attribute name. */
export type Deltas = Record<string, number>;

/** The non-zero deltas, or undefined when there is none (nothing to add). */
export const nonZero = (deltas: Deltas): Deltas | undefined => {
  const moved = Object.entries(deltas).filter(([, d]) => d !== 0);
  return moved.length === 0 ? undefined : Object.fromEntries(moved);
};

/** The identity of an item among counter moves (mergeCounters sums moves of one item). */
export const itemId = (key: ItemKey): string => `${key.pk}\n${key.sk}`;

/** The attribute of a counter item (keys.counter) holding its count. */
export const COUNT = 'n';

/** One number kept on one item; a count is the sum of one or more cells. */
export interface CountCell {
  key: ItemKey;
  attribute: string;
  /** Counts only while this item exists (read in the same BatchGetItem as the cell). */
  whileExists?: ItemKey;
}

/** A bound a count may not pass: the move is refused (`exceeded`) when the count is already `max`. */
interface Ceiling {
  attribute: string;
  max: number;
  exceeded: () => Error;
}

/**
 * Moves numbers kept on one item (counts of a counter item, the count of a list total and its
 * values), in the same transaction as the write they count; moves of one item merge into one
 * element. With a `ceiling`, the element is conditioned on the count being below it.
 */
export const countMove = (key: ItemKey, deltas: Deltas, ceiling?: Ceiling): WriteOp => {
  const build = (sums: Deltas): WriteOp | undefined => {
    const add = nonZero(sums);
    if (!add) return undefined;
    const capped = ceiling && (sums[ceiling.attribute] ?? 0) > 0;
    const below: Cond | undefined = capped
      ? {
          or: [
            { missing: ceiling.attribute },
            { le: [ceiling.attribute, ceiling.max - (sums[ceiling.attribute] ?? 0)] },
          ],
        }
      : undefined;
    return {
      item: { Update: { Key: key, ...updateOf({ add }, below) } },
      ...(capped ? { onConditionFailed: ceiling.exceeded } : {}),
    };
  };
  // Sent only after mergeCounters, which builds the element from the summed moves.
  return {
    item: build(deltas)?.item ?? {},
    counter: { id: itemId(key), deltas, build, ...(ceiling ? { capped: true as const } : {}) },
  };
};

/** A move of one record count (keys.counter). */
/** The cell of a tenant's counter `name` (keys.ts `counterNames`). */
export const counterCell = (tenantId: string, name: string): CountCell => ({
  key: keys.counter(tenantId, name),
  attribute: COUNT,
});

export const countDelta = (tenantId: string, name: string, delta: number): WriteOp =>
  countMove(keys.counter(tenantId, name), { [COUNT]: delta });
