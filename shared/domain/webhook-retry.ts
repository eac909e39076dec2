/**
 * When a failed delivery is tried again, and when a subscription whose deliveries keep failing
 * is disabled (docs/decisions.md, "Webhooks (issue 13)"). Pure: the pipeline passes the clock.
 *
 * After attempt n fails, attempt n + 1 comes after a delay drawn uniformly from
 * [cap(n) / 2, cap(n)] ("equal" jitter: half fixed, half random), so that the schedule has a
 * known minimum (the tests sum it) while receivers coming back from an outage are not hit by
 * every retry at once. Caps: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, then 4 h for ever.
 * Retries stop, and the subscription is disabled, once the failures have lasted RETRY_HORIZON_MS.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The longest wait after attempt n (index n - 1); every later attempt waits at most the last. */
export const RETRY_CAPS_MS: readonly number[] = [
  5 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  4 * HOUR,
];

/** How long failures go on before retries stop and the subscription is disabled. */
export const RETRY_HORIZON_MS = 24 * HOUR;

/** The cap of the wait after attempt `attempt` (1…). */
export const retryCap = (attempt: number): number =>
  RETRY_CAPS_MS[Math.min(Math.max(attempt, 1), RETRY_CAPS_MS.length) - 1] as number;

/** The least wait after attempt `attempt`: half its cap (the jitter draws the other half). */
export const minimalDelay = (attempt: number): number => retryCap(attempt) / 2;

/** The wait (ms) before the attempt after `attempt` (1…), jittered by `random` (in [0, 1)). */
export const nextAttemptDelay = (attempt: number, random: () => number = Math.random): number => {
  const cap = retryCap(attempt);
  return Math.round(cap / 2 + random() * (cap / 2));
};

/**
 * True once the failures of a subscription have lasted the horizon: `consecutiveFailures`
 * attempts failed in a row (at least one), the first of them at `firstFailureAt`.
 */
export const shouldDisable = (consecutiveFailures: number, firstFailureAt: number, now: number): boolean =>
  consecutiveFailures > 0 && now - firstFailureAt >= RETRY_HORIZON_MS;

/** Why a subscription was disabled, naming the last failure (its HTTP status, else its error). */
export const disabledReason = (last: { status?: number | null; error?: string | null }): string =>
  `deliveries failed for 24 h (last: ${last.status ?? last.error ?? 'unknown'})`;

/** Attempts go on at least this long after the first (then the subscription is disabled). */
export const giveUpAfter = RETRY_HORIZON_MS;
