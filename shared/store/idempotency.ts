import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';
import { type IdempotencyRecord, idempotencyEntity } from './entities/system';
import { itemOf } from './entity-item';
import { IdempotencyKeyReused, IdempotentReplay } from './errors';
import { conditionOf } from './expression';
import { keys } from './keys';
import { TTL_ATTRIBUTE } from './table-schema';
import { ABSENT, type WriteOp, type WriteOutcome } from './write-ops';

/**
 * Idempotency-Key support for every write that creates something. The outcome of the first
 * request is stored by the same transaction as the write itself, so a retry can never create a
 * second record, even when the first response was lost after the commit. A retry with the same
 * body gets the first response again; the same key with another body is a 422. Concurrent
 * duplicates race on the record inside DynamoDB's transaction: one commits, the rest replay it.
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface IdempotencyContext {
  tenantId: string;
  keyHash: string;
  /** Hash of what the request asks for: operation, path id and body. */
  fingerprint: string;
}

/** The answer a committed request gave, as its Idempotency-Key's record keeps it for every retry. */
export interface StoredAnswer {
  readonly status: number;
  readonly body: unknown;
  /** Its feed position and the version it made, as the first answer gave them. */
  readonly outcome: WriteOutcome;
}

const outcomeOf = (ctx: IdempotencyContext, stored: Record<string, unknown> | undefined, now: number) => {
  if (!stored || (stored.expiresAt as number) <= now) return undefined;
  if (stored.fingerprint !== ctx.fingerprint) return new IdempotencyKeyReused();
  return new IdempotentReplay(stored.status as number, JSON.parse(stored.body as string), {
    ...(typeof stored.position === 'string' ? { position: stored.position } : {}),
    ...(typeof stored.version === 'number' ? { version: stored.version } : {}),
  });
};

/**
 * The ClientRequestToken of the transaction that stores this request's outcome: a retry of the
 * same key inside DynamoDB's 10-minute window cannot apply the write a second time.
 */
export const transactionToken = (ctx: IdempotencyContext): string =>
  createHash('sha256').update(`${ctx.tenantId}\n${ctx.keyHash}`).digest('base64url').slice(0, 36);

/**
 * Cheap early answer for a retry of a request that already committed (one consistent read): its
 * stored answer, or undefined when the key is new (or expired). The key used for another request
 * is thrown (`IdempotencyKeyReused`, a 422).
 */
export const replayIfSeen = async (ctx: IdempotencyContext): Promise<StoredAnswer | undefined> => {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.idempotency(ctx.tenantId, ctx.keyHash),
      ConsistentRead: true,
    }),
  );
  const outcome = outcomeOf(ctx, out.Item, Date.now());
  if (outcome instanceof IdempotencyKeyReused) throw outcome;
  return outcome;
};

/** The transaction element that stores this request's response; it fails if the key was used. */
export const rememberOutcome = (
  ctx: IdempotencyContext,
  status: number,
  body: unknown,
  { position, version }: WriteOutcome,
): WriteOp => {
  const now = Date.now();
  const expiresAt = now + IDEMPOTENCY_TTL_MS;
  const record: IdempotencyRecord = {
    keyHash: ctx.keyHash,
    fingerprint: ctx.fingerprint,
    status,
    body: JSON.stringify(body),
    expiresAt,
    ...(position ? { position } : {}),
    ...(version === undefined ? {} : { version }),
  };
  return {
    item: {
      Put: {
        Item: itemOf(idempotencyEntity, ctx.tenantId, record, {
          [TTL_ATTRIBUTE]: Math.ceil(expiresAt / 1000),
        }),
        // An expired record awaiting DynamoDB's TTL sweep counts as absent.
        ...conditionOf({ or: [ABSENT, { le: ['expiresAt', now] }] }),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    onConditionFailed: (old) => outcomeOf(ctx, old, now) ?? 'stale',
  };
};
