import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/store/dynamo';
import type { ReplyRecord } from '../../shared/store/entities/ticket';
import { newId } from '../../shared/store/ids';
import { keys } from '../../shared/store/keys';
import { replyWrites } from '../../shared/store/tickets';
import { sleep } from '../../shared/store/transact';

/**
 * Test data written straight to the store, for tests whose subject is not how it got there.
 * Items are exactly those the store's own writers build; only the per-request checks and the
 * transaction are skipped.
 */

const BATCH = 25;

/** Puts items with BatchWriteItem, 25 at a time and in parallel, retrying what comes back unprocessed. */
const putAll = async (items: Record<string, unknown>[]): Promise<void> => {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += BATCH) batches.push(items.slice(i, i + BATCH));
  await Promise.all(
    batches.map(async (batch) => {
      let requests = batch.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; requests.length > 0; attempt++) {
        if (attempt > 10) throw new Error('BatchWriteItem kept leaving items unprocessed');
        if (attempt > 0) await sleep(20 * attempt);
        const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
        requests = (out.UnprocessedItems?.[tableName()] ?? []) as typeof requests;
      }
    }),
  );
};

/**
 * Adds `count` customer replies (`reply 0`, `reply 1`, ... in date order) to an existing ticket
 * and counts them in its `numberOfReplies`, as that many replies through the API would.
 */
export const seedReplies = async (
  tenantId: string,
  ticketId: string,
  count: number,
  text: (i: number) => string = (i) => `reply ${i}`,
): Promise<ReplyRecord[]> => {
  const start = Date.now();
  const replies: ReplyRecord[] = Array.from({ length: count }, (_, i) => ({
    id: newId(start + i),
    ticketId,
    text: text(i),
    replyDate: start + i,
    replyFromOperator: null,
  }));
  const items = replies.flatMap((reply) =>
    replyWrites(tenantId, reply).map((op) => {
      // A customer reply is its item alone: nothing a batch write could not do.
      if (!op.item.Put?.Item) throw new Error('seedReplies writes reply items only');
      return op.item.Put.Item;
    }),
  );
  await putAll(items);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.record(tenantId, 'TICKET', ticketId),
      UpdateExpression: 'ADD numberOfReplies :n',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':n': count },
    }),
  );
  return replies;
};
