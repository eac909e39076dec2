import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';
import type { ItemKey } from './keys';
import { itemId } from './write-ops';

type Item = Record<string, unknown>;
const MAX_KEYS = 100;

/**
 * Reads many items by key in one round trip (chunks of 100 go out in parallel), retrying
 * unprocessed keys. Returns them by `itemId` (write-ops.ts); missing items are simply absent.
 * `consistent`: strongly consistent reads (what a check of credentials needs).
 */
export const getMany = async (
  keys: ItemKey[],
  options: { consistent?: boolean } = {},
): Promise<Map<string, Item>> => {
  const unique = [...new Map(keys.map((k) => [itemId(k), k])).values()];
  const found = new Map<string, Item>();
  const chunks: ItemKey[][] = [];
  for (let i = 0; i < unique.length; i += MAX_KEYS) chunks.push(unique.slice(i, i + MAX_KEYS));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending: Item[] = chunk as unknown as Item[];
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(200, 10 * 2 ** attempt)));
        const out = await db().send(
          new BatchGetCommand({
            RequestItems: {
              [tableName()]: { Keys: pending, ...(options.consistent ? { ConsistentRead: true } : {}) },
            },
          }),
        );
        for (const item of out.Responses?.[tableName()] ?? []) found.set(itemId(item as ItemKey), item);
        pending = out.UnprocessedKeys?.[tableName()]?.Keys ?? [];
      }
    }),
  );
  return found;
};
