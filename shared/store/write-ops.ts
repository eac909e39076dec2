import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';

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
   * element (see mergeCounters). `build(0)` may return undefined to drop the element.
   */
  counter?: { id: string; delta: number; build: (delta: number) => WriteOp | undefined };
  /** The size the item will have after an UpdateItem (a Put's is measured from its item). */
  itemBytes?: number;
}

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

/** A move of a record count (keys.counter), made in the same transaction as the write it counts. */
export const countDelta = (tenantId: string, name: string, delta: number): WriteOp => ({
  counter: {
    id: `${tenantId}\n${name}`,
    delta,
    build: (sum) => (sum === 0 ? undefined : countDelta(tenantId, name, sum)),
  },
  item: {
    Update: {
      Key: keys.counter(tenantId, name),
      UpdateExpression: 'ADD #n :d',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':d': delta },
    },
  },
});
