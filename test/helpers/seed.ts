import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { newTicket, ticketNumber } from '../../shared/domain/ticket-rules';
import { ticketInsert } from '../../shared/schemas/ticket';
import { sleep } from '../../shared/store/attempt-budget';
import { db, tableName } from '../../shared/store/dynamo';
import type { DocumentRecord, ReplyRecord, TicketRecord } from '../../shared/store/entities/ticket';
import { newId } from '../../shared/store/ids';
import { blobKeys, keys } from '../../shared/store/keys';
import { createTicketWrites, documentWrites, replyWrites } from '../../shared/store/ticket-writes';
import { mergeCounters } from '../../shared/store/transact';

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

/**
 * Creates tickets from insert bodies (validated by the route's own schema) as that many inserts
 * would, oldest first (ticket i is inserted at `start + i`): the ticket items, their tag items,
 * counters and reference counts, all built by the store's own writers. Puts go out in batches;
 * the counter and reference-count moves of all the tickets are summed first and applied once
 * per counted item. Existence checks of references are skipped: point them at real records.
 */
export const seedTickets = async (
  tenantId: string,
  bodies: unknown[],
  start = Date.now(),
): Promise<TicketRecord[]> => {
  const tickets = bodies.map((body, i) =>
    newTicket(ticketInsert.parse(body), newId(start + i), ticketNumber(i + 1, start + i), start + i),
  );
  const ops = mergeCounters(tickets.flatMap((ticket) => createTicketWrites(tenantId, ticket)));
  const puts: Record<string, unknown>[] = [];
  const updates: UpdateCommand[] = [];
  for (const { item } of ops) {
    if (item.Put?.Item) puts.push(item.Put.Item);
    else if (item.Update) updates.push(new UpdateCommand({ ...item.Update, TableName: tableName() }));
    else if (!item.ConditionCheck) throw new Error('seedTickets writes puts and counter moves only');
  }
  await putAll(puts);
  await Promise.all(updates.map((update) => db().send(update)));
  return tickets;
};

/**
 * Adds `count` document records to a ticket (its own, or a reply's with `replyId`), named by
 * `name(i)`, as that many attachments would: the records only (their S3 objects are not
 * written, so downloading them would fail). Returned in the order they were added.
 */
export const seedDocuments = async (
  tenantId: string,
  ticketId: string,
  count: number,
  name: (i: number) => string = (i) => `file${i}.txt`,
  replyId: string | null = null,
): Promise<DocumentRecord[]> => {
  const start = Date.now();
  const documents: DocumentRecord[] = Array.from({ length: count }, (_, i) => {
    const id = newId(start + i);
    return {
      id,
      ticketId,
      replyId,
      documentName: name(i),
      documentType: 'text/plain',
      size: 1,
      checksum: 'a'.repeat(64),
      key: blobKeys.document(tenantId, ticketId, id),
      addedAt: start + i,
      position: 0,
    };
  });
  await putAll(
    documentWrites(tenantId, documents).map((op) => {
      if (!op.item.Put?.Item) throw new Error('seedDocuments writes document items only');
      return op.item.Put.Item;
    }),
  );
  return documents;
};
