/**
 * The retry policy, pure: which answers are worth another attempt and how long to wait first.
 * Exponential backoff with full jitter (a uniformly random wait below `base · 2^attempt`,
 * capped), never shorter than the server's `Retry-After`.
 */
export interface RetryOptions {
  /** Retries after the first attempt (so at most `maxRetries + 1` requests). Default 4. */
  maxRetries?: number;
  /** Backoff base in ms: the n-th retry (from 0) waits below `baseDelayMs · 2^n`. Default 200. */
  baseDelayMs?: number;
  /** Cap of the backoff ceiling in ms. Default 20 000. */
  maxDelayMs?: number;
  /**
   * The longest `Retry-After` waited for, in ms; an answer asking for longer is returned (thrown
   * as a HelpdeskError carrying `retryAfter`) instead. Default 60 000.
   */
  maxRetryAfterMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 200,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

export const retryPolicy = (options: RetryOptions = {}): RetryPolicy => {
  const policy = { ...DEFAULT_RETRY };
  for (const [name, value] of Object.entries(options) as [keyof RetryPolicy, number | undefined][]) {
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`retry.${name} must be a number ≥ 0`);
    policy[name] = value;
  }
  return policy;
};

/** The upper bound (exclusive) of the jittered wait before retry number `attempt` (from 0). */
export const backoffCeiling = (attempt: number, policy: RetryPolicy): number =>
  Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);

/** Full jitter: uniform in [0, ceiling). `random` returns [0, 1), as Math.random does. */
export const fullJitter = (
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number => Math.floor(random() * backoffCeiling(attempt, policy));

/**
 * How long to wait before retry number `attempt` (0 for the first retry), or undefined to stop:
 * retries spent, or the server asks for a longer wait than `maxRetryAfterMs`. The jittered
 * backoff, but never less than `retryAfterMs` when the server sent one.
 */
export const retryDelay = (
  attempt: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined => {
  if (attempt >= policy.maxRetries) return undefined;
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) return undefined;
  return Math.max(retryAfterMs ?? 0, fullJitter(attempt, policy, random));
};

/**
 * Whether a request may be sent again when its outcome is unknown (a 504, a dropped connection):
 * reads, and writes carrying an `Idempotency-Key` (the server answers a repeat with the first
 * outcome). An update or delete without one is not repeated: read the record instead.
 */
export const replaySafe = (method: string, headers: Headers): boolean =>
  method === 'GET' || method === 'HEAD' || headers.has('idempotency-key');

/**
 * Whether an answer is worth another attempt. 429 and 503 promise that nothing was written
 * (docs/errors.md); a 504 (`outcome-unknown`) and a `409 request-in-progress` are repeated only
 * when the repeat is safe (see `replaySafe`), and then answer the first request's outcome.
 */
export const retryableStatus = (status: number, safe: boolean, problemType: string | undefined): boolean => {
  if (status === 429 || status === 503) return true;
  if (!safe) return false;
  return status === 504 || (status === 409 && problemType === 'urn:helpdesk:problem:request-in-progress');
};

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export const sleep = (ms: number, signal?: AbortSignal | null): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
