import type { MiddlewareObj } from '@middy/core';
import { config } from '../config';
import { claimLease } from '../store/rate-limit-leases';
import type { AuthorizedEvent } from './bearer-auth';
import { HttpError } from './errors';
import type { HttpResult } from './responses';

/**
 * Per-client request budget (RATE_LIMIT_PER_MINUTE, fixed one-minute windows), enforced across
 * every Lambda instance through leases claimed from a shared counter (rate-limit-leases.ts).
 * Every authenticated response carries RateLimit-Limit / -Remaining / -Reset; past the budget
 * the answer is 429 with Retry-After. Remaining is this instance's view: exact with one
 * instance, an upper bound with several.
 */
interface Window {
  minute: number;
  granted: number;
  used: number;
  /** Shared counter after this instance's last claim. */
  total: number;
}

/** Claims up to `want` requests of the client's shared budget for `minute` (store/rate-limit-leases.ts). */
export type ClaimLease = (
  clientId: string,
  minute: number,
  want: number,
  limit: number,
) => Promise<{ granted: number; total: number }>;

export interface Admission {
  allowed: boolean;
  resetSeconds: number;
  headers: Record<string, string>;
}

/** Lease size: small budgets lease one at a time (exact), large ones amortise the write over up to 50. */
export const leaseSize = (limit: number) => Math.max(1, Math.min(50, Math.floor(limit / 20)));

/**
 * The admission rule of one instance: its window per client (a new one each minute), a lease
 * claimed through `claim` only when the granted requests are used up and the shared budget
 * is not known to be spent. Pure but for `claim`, which the middleware binds to the store.
 */
export const admission = (claim: ClaimLease) => {
  const windows = new Map<string, Window>();
  const admit = async (clientId: string, now: number, limit: number): Promise<Admission> => {
    const minute = Math.floor(now / 60_000);
    let w = windows.get(clientId);
    if (!w || w.minute !== minute) {
      if (windows.size > 10_000) windows.clear();
      w = { minute, granted: 0, used: 0, total: 0 };
      windows.set(clientId, w);
    }
    // Once the shared budget is known to be spent, refuse without asking the store again.
    if (w.used >= w.granted && w.total < limit) {
      const lease = await claim(clientId, minute, leaseSize(limit), limit);
      w.granted += lease.granted;
      w.total = lease.total;
    }
    const allowed = w.used < w.granted;
    if (allowed) w.used++;
    const resetSeconds = Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000));
    const remaining = Math.max(0, limit - w.total) + (w.granted - w.used);
    return {
      allowed,
      resetSeconds,
      headers: {
        'ratelimit-limit': String(limit),
        'ratelimit-remaining': String(remaining),
        'ratelimit-reset': String(resetSeconds),
      },
    };
  };
  return { admit, forget: () => windows.clear() };
};

const instance = admission(claimLease);
const decisions = new WeakMap<object, Record<string, string>>();

export const forgetRateWindows = (): void => instance.forget();

export const rateLimit = (): MiddlewareObj<AuthorizedEvent, HttpResult> => {
  const addHeaders = ({
    event,
    response,
  }: {
    event: AuthorizedEvent;
    response: HttpResult | null | undefined;
  }) => {
    const headers = decisions.get(event);
    if (headers && response) Object.assign(response.headers, headers);
  };
  return {
    before: async ({ event }) => {
      const clientId = event.requestContext.authorizer?.lambda.tenantId;
      if (!clientId) return;
      const decision = await instance.admit(clientId, Date.now(), config().RATE_LIMIT_PER_MINUTE);
      decisions.set(event, decision.headers);
      if (!decision.allowed) {
        throw new HttpError(
          429,
          'rate-limited',
          'Too Many Requests',
          `This client used its ${decision.headers['ratelimit-limit']} requests for this minute.`,
          undefined,
          { 'retry-after': String(decision.resetSeconds) },
        );
      }
    },
    after: addHeaders,
    onError: addHeaders,
  };
};
