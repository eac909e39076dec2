import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request's deadline, for every store and S3 call made on its behalf. The http layer runs
 * each invocation inside `withDeadline`; store and S3 calls read `deadlineSignal()` and pass it
 * on, so at the deadline every call in flight is aborted and no new one starts. `timeLeft()`
 * says how long until then: a transaction is sent only when its answer can come back in time
 * (store/attempt-budget.ts).
 */
interface Deadline {
  signal: AbortSignal;
  /** When the signal aborts (epoch ms). */
  at: number;
}

const current = new AsyncLocalStorage<Deadline>();

/** Runs `work` with a deadline `ms` from now, at which every store and S3 call still in flight is aborted. */
export const withDeadline = async <T>(ms: number, work: () => Promise<T>): Promise<T> => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return await current.run({ signal: controller.signal, at: Date.now() + ms }, work);
  } finally {
    clearTimeout(timer);
  }
};

/** The running request's signal; undefined outside a request (CLI, tests, benchmarks). */
export const deadlineSignal = (): AbortSignal | undefined => current.getStore()?.signal;

/** Milliseconds until the running request's deadline (0 once passed); Infinity outside a request. */
export const timeLeft = (): number => {
  const deadline = current.getStore();
  if (!deadline) return Number.POSITIVE_INFINITY;
  return deadline.signal.aborted ? 0 : Math.max(0, deadline.at - Date.now());
};

/** True when a failure means "no answer came back" rather than an answer that said no. */
export const noAnswer = (error: unknown): boolean => {
  const { name, code, $metadata } = (error ?? {}) as {
    name?: string;
    code?: string;
    $metadata?: { httpStatusCode?: number };
  };
  if ($metadata?.httpStatusCode) return false;
  return (
    name === 'AbortError' ||
    name === 'TimeoutError' ||
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ETIMEDOUT' ||
    code === 'ABORT_ERR'
  );
};
