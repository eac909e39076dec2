import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request's deadline, for every store and S3 call made on its behalf. The http layer runs
 * each invocation inside `withDeadline`; store calls pass `deadlineSignal()` to the SDK and S3
 * calls `deadlineAbortSignal()` to fetch, so at the deadline every call in flight is aborted and
 * no new one starts. `timeLeft()` says how long until then: a transaction is sent only when its
 * answer can come back in time (store/attempt-budget.ts).
 */

/**
 * What the AWS SDK reads of an abort signal (`aborted`, `reason`, its `abort` listeners), and no
 * more. Not Node's AbortSignal: the SDK adds and removes a listener on the signal at every call
 * (its retry loop's race, the HTTP request), and on Node's EventTarget that cost ~0.09 ms of CPU
 * a ticket detail under load, a quarter of what the middleware chain adds to it
 * (docs/performance.md, "Issue 27, third pass"); a set of functions costs nothing.
 */
export class DeadlineSignal {
  aborted = false;
  reason: unknown;
  onabort: ((event: unknown) => void) | null = null;
  readonly #listeners = new Set<(event: unknown) => void>();

  addEventListener(_type: 'abort', listener: (event: unknown) => void): void {
    if (!this.aborted) this.#listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: (event: unknown) => void): void {
    this.#listeners.delete(listener);
  }

  /** Aborts once: every listener (each called once, as the SDK adds them) and `onabort`. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = Object.assign(new Error('The request reached its deadline.'), { name: 'TimeoutError' });
    const event = { type: 'abort', target: this };
    const listeners = [...this.#listeners];
    this.#listeners.clear();
    for (const listener of listeners) listener(event);
    this.onabort?.(event);
  }
}

interface Deadline {
  signal: DeadlineSignal;
  /** When the signal aborts (epoch ms). */
  at: number;
  /** The same deadline as a Node AbortSignal, made on first use (fetch takes nothing else). */
  abortSignal?: AbortSignal;
}

const current = new AsyncLocalStorage<Deadline>();

/** Runs `work` with a deadline `ms` from now, at which every store and S3 call still in flight is aborted. */
export const withDeadline = async <T>(ms: number, work: () => Promise<T>): Promise<T> => {
  const signal = new DeadlineSignal();
  const timer = setTimeout(() => signal.abort(), ms);
  try {
    return await current.run({ signal, at: Date.now() + ms }, work);
  } finally {
    clearTimeout(timer);
  }
};

/** The running request's signal, for the AWS SDK; undefined outside a request (CLI, tests, benchmarks). */
export const deadlineSignal = (): DeadlineSignal | undefined => current.getStore()?.signal;

/**
 * The running request's deadline as a Node AbortSignal, for fetch (S3), which takes no other:
 * aborted when the request's signal is. Undefined outside a request.
 */
export const deadlineAbortSignal = (): AbortSignal | undefined => {
  const deadline = current.getStore();
  if (!deadline) return undefined;
  if (!deadline.abortSignal) {
    const controller = new AbortController();
    if (deadline.signal.aborted) controller.abort(deadline.signal.reason);
    else deadline.signal.addEventListener('abort', () => controller.abort(deadline.signal.reason));
    deadline.abortSignal = controller.signal;
  }
  return deadline.abortSignal;
};

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
