import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request's deadline, for every store and S3 call made on its behalf. The http layer runs
 * each invocation inside `withDeadline`; store and S3 calls read `deadlineSignal()` and pass it
 * on, so at the deadline every call in flight is aborted and no new one starts.
 */
const current = new AsyncLocalStorage<AbortSignal>();

export const withDeadline = <T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> =>
  current.run(signal, work);

/** The running request's signal; undefined outside a request (CLI, tests, benchmarks). */
export const deadlineSignal = (): AbortSignal | undefined => current.getStore();

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
