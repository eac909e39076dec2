import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';
import type { ItemKey } from './keys';

const BATCH = 25;

/**
 * Deletes items by key in batches of 25 (in parallel), retrying unprocessed ones. Only for
 * cleanup that is safe to repeat (a deleted ticket's replies, a revoked client's tokens).
 */
export const deleteKeys = async (keys: ItemKey[]): Promise<void> => {
  const batches: ItemKey[][] = [];
  for (let i = 0; i < keys.length; i += BATCH) batches.push(keys.slice(i, i + BATCH));
  await Promise.all(
    batches.map(async (batch) => {
      let pending = batch.map((Key) => ({ DeleteRequest: { Key } }));
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(500, 10 * 2 ** attempt)));
        const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
        pending = (out.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      }
    }),
  );
};
