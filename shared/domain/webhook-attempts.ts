import { attemptWrite, type DeliveryAttempt, listAttempts } from '../store/deliveries';
import { type Stored, type WebhookRecord, webhookEntity } from '../store/entities/records';
import { getRecord } from '../store/record-reads';
import { fieldsAtVersion } from '../store/record-writes';
import { StaleWrite, writeAtomically } from '../store/transact';
import type { DeliveryOutcome } from './webhook-delivery';
import { disabledReason, shouldDisable } from './webhook-retry';

/**
 * What the delivery pipeline keeps of its attempts (store/deliveries.ts), and the disabling of
 * a subscription whose deliveries failed for the whole retry horizon (domain/webhook-retry.ts).
 */

/** The attempt `outcome` is: the event's `attempt`-th (1…), made at `at`; its first was at `firstAttemptAt`. */
export interface AttemptInfo {
  attempt: number;
  /** When this attempt was made (ms); the clock, unless a test sets it. */
  at?: number;
  /** When the event's first attempt was made (ms): failures of this event began then. */
  firstAttemptAt: number;
}

/**
 * Records one attempt of `event` to `subscription` (as read, with its version) and, when it
 * failed and the event's attempts have all failed for the retry horizon (a success ends an
 * event's retries, so attempt n failing means n failures in a row), disables the subscription in
 * the same transaction. The disabling is conditioned on the version read: when a user changed
 * the subscription meanwhile (re-enabled it, paused it, changed its URL), their write stands and
 * the attempt is recorded alone. Answers whether the subscription was disabled.
 */
export const recordAttempt = async (
  ctx: { tenantId: string },
  subscription: Stored<WebhookRecord>,
  event: { id: string; type: string },
  result: DeliveryOutcome,
  info: AttemptInfo,
): Promise<{ disabled: boolean }> => {
  const at = info.at ?? Date.now();
  const attempt: DeliveryAttempt = {
    eventId: event.id,
    eventType: event.type,
    attempt: info.attempt,
    at,
    ok: result.ok,
    status: result.status ?? null,
    error: result.ok ? null : (result.error ?? null),
    response: result.response || null,
    ms: result.ms,
  };
  const write = attemptWrite(ctx.tenantId, subscription.id, attempt);
  const disable = !result.ok && subscription.enabled && shouldDisable(info.attempt, info.firstAttemptAt, at);
  if (!disable) {
    await writeAtomically([write]);
    return { disabled: false };
  }
  try {
    // Only on the version read: a user's change meanwhile (re-enabled, paused, new URL) stands.
    const disabling = fieldsAtVersion(
      webhookEntity,
      ctx.tenantId,
      subscription,
      { enabled: false, disabledReason: disabledReason(result) },
      at,
    );
    await writeAtomically([write, disabling]);
    return { disabled: true };
  } catch (error) {
    if (!(error instanceof StaleWrite)) throw error;
    await writeAtomically([write]);
    return { disabled: false };
  }
};

/** A page of a subscription's attempts, newest first; 404 when the tenant has no such subscription. */
export const readDeliveryPage = async (
  tenantId: string,
  webhookId: string,
  query: { page: number; cursor?: string },
) => {
  const [page] = await Promise.all([
    listAttempts(tenantId, webhookId, query),
    getRecord(webhookEntity, tenantId, webhookId, true),
  ]);
  return page;
};
