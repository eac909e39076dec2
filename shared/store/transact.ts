import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { mayRetry, nextPause, pauseBeforeRetry, transactions } from './attempt-budget';
import { db, tableName } from './dynamo';
import { Contended, LimitExceeded, RequestInProgress } from './errors';
import { homeFence } from './home-fence';
import { type Deltas, itemBytes, LIMITS, type TransactItem, type WriteOp } from './write-ops';

type FullItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Refuses, before anything is sent, a transaction DynamoDB would reject: an item over 400 KB,
 * more than 100 actions, more than 4 MB in all. A client's request within every field limit
 * can still add up to these; it gets a 413 naming the limit instead of a 500.
 */
export const assertFits = (given: WriteOp[]): void => fits(mergeCounters(given));

/** The check itself, on elements already merged (writeAtomically merges once for both). */
const fits = (ops: WriteOp[]): void => {
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
 * per item and let the item's builder decide what a sum means (a zero counter move is dropped; a
 * move with a ceiling keeps its condition on the sum).
 */
export const mergeCounters = (ops: WriteOp[]): WriteOp[] => {
  const sums = new Map<string, { deltas: Deltas; build: (deltas: Deltas) => WriteOp | undefined }>();
  const rest: WriteOp[] = [];
  for (const op of ops) {
    if (!op.counter) rest.push(op);
    else {
      const seen = sums.get(op.counter.id) ?? { deltas: {}, build: op.counter.build };
      // A move with a ceiling builds the merged element, whichever move of the item came first.
      if (op.counter.capped) seen.build = op.counter.build;
      for (const [name, delta] of Object.entries(op.counter.deltas))
        seen.deltas[name] = (seen.deltas[name] ?? 0) + delta;
      sums.set(op.counter.id, seen);
    }
  }
  for (const { deltas, build } of sums.values()) {
    const op = build(deltas);
    if (op) rest.push(op);
  }
  return rest;
};

/** A write conditioned on what it read found the record changed: read again and retry (domain/commit.ts). */
export class StaleWrite extends Error {
  constructor(message = 'record changed between read and write') {
    super(message);
  }
}

/** An item's feed clock is at `clock` or later (store/events.ts `orderInFeed`): stamp after it and retry. */
export class FeedClockAhead extends StaleWrite {
  constructor(readonly clock: number) {
    super('the item has a later event: stamp after it');
  }
}

/**
 * A transaction cancelled by another one holding an item (or by throttling) is sent again after
 * a pause, as long as the request's time allows (store/attempt-budget.ts); outside a request
 * (CLI, workers) at most this many times.
 */
const MAX_CONFLICT_RETRIES = 8;
const CONFLICT_PAUSE_MS = 10;
const MAX_CONFLICT_PAUSE_MS = 1000;

/** Table name is filled in here so callers only describe keys and expressions. */
const withTable = (item: TransactItem): FullItem => {
  const [kind, body] = Object.entries(item)[0] as [keyof FullItem, Record<string, unknown>];
  return { [kind]: { ...body, TableName: tableName() } } as FullItem;
};

/**
 * Every multi-item write goes through here: one TransactWriteItems, nothing half-written.
 * Concurrent transactions on the same counter item cancel each other (TransactionConflict);
 * those are retried with jittered backoff while the request's deadline leaves time for an answer,
 * then refused as `Contended` (nothing written), never sent to be cut off by the deadline.
 */
export const writeAtomically = async (given: WriteOp[], requestToken?: string): Promise<void> => {
  // A plan that found nothing left to change (a repeated merge) writes nothing.
  if (given.length === 0) return;
  const merged = mergeCounters(given);
  // Several regions: the tenant's home must still be this replica (home-fence.ts).
  const fence = homeFence(merged);
  const ops = fence ? [...merged, fence] : merged;
  fits(ops);
  const input = {
    TransactItems: ops.map((op) => withTable(op.item)),
    ...(requestToken ? { ClientRequestToken: requestToken } : {}),
  };
  let pause = 0;
  for (let attempt = 0; ; attempt++) {
    const sent = Date.now();
    try {
      await db().send(new TransactWriteCommand(input));
      transactions.record(Date.now() - sent);
      return;
    } catch (error) {
      if ((error as Error).name === 'IdempotentParameterMismatchException') throw new RequestInProgress();
      if (!(error instanceof TransactionCanceledException)) throw error;
      transactions.record(Date.now() - sent);
      const reasons = error.CancellationReasons ?? [];
      const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed >= 0) {
        const old = reasons[failed]?.Item;
        const outcome = ops[failed]?.onConditionFailed?.(old ? unmarshall(old) : undefined);
        if (outcome === 'stale') throw new StaleWrite();
        if (outcome) throw outcome;
        throw error;
      }
      const conflict = reasons.some((r) => r.Code === 'TransactionConflict');
      if (!conflict && !reasons.some((r) => r.Code === 'ThrottlingError')) throw error;
      // Throttled to the end: the store is unavailable (503); beaten to the end: contended (503).
      const refused = () => (conflict ? new Contended() : error);
      if (!mayRetry(attempt, MAX_CONFLICT_RETRIES)) throw refused();
      pause = nextPause(pause, CONFLICT_PAUSE_MS, MAX_CONFLICT_PAUSE_MS);
      await pauseBeforeRetry(pause, refused);
    }
  }
};
