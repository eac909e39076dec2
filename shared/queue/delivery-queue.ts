import { createHash } from 'node:crypto';
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { sqs } from './sqs';

/**
 * The webhook delivery queue: one SQS FIFO message per event per subscription that wants it
 * (infra/webhook-pipeline.ts; locally local/sqs-local.ts behind the same API). The message names
 * the event and the subscription; the delivery reads both when it runs, so a subscription's
 * current URL, secret and state are what count, and no event body waits in the queue.
 *
 * - Group: the subscription and the event's resource (a ticket, a customer...): a receiver gets
 *   one resource's events in feed order, while other resources' events go on beside a failing one.
 * - Deduplication id: the tenant, subscription and event (and the redelivery, for a copy): a resend
 *   (the stream retrying a batch) within SQS's five-minute window is dropped; later ones are
 *   harmless (the delivery settles an event once; the `webhook-id` header is the receiver's key).
 */
export interface DeliveryMessage {
  tenantId: string;
  webhookId: string;
  /** The event: its place in the feed (its sort key), id, type and resource. */
  eventSk: string;
  eventId: string;
  type: string;
  resourceId: string;
  /**
   * The subscription's pending item was written before this message (store/pending-deliveries.ts):
   * attempts are counted there. Absent on messages queued before pending items existed, whose
   * attempts are their receives (kept for those until the queue's 14 days have passed).
   */
  marked?: true;
  /** A copy sent by the redelivery of this version (a subscription enabled again); absent on the fan-out's. */
  requeue?: number;
}

/** SQS's ceiling on a group id (and on a deduplication id). */
const ID_CHARS = 128;
/** SQS's ceiling on the entries of one SendMessageBatch. */
const BATCH = 10;

const hashed = (...parts: string[]): string => createHash('sha256').update(parts.join('\n')).digest('hex');

export const groupOf = (m: DeliveryMessage): string => {
  const group = `${m.webhookId}:${m.resourceId}`;
  return group.length <= ID_CHARS && /^[\w:.-]+$/.test(group) ? group : hashed(m.webhookId, m.resourceId);
};

export const deduplicationOf = (m: DeliveryMessage): string =>
  m.requeue === undefined
    ? hashed(m.tenantId, m.webhookId, m.eventId)
    : hashed(m.tenantId, m.webhookId, m.eventId, `requeue ${m.requeue}`);

const queueUrl = (): string => {
  const url = config().WEBHOOK_QUEUE_URL;
  if (!url) throw new Error('WEBHOOK_QUEUE_URL is not set: there is no delivery queue');
  return url;
};

/**
 * Sends the messages in their order, ten per call, one call after another (a group's order is
 * the order of the calls). Answers how many were accepted from the start: all of them, or the
 * count before the first that was refused, with why (those after it may have been sent too: a
 * resend of them is deduplicated).
 */
export const enqueueDeliveries = async (
  messages: readonly DeliveryMessage[],
): Promise<{ sent: number; error?: unknown }> => {
  for (let start = 0; start < messages.length; start += BATCH) {
    const chunk = messages.slice(start, start + BATCH);
    try {
      const out = await sqs().send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl(),
          Entries: chunk.map((m, i) => ({
            Id: String(i),
            MessageBody: JSON.stringify(m),
            MessageGroupId: groupOf(m),
            MessageDeduplicationId: deduplicationOf(m),
          })),
        }),
      );
      const first = (out.Failed ?? []).sort((a, b) => Number(a.Id) - Number(b.Id))[0];
      if (first)
        return { sent: start + Number(first.Id), error: new Error(`SQS refused a message: ${first.Code}`) };
    } catch (error) {
      return { sent: start, error };
    }
  }
  return { sent: messages.length };
};

/** Leaves a received message invisible for `ms` (rounded up to whole seconds, at most 12 h): its backoff. */
export const retryAfter = async (receiptHandle: string, ms: number): Promise<void> => {
  await sqs().send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: queueUrl(),
      ReceiptHandle: receiptHandle,
      VisibilityTimeout: Math.min(Math.ceil(ms / 1000), 43_200),
    }),
  );
};

/** Reads a message body back; undefined when it is not one of ours (never delivered, dropped). */
export const parseDeliveryMessage = (body: string): DeliveryMessage | undefined => {
  try {
    const m = JSON.parse(body) as Partial<DeliveryMessage>;
    const fields = [m.tenantId, m.webhookId, m.eventSk, m.eventId, m.type, m.resourceId];
    const ours =
      fields.every((f) => typeof f === 'string' && f.length > 0) &&
      (m.marked === undefined || m.marked === true) &&
      (m.requeue === undefined || Number.isSafeInteger(m.requeue));
    return ours ? (m as DeliveryMessage) : undefined;
  } catch {
    return undefined;
  }
};
