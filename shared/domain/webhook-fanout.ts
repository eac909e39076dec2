import { type DeliveryMessage, enqueueDeliveries } from '../queue/delivery-queue';
import { type Stored, type WebhookRecord, webhookEntity } from '../store/entities/records';
import type { StoredEvent } from '../store/events';
import { inParallel } from '../store/in-parallel';
import {
  advanceRedelivery,
  markPending,
  markRequeued,
  PENDING_CONCURRENCY,
  pendingAfter,
  type Redelivery,
} from '../store/pending-deliveries';
import { allRecords } from '../store/record-reads';

/**
 * The first half of webhook delivery: committed events (read from the table's stream, in commit
 * order per tenant) become, for each subscription that wants their type, a pending item (what the
 * subscription is owed: store/pending-deliveries.ts) and then one queued delivery
 * (queue/delivery-queue.ts). The second half, domain/webhook-dispatch.ts, sends them. A
 * subscription that is not enabled is owed its events too: the delivery holds them, and enabling
 * it again sends them (`redeliver`, below, driven by the same stream).
 */

/** An event as the stream carries it, with its place in the stream. */
export interface StreamedEvent {
  /** The stream record's sequence number: where the stream resumes after a failure. */
  sequenceNumber: string;
  /** The tenant whose feed the event is in (keys.tenantOfEvents of its partition). */
  tenantId: string;
  event: StoredEvent;
}

/** Whether `subscription` is owed events of `type`: it lists no types, or this one. */
export const wantsType = (subscription: Pick<WebhookRecord, 'types'>, type: string): boolean => {
  // An empty list is not stored (store/entity.ts `defaults`): absent means all types.
  const types: readonly string[] = subscription.types ?? [];
  return types.length === 0 || types.includes(type);
};

/**
 * Queues the deliveries of `streamed` (one stream batch, in stream order): the subscriptions of
 * each tenant in the batch are read once; every pending item is written before any message is
 * queued. Answers the sequence number of the first event whose deliveries were not all queued,
 * with why (the stream hands the batch again from there: pending items already there stay as they
 * are, messages queued after it are deduplicated by SQS); nothing when every delivery was queued.
 *
 * A message is queued for a subscription that is not enabled too (its delivery holds it): the
 * list index the subscriptions are read from may not show yet that it was enabled a moment ago,
 * and a delivery that then finds it enabled sends the event at once.
 */
export const fanOut = async (
  streamed: readonly StreamedEvent[],
): Promise<{ failedAt: string; error: unknown } | undefined> => {
  const first = streamed[0];
  if (!first) return undefined;
  const messages: DeliveryMessage[] = [];
  const sources: string[] = [];
  try {
    const tenants = new Map<string, Stored<WebhookRecord>[]>();
    for (const { tenantId } of streamed)
      if (!tenants.has(tenantId)) tenants.set(tenantId, await allRecords(webhookEntity, tenantId));
    const owed = new Map<string, Parameters<typeof markPending>[1][number][]>();
    for (const { sequenceNumber, tenantId, event } of streamed) {
      for (const subscription of tenants.get(tenantId) ?? []) {
        if (!wantsType(subscription, event.type)) continue;
        const entries = owed.get(tenantId) ?? [];
        entries.push({ webhookId: subscription.id, event });
        owed.set(tenantId, entries);
        messages.push({
          tenantId,
          webhookId: subscription.id,
          eventSk: event.sk,
          eventId: event.id,
          type: event.type,
          resourceId: event.resourceId,
          marked: true,
        });
        sources.push(sequenceNumber);
      }
    }
    for (const [tenantId, entries] of owed) await markPending(tenantId, entries);
  } catch (error) {
    return { failedAt: first.sequenceNumber, error };
  }
  const { sent, error } = await enqueueDeliveries(messages);
  return sent < messages.length ? { failedAt: sources[sent] as string, error } : undefined;
};

/** How many pending items one step of a redelivery sends (one stream record each step). */
export const REDELIVERY_PAGE = 500;

/**
 * One step of a redelivery (store/pending-deliveries.ts `Redelivery`): the next page of what the
 * subscription is owed, oldest first, each marked as sent by this redelivery and queued again (in
 * its group, so after anything of its resource still queued: those older messages find their
 * pending item taken over and step aside), then how far it got is recorded, which is the stream
 * record of the next step. Idempotent: a step handed again marks and queues the same page again
 * (SQS drops the repeats within five minutes; later ones find the item settled or step aside).
 */
export const redeliver = async (r: Redelivery, page = REDELIVERY_PAGE): Promise<void> => {
  if (r.done) return;
  const owed = await pendingAfter(r.tenantId, r.webhookId, r.after, page);
  // Marked side by side; queued in feed order, so each ticket's copies keep their order.
  const marked: boolean[] = [];
  await inParallel(owed, PENDING_CONCURRENCY, async (p, i) => {
    marked[i] = await markRequeued(r.tenantId, r.webhookId, p.eventSk, r.version);
  });
  const messages: DeliveryMessage[] = [];
  for (const [i, p] of owed.entries()) {
    if (!marked[i]) continue;
    messages.push({
      tenantId: r.tenantId,
      webhookId: r.webhookId,
      eventSk: p.eventSk,
      eventId: p.eventId,
      type: p.type,
      resourceId: p.resourceId,
      marked: true,
      requeue: r.version,
    });
  }
  const { sent, error } = await enqueueDeliveries(messages);
  if (sent < messages.length) throw error;
  const last = owed.at(-1)?.eventSk ?? r.after;
  await advanceRedelivery(r, last, owed.length < page);
};
