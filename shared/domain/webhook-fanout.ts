import { type DeliveryMessage, enqueueDeliveries } from '../queue/delivery-queue';
import type { Stored, WebhookRecord } from '../store/entities/records';
import type { StoredEvent } from '../store/events';
import { keys } from '../store/keys';
import { queryAll } from '../store/query-all';
import { LIST_INDEX } from '../store/table-schema';

/**
 * The first half of webhook delivery: committed events (read from the table's stream, in commit
 * order per tenant) become one queued delivery per subscription that wants them
 * (queue/delivery-queue.ts). The second half, domain/webhook-dispatch.ts, sends them.
 */

/** An event as the stream carries it, with its place in the stream. */
export interface StreamedEvent {
  /** The stream record's sequence number: where the stream resumes after a failure. */
  sequenceNumber: string;
  /** The tenant whose feed the event is in (keys.tenantOfEvents of its partition). */
  tenantId: string;
  event: StoredEvent;
}

/** Whether `subscription` wants events of `type`: it is enabled and lists no types, or this one. */
export const wants = (subscription: Pick<WebhookRecord, 'enabled' | 'types'>, type: string): boolean => {
  // An empty list is not stored (store/entity.ts `defaults`): absent means all types.
  const types: readonly string[] = subscription.types ?? [];
  return subscription.enabled && (types.length === 0 || types.includes(type));
};

/** A tenant's webhook subscriptions (the `list` index: few per tenant, read whole). */
const subscriptionsOf = async (tenantId: string): Promise<Stored<WebhookRecord>[]> =>
  (await queryAll({
    IndexName: LIST_INDEX.name,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': LIST_INDEX.partition },
    ExpressionAttributeValues: { ':pk': keys.list(tenantId, 'WEBHOOK') },
  })) as unknown as Stored<WebhookRecord>[];

/**
 * Queues the deliveries of `streamed` (one stream batch, in stream order): the subscriptions of
 * each tenant in the batch are read once. Answers the sequence number of the first event whose
 * deliveries were not all queued, with why (the stream hands the batch again from there: what
 * was queued after it is deduplicated by SQS); nothing when every delivery was queued.
 */
export const fanOut = async (
  streamed: readonly StreamedEvent[],
): Promise<{ failedAt: string; error: unknown } | undefined> => {
  const first = streamed[0];
  if (!first) return undefined;
  const tenants = new Map<string, Stored<WebhookRecord>[]>();
  try {
    for (const { event } of streamed) {
      const tenantId = keys.tenantOfEvents(event.pk);
      if (tenantId !== undefined && !tenants.has(tenantId))
        tenants.set(tenantId, await subscriptionsOf(tenantId));
    }
  } catch (error) {
    return { failedAt: first.sequenceNumber, error };
  }
  const messages: DeliveryMessage[] = [];
  const sources: string[] = [];
  for (const { sequenceNumber, tenantId, event } of streamed) {
    for (const subscription of tenants.get(tenantId) ?? []) {
      if (!wants(subscription, event.type)) continue;
      messages.push({
        tenantId,
        webhookId: subscription.id,
        eventSk: event.sk,
        eventId: event.id,
        type: event.type,
        resourceId: event.resourceId,
      });
      sources.push(sequenceNumber);
    }
  }
  const { sent, error } = await enqueueDeliveries(messages);
  return sent < messages.length ? { failedAt: sources[sent] as string, error } : undefined;
};
