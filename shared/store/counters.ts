import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';
import { keys } from './keys';

/**
 * Record counts kept exact by moving them in the same transaction as the write they count
 * (`countDelta`, in write-ops.ts). This module and that one are the only places that know how
 * a count is stored, so the scheme can become region-aware later (one counter per region,
 * summed on read) without touching callers.
 */

export const readCount = async (tenantId: string, name: string): Promise<number> => {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.counter(tenantId, name), ConsistentRead: true }),
  );
  const n = out.Item?.n;
  return typeof n === 'number' && n > 0 ? n : 0;
};

/**
 * Ticket numbers: `allocate` takes the next value of a per-tenant, per-year sequence with one
 * atomic UpdateItem (O(1) under any concurrency: a conditional claim inside the ticket's
 * transaction was measured to collapse, every racer but one losing each round). If the
 * ticket's transaction then fails, `release` hands the value back when no later value was
 * taken meanwhile, so a rejected insert leaves no gap; a value is never handed out twice.
 */
export const allocateSequence = async (tenantId: string, name: string): Promise<number> => {
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.counter(tenantId, name),
      UpdateExpression: 'ADD #n :one',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return out.Attributes?.n as number;
};

export const releaseSequence = async (tenantId: string, name: string, value: number): Promise<void> => {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.counter(tenantId, name),
        UpdateExpression: 'SET #n = :previous',
        ConditionExpression: '#n = :value',
        ExpressionAttributeNames: { '#n': 'n' },
        ExpressionAttributeValues: { ':previous': value - 1, ':value': value },
      }),
    );
  } catch {
    // A later value was taken (or the store is away): this one stays unused, never reused.
  }
};
