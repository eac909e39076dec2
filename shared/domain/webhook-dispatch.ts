import type { DeliveryMessage } from '../queue/delivery-queue';
import { type Stored, type WebhookRecord, webhookEntity } from '../store/entities/records';
import { NotFound } from '../store/errors';
import type { StoredEvent } from '../store/events';
import { getRecord } from '../store/records';
import { recordAttempt } from './webhook-attempts';
import { type DeliveredEvent, type DeliveryOutcome, deliver } from './webhook-delivery';
import { wants } from './webhook-fanout';
import { nextAttemptDelay } from './webhook-retry';

/**
 * The second half of webhook delivery: one queued delivery (queue/delivery-queue.ts), received
 * for the `attempt`-th time, sent to its subscription as it is now (its URL, secret, state and
 * types are read at each attempt: a subscription disabled, deleted or no longer wanting the type
 * gets nothing more; its receiver replays from the feed cursor of its last delivery). Each
 * attempt is recorded (`GET /webhook/{id}/deliveries`); a failure is retried after the backoff
 * (domain/webhook-retry.ts) until the failures lasted the horizon, when the subscription is
 * disabled (domain/webhook-attempts.ts).
 */
export interface Receipt {
  /** This is the message's `attempt`-th receive (1…): with batches of one, its attempt number. */
  attempt: number;
  /** When it was first received (ms): the failures of this delivery began no earlier. */
  firstAttemptAt: number;
}

/** Renders an event as the feed shows it, with the feed cursor after it (the http layer's job). */
export type EventRenderer = (
  tenantId: string,
  eventSk: string,
) => Promise<{ event: DeliveredEvent; cursorUrl: string } | undefined>;

export type DispatchResult =
  | { done: true; outcome?: DeliveryOutcome; skipped?: string; disabled?: boolean }
  | { done: false; retryInMs: number; outcome: DeliveryOutcome };

const subscriptionOf = async (m: DeliveryMessage): Promise<Stored<WebhookRecord> | undefined> => {
  try {
    return await getRecord(webhookEntity, m.tenantId, m.webhookId, true);
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
};

/**
 * Makes one attempt of `m`. Done: delivered, or nothing left to do (why in `skipped`), or the
 * subscription was disabled by this failure. Not done: retry after `retryInMs`. Throws only
 * when the store fails (the queue then makes the message visible again after its timeout).
 */
export const dispatchDelivery = async (
  m: DeliveryMessage,
  receipt: Receipt,
  render: EventRenderer,
  now: () => number = Date.now,
): Promise<DispatchResult> => {
  const subscription = await subscriptionOf(m);
  if (!subscription) return { done: true, skipped: 'subscription deleted' };
  if (!wants(subscription, m.type))
    return { done: true, skipped: subscription.enabled ? 'type no longer wanted' : 'subscription disabled' };
  const rendered = await render(m.tenantId, m.eventSk);
  if (!rendered) return { done: true, skipped: 'event past its retention' };
  const outcome = await deliver(subscription, rendered.event, rendered.cursorUrl);
  // A subscription re-enabled (or changed) since this delivery began failing gets a fresh horizon.
  const failingSince = Math.max(receipt.firstAttemptAt, subscription.updatedAt ?? 0);
  const { disabled } = await recordAttempt(
    { tenantId: m.tenantId },
    subscription,
    { id: m.eventId, type: m.type } satisfies Pick<StoredEvent, 'id' | 'type'>,
    outcome,
    { attempt: receipt.attempt, firstAttemptAt: failingSince, at: now() },
  );
  if (outcome.ok || disabled) return { done: true, outcome, disabled };
  return { done: false, retryInMs: nextAttemptDelay(receipt.attempt), outcome };
};
