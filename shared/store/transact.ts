import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, tableName } from './dynamo';
import { LimitExceeded, RequestInProgress } from './errors';

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

/**
 * Refuses, before anything is sent, a transaction DynamoDB would reject: an item over 400 KB,
 * more than 100 actions, more than 4 MB in all. A client's request within every field limit
 * can still add up to these; it gets a 413 naming the limit instead of a 500.
 */
export const assertFits = (given: WriteOp[]): void => {
  const ops = mergeCounters(given);
  if (ops.length > LIMITS.transactionItems) {
    throw new LimitExceeded(
      `This request would change ${ops.length} items at once; one request may change at most ${LIMITS.transactionItems}. Send fewer tags, replies, agents or documents in one request (add the rest with further calls).`,
      undefined,
      undefined,
      'too-many-changes',
    );
  }
  let total = 0;
  for (const op of ops) {
    const put = op.item.Put?.Item as Record<string, unknown> | undefined;
    const bytes = put ? itemBytes(put) : (op.itemBytes ?? 0);
    if (bytes > LIMITS.itemBytes) {
      throw new LimitExceeded(
        `The record would take ${bytes} bytes as stored; a record may take at most ${LIMITS.itemBytes} bytes (text is counted in UTF-8 bytes). Send shorter text or fewer custom fields.`,
      );
    }
    total += bytes;
  }
  if (total > LIMITS.transactionBytes) {
    throw new LimitExceeded(
      `This request would write ${total} bytes at once; at most ${LIMITS.transactionBytes}.`,
    );
  }
};

/**
 * A transaction may touch an item only once, but one write can move a counter several times
 * (a new tenant's four default ticket types; an agent both assigned and in cc): sum the moves
 * per item and let the item's builder decide what a sum means (a zero counter move is dropped).
 */
export const mergeCounters = (ops: WriteOp[]): WriteOp[] => {
  const sums = new Map<string, { delta: number; build: (delta: number) => WriteOp | undefined }>();
  const rest: WriteOp[] = [];
  for (const op of ops) {
    if (!op.counter) rest.push(op);
    else {
      const seen = sums.get(op.counter.id);
      sums.set(op.counter.id, {
        delta: (seen?.delta ?? 0) + op.counter.delta,
        build: seen?.build ?? op.counter.build,
      });
    }
  }
  for (const { delta, build } of sums.values()) {
    const op = build(delta);
    if (op) rest.push(op);
  }
  return rest;
};

/** A write conditioned on what it read found the record changed: read again and retry (domain/commit.ts). */
export class StaleWrite extends Error {
  constructor() {
    super('record changed between read and write');
  }
}

const MAX_CONFLICT_RETRIES = 8;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Table name is filled in here so callers only describe keys and expressions. */
const withTable = (item: TransactItem): FullItem => {
  const [kind, body] = Object.entries(item)[0] as [keyof FullItem, Record<string, unknown>];
  return { [kind]: { ...body, TableName: tableName() } } as FullItem;
};

/**
 * Every multi-item write goes through here: one TransactWriteItems, nothing half-written.
 * Concurrent transactions on the same counter item cancel each other (TransactionConflict);
 * those are retried with jittered backoff, so 100 concurrent writers all land.
 */
export const writeAtomically = async (given: WriteOp[], requestToken?: string): Promise<void> => {
  assertFits(given);
  const ops = mergeCounters(given);
  const input = {
    TransactItems: ops.map((op) => withTable(op.item)),
    ...(requestToken ? { ClientRequestToken: requestToken } : {}),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand(input));
      return;
    } catch (error) {
      if ((error as Error).name === 'IdempotentParameterMismatchException') throw new RequestInProgress();
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed >= 0) {
        const old = reasons[failed]?.Item;
        const outcome = ops[failed]?.onConditionFailed?.(old ? unmarshall(old) : undefined);
        if (outcome === 'stale') throw new StaleWrite();
        if (outcome) throw outcome;
        throw error;
      }
      const retryable = reasons.some((r) => r.Code === 'TransactionConflict' || r.Code === 'ThrottlingError');
      if (!retryable || attempt >= MAX_CONFLICT_RETRIES) throw error;
      await sleep(Math.random() * 20 * 2 ** Math.min(attempt, 5));
    }
  }
};
