import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';
import { keys } from './keys';
import type { WriteOp } from './transact';

/**
 * Record counts kept exact by moving them in the same transaction as the write they count.
 * This module is the one place that knows how a count is stored, so the scheme can become
 * region-aware later (one counter per region, summed on read) without touching callers.
 */
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

export const readCount = async (tenantId: string, name: string): Promise<number> => {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.counter(tenantId, name), ConsistentRead: true }),
  );
  const n = out.Item?.n;
  return typeof n === 'number' && n > 0 ? n : 0;
};
