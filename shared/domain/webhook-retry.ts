import { config } from '../config';

/**
 * When a failed delivery is tried again, and when a subscription whose deliveries keep failing
 * is disabled (docs/decisions.md, "Webhooks (issue 13)"). Pure but for the policy, which is
 * configuration (WEBHOOK_RETRY_CAPS_MS, WEBHOOK_RETRY_HORIZON_MS): the pipeline passes the clock.
 *
 * After attempt n fails, attempt n + 1 comes after a delay drawn uniformly from
 * [cap(n) / 2, cap(n)] ("equal" jitter: half fixed, half random), so that the schedule has a
 * known minimum (the tests sum it) while receivers coming back from an outage are not hit by
 * every retry at once. Default caps: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, then 4 h for
 * ever. Retries stop, and the subscription is disabled, once the failures have lasted the
 * horizon (24 h by default).
 */
export interface RetryPolicy {
  /** The longest wait after attempt n (index n - 1); every later attempt waits at most the last. */
  caps: readonly number[];
  /** How long failures go on before retries stop and the subscription is disabled. */
  horizonMs: number;
}

let cached: { source: string; policy: RetryPolicy } | undefined;

/** The configured policy (parsed once per configuration). */
export const retryPolicy = (): RetryPolicy => {
  const { WEBHOOK_RETRY_CAPS_MS, WEBHOOK_RETRY_HORIZON_MS } = config();
  const source = `${WEBHOOK_RETRY_CAPS_MS}/${WEBHOOK_RETRY_HORIZON_MS}`;
  if (cached?.source !== source) {
    const caps = WEBHOOK_RETRY_CAPS_MS.split(',').map(Number);
    cached = { source, policy: { caps, horizonMs: WEBHOOK_RETRY_HORIZON_MS } };
  }
  return cached.policy;
};

/** The cap of the wait after attempt `attempt` (1…). */
export const retryCap = (attempt: number, policy = retryPolicy()): number =>
  policy.caps[Math.min(Math.max(attempt, 1), policy.caps.length) - 1] as number;

/** The least wait after attempt `attempt`: half its cap (the jitter draws the other half). */
export const minimalDelay = (attempt: number, policy = retryPolicy()): number =>
  retryCap(attempt, policy) / 2;

/** The wait (ms) before the attempt after `attempt` (1…), jittered by `random` (in [0, 1)). */
export const nextAttemptDelay = (
  attempt: number,
  random: () => number = Math.random,
  policy = retryPolicy(),
): number => {
  const cap = retryCap(attempt, policy);
  return Math.round(cap / 2 + random() * (cap / 2));
};

/**
 * True once the failures of a subscription have lasted the horizon: `consecutiveFailures`
 * attempts failed in a row (at least one), the first of them at `firstFailureAt`.
 */
export const shouldDisable = (
  consecutiveFailures: number,
  firstFailureAt: number,
  now: number,
  policy = retryPolicy(),
): boolean => consecutiveFailures > 0 && now - firstFailureAt >= policy.horizonMs;

/** Why a subscription was disabled, naming the last failure (its HTTP status, else its error). */
export const disabledReason = (
  last: { status?: number | null; error?: string | null },
  policy = retryPolicy(),
): string =>
  `deliveries failed for ${Math.round(policy.horizonMs / 3_600_000)} h (last: ${last.status ?? last.error ?? 'unknown'})`;

/**
 * How long a delivery that may not be attempted yet waits before it asks again (the tenant has
 * its most attempts running, or a redelivery is being queued): 1–2 s at first, doubling with each
 * wait of this message (its receives beyond its attempts) up to 30–60 s, so a long queue of one
 * busy tenant steps out of the other tenants' way without spending the queue's receive budget.
 */
export const postponeDelay = (
  receives: number,
  attempts: number,
  random: () => number = Math.random,
): number => {
  const waits = Math.max(0, receives - 1 - attempts);
  const cap = Math.min(60_000, 2_000 * 2 ** Math.min(waits, 5));
  return Math.round(cap / 2 + random() * (cap / 2));
};
