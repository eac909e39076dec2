import { timeLeft } from './deadline';

/**
 * When a transaction may be sent again. A retry that is sent and not answered before the
 * request's deadline is a `504 outcome-unknown` for a write that, had it not been sent, would
 * have been a plain "nothing written, retry". So a retry goes only when the time left covers its
 * pause and a generous estimate of one attempt; otherwise the caller refuses (`503 contended`,
 * nothing written). First attempts are always sent: they keep the estimate current.
 */

/**
 * How long a transaction takes, from this process's recent ones: the smoothed round-trip time
 * and its mean deviation of TCP's retransmission timer (RFC 6298), the estimate being
 * `srtt + 4 · rttvar`. Under load it grows with the store's queue, so retries stop earlier.
 */
export class AttemptLatency {
  private srtt: number | undefined;
  private rttvar = 0;

  /** An attempt that got an answer (success or refusal) after `ms`. */
  record(ms: number): void {
    if (this.srtt === undefined) {
      this.srtt = ms;
      this.rttvar = ms / 2;
      return;
    }
    this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - ms);
    this.srtt = 0.875 * this.srtt + 0.125 * ms;
  }

  /**
   * What one more attempt may take, generously: never under MIN_ATTEMPT_MS, and never over
   * MAX_ATTEMPT_MS (a burst of slow answers must not refuse every retry for long; the first
   * attempts, always sent, bring it down again).
   */
  estimate(): number {
    if (this.srtt === undefined) return FIRST_ESTIMATE_MS;
    return Math.min(MAX_ATTEMPT_MS, Math.max(MIN_ATTEMPT_MS, this.srtt + 4 * this.rttvar));
  }
}

/** Before any answer: RFC 6298's initial timeout. */
const FIRST_ESTIMATE_MS = 1000;
/** Some twenty times a DynamoDB transaction's usual latency in its region: room for a hiccup. */
const MIN_ATTEMPT_MS = 500;
const MAX_ATTEMPT_MS = 3000;

/** The process's transactions (store/transact.ts records each answer). */
export const transactions = new AttemptLatency();

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The pause before the next retry: "decorrelated jitter" (AWS Architecture Blog, Exponential
 * Backoff and Jitter): random between `base` and three times the last pause, at most `cap`.
 * Writers that lost together spread out instead of colliding again, and keep spreading while
 * they keep losing.
 */
export const nextPause = (last: number, base: number, cap: number, random = Math.random): number =>
  Math.min(cap, base + random() * (Math.max(last, base) * 3 - base));

/** Within a request its deadline bounds the retries; outside one (CLI, workers), a count: `max`. */
export const mayRetry = (attempt: number, max: number): boolean =>
  Number.isFinite(timeLeft()) || attempt < max;

/** Throws `refused()` unless the time left covers `pause` and then one attempt. */
export const assertTimeForRetry = (refused: () => Error, pause = 0, latency = transactions): void => {
  if (timeLeft() < pause + latency.estimate()) throw refused();
};

/**
 * Pauses before a retry, refusing it (`refused()`, nothing sent) when the time left cannot cover
 * the pause and one attempt after it: checked before the pause and again after it (timers run
 * late on a busy machine, and the estimate may have grown meanwhile).
 */
export const pauseBeforeRetry = async (
  pause: number,
  refused: () => Error,
  latency = transactions,
): Promise<void> => {
  assertTimeForRetry(refused, pause, latency);
  await sleep(pause);
  assertTimeForRetry(refused, 0, latency);
};
