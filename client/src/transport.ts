import { parseRetryAfter, peekProblemType } from './errors.js';
import { type RetryPolicy, replaySafe, retryableStatus, retryDelay } from './retry.js';
import type { AccessTokens } from './tokens.js';

/** One retry about to happen: what failed and how long the client waits before sending again. */
export interface RetryEvent {
  method: string;
  url: string;
  /** Retry number, from 1. */
  attempt: number;
  delayMs: number;
  /** The answer that is retried, or undefined when the request failed without one. */
  status: number | undefined;
  /** Why there was no answer (a dropped connection). */
  error: unknown;
}

export interface TransportOptions {
  fetch: (request: Request) => Promise<Response>;
  retry: RetryPolicy;
  sleep: (ms: number, signal?: AbortSignal | null) => Promise<void>;
  random: () => number;
  /** Bearer auth for every request (absent for the token route itself). */
  auth?: { tokens: AccessTokens; clientId: string };
  /** Headers every request carries unless it sets them. */
  headers?: Record<string, string>;
  onRetry?: (event: RetryEvent) => void;
}

const aborted = (error: unknown, signal: AbortSignal): boolean =>
  signal.aborted ||
  (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'));

/**
 * The `fetch` openapi-fetch calls: one logical request, sent as many times as it takes.
 * Each attempt is built afresh from the same method, URL, headers (the Idempotency-Key among
 * them, so every retry carries the key of the first attempt) and body bytes, with the current
 * access token. A 401 renews the token and sends again, once per call; 429 / 503 (and, when a
 * repeat is safe, 504, `409 request-in-progress` and a lost connection) wait and send again
 * within the retry budget. The last answer is returned as is: errors are the caller's to read.
 */
export const createTransport =
  (options: TransportOptions) =>
  async (request: Request): Promise<Response> => {
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const headers = new Headers(options.headers);
    for (const [name, value] of request.headers) headers.set(name, value);
    const safe = replaySafe(request.method, headers);
    const { signal } = request;
    let renewed = false;
    for (let retries = 0; ; ) {
      let token: string | undefined;
      if (options.auth) {
        token = await options.auth.tokens.get();
        headers.set('authorization', `Bearer ${token}`);
        headers.set('clientId', options.auth.clientId);
      }
      const attempt = new Request(request.url, {
        method: request.method,
        headers,
        body,
        signal,
        redirect: request.redirect,
      });
      let response: Response | undefined;
      let failure: unknown;
      try {
        response = await options.fetch(attempt);
      } catch (error) {
        if (!safe || aborted(error, signal)) throw error;
        failure = error;
      }
      if (response?.status === 401 && token !== undefined && options.auth && !renewed) {
        renewed = true;
        options.auth.tokens.invalidate(token);
        await response.body?.cancel();
        continue;
      }
      const retryable =
        response === undefined ||
        retryableStatus(
          response.status,
          safe,
          response.status === 409 ? await peekProblemType(response) : undefined,
        );
      const delayMs = retryable
        ? retryDelay(
            retries,
            parseRetryAfter(response?.headers.get('retry-after')),
            options.retry,
            options.random,
          )
        : undefined;
      if (delayMs === undefined) {
        if (response) return response;
        throw failure;
      }
      retries++;
      options.onRetry?.({
        method: request.method,
        url: request.url,
        attempt: retries,
        delayMs,
        status: response?.status,
        error: failure,
      });
      await response?.body?.cancel();
      await options.sleep(delayMs, signal);
    }
  };
