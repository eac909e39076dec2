import { randomUUID } from 'node:crypto';
import { config } from '../config';
import type { DeliveryMessage } from '../queue/delivery-queue';
import { acquireSlot, freeSlots, releaseSlot } from '../store/delivery-slots';
import type { StoredEvent } from '../store/events';
import { sortableTime, timeOf } from '../store/keys';
import {
  oldestPendingBesides,
  type PendingDelivery,
  type Redelivery,
  readDeliveryState,
  recordPendingFailure,
  settlePending,
} from '../store/pending-deliveries';
import { recordAttempt } from './webhook-attempts';
import { type DeliveredEvent, type DeliveryOutcome, deliver } from './webhook-delivery';
import { wantsType } from './webhook-fanout';
import { nextAttemptDelay, postponeDelay } from './webhook-retry';

/**
 * The second half of webhook delivery: one queued delivery (queue/delivery-queue.ts) sent to its
 * subscription as it is now (its URL, secret, state and types are read at each attempt). What the
 * subscription is owed is its pending item (store/pending-deliveries.ts): settled when a receiver
 * took the event or the subscription no longer wants it, kept while the subscription is not
 * enabled (re-enabling sends it again). Each attempt is recorded (`GET /webhook/{id}/deliveries`)
 * and counted on the pending item; a failure is retried after the backoff
 * (domain/webhook-retry.ts) until the failures lasted the horizon, when the subscription is
 * disabled (domain/webhook-attempts.ts). At most WEBHOOK_TENANT_CONCURRENCY attempts of one
 * tenant run at once (store/delivery-slots.ts); a delivery that finds none free waits its turn.
 */
export interface Receipt {
  /** This is the message's `receives`-th receive (1…). */
  receives: number;
  /** When it was first received (ms). */
  firstReceivedAt: number;
}

/**
 * Renders an event as the feed shows it, with the feed's URL that reads on after feed position
 * `resumeAfter` (the http layer's job); undefined once the event is past its retention.
 */
export type EventRenderer = (
  tenantId: string,
  eventSk: string,
  resumeAfter: string,
) => Promise<{ event: DeliveredEvent; cursorUrl: string } | undefined>;

export type DispatchResult =
  | { done: true; outcome?: DeliveryOutcome; skipped?: string; disabled?: boolean }
  | { done: false; retryInMs: number; outcome?: DeliveryOutcome; postponed?: string };

/** Longer than one attempt (5 s exchange, its reads and writes): a crashed attempt's slot frees itself. */
const SLOT_LEASE_MS = 15_000;

/**
 * Where the cursor of a delivery of `eventSk` reads the feed from: before the oldest other event
 * the subscription is still owed, and no later than the feed's lag before this event (an event
 * stamped earlier than that committed before this one, so the fan-out has already made it owed or
 * delivered; a later one is after the cursor anyway). Reading the feed from any delivery's cursor
 * therefore reaches every event the subscription had not been delivered when that delivery was
 * made, and every later one (docs/decisions.md, "Webhook recovery").
 */
export const resumePosition = (eventSk: string, oldestOwed: string | undefined, lagMs: number): string => {
  const bound = sortableTime(timeOf(eventSk) - lagMs);
  const owed = oldestOwed === undefined ? undefined : sortableTime(timeOf(oldestOwed));
  return owed !== undefined && owed < bound ? owed : bound;
};

/** Why this message must not be attempted now, if so: it is not the delivery that is owed. */
const standAside = (
  m: DeliveryMessage,
  pending: PendingDelivery | undefined,
  redelivery: Redelivery | undefined,
): { skipped: string } | { postponed: string } | undefined => {
  if (!pending) return { skipped: 'already delivered' };
  if (pending.requeue !== m.requeue) return { skipped: 'taken over by a redelivery' };
  // Older messages of a resource must not pass the copies a redelivery is still queuing.
  if (redelivery && !redelivery.done && m.requeue !== redelivery.version)
    return { postponed: 'a redelivery is being queued' };
  return undefined;
};

/**
 * Makes one attempt of `m`. Done: delivered, or nothing left to do (why in `skipped`), or the
 * subscription was disabled by this failure. Not done: try again after `retryInMs` (a failure's
 * backoff, or a wait for the tenant's turn: `postponed`). Throws only when the store fails (the
 * queue then makes the message visible again after its timeout).
 */
export const dispatchDelivery = async (
  m: DeliveryMessage,
  receipt: Receipt,
  render: EventRenderer,
  now: () => number = Date.now,
): Promise<DispatchResult> => {
  const { WEBHOOK_TENANT_CONCURRENCY, EVENT_FEED_LAG_MS } = config();
  const state = await readDeliveryState(m.tenantId, m.webhookId, m.eventSk, WEBHOOK_TENANT_CONCURRENCY);
  const { subscription, redelivery } = state;
  // Messages queued before pending items existed have none: their attempts are their receives.
  const pending = m.marked ? state.pending : undefined;
  const settle = () => (m.marked ? settlePending(m.tenantId, m.webhookId, m.eventSk) : Promise.resolve());
  if (!subscription) {
    await settle();
    return { done: true, skipped: 'subscription deleted' };
  }
  if (m.marked) {
    const aside = standAside(m, pending, redelivery);
    if (aside && 'skipped' in aside) return { done: true, ...aside };
    if (aside)
      return { done: false, retryInMs: postponeDelay(receipt.receives, pending?.attempts ?? 0), ...aside };
  }
  if (!wantsType(subscription, m.type)) {
    await settle();
    return { done: true, skipped: 'type no longer wanted' };
  }
  // Held: the pending item stays, and enabling the subscription again sends it (fan-out `redeliver`).
  if (!subscription.enabled) return { done: true, skipped: 'held while the subscription is disabled' };

  const free = freeSlots(state.slotItems, WEBHOOK_TENANT_CONCURRENCY, now());
  const slot = await acquireSlot(m.tenantId, free, randomUUID(), SLOT_LEASE_MS, now());
  if (!slot)
    return {
      done: false,
      retryInMs: postponeDelay(receipt.receives, pending?.attempts ?? 0),
      postponed: 'the tenant has its most attempts running',
    };
  let outcome: DeliveryOutcome;
  try {
    const oldest = m.marked ? await oldestPendingBesides(m.tenantId, m.webhookId, m.eventSk) : undefined;
    const rendered = await render(
      m.tenantId,
      m.eventSk,
      resumePosition(m.eventSk, oldest, EVENT_FEED_LAG_MS),
    );
    if (!rendered) {
      await settle();
      return { done: true, skipped: 'event past its retention' };
    }
    outcome = await deliver(subscription, rendered.event, rendered.cursorUrl);
  } finally {
    await releaseSlot(slot);
  }

  const at = now();
  // The run of failures this attempt continues: none after a success, or once the subscription
  // changed (re-enabled, its URL edited) since the last attempt: a fresh horizon and backoff.
  const continues =
    pending?.lastAttemptAt !== undefined && (subscription.updatedAt ?? 0) <= pending.lastAttemptAt;
  const run = m.marked
    ? continues
      ? { attempt: pending.attempts + 1, firstAttemptAt: pending.firstAttemptAt ?? at }
      : { attempt: 1, firstAttemptAt: at }
    : { attempt: receipt.receives, firstAttemptAt: receipt.firstReceivedAt };
  const failingSince = Math.max(run.firstAttemptAt, subscription.updatedAt ?? 0);
  const { disabled } = await recordAttempt(
    { tenantId: m.tenantId },
    subscription,
    { id: m.eventId, type: m.type } satisfies Pick<StoredEvent, 'id' | 'type'>,
    outcome,
    { attempt: run.attempt, firstAttemptAt: failingSince, at },
  );
  if (outcome.ok) {
    await settle();
    return { done: true, outcome };
  }
  if (m.marked)
    await recordPendingFailure(m.tenantId, m.webhookId, m.eventSk, {
      attempts: run.attempt,
      firstAttemptAt: run.firstAttemptAt,
      at,
    });
  // Disabled by this failure: the event stays owed, held until the subscription is enabled again.
  if (disabled) return { done: true, outcome, disabled };
  return { done: false, retryInMs: nextAttemptDelay(run.attempt), outcome };
};
