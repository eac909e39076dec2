import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { config } from '../config';
import { rateSubjects } from '../store/keys';
import { claimLease } from '../store/rate-limit-leases';
import { HttpError } from './errors';
import { clientOf, requestState } from './request-state';
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
  /** The claim in flight, if any: concurrent requests wait for it instead of each sending one. */
  claiming?: Promise<void>;
  /** The size of this subject's last lease and when it was asked for (both carried into the next minute's window). */
  lease?: number;
  claimedAt?: number;
}

/** Claims up to `want` of a subject's shared budget for `minute` (store/rate-limit-leases.ts). */
export type ClaimLease = (
  subject: string,
  minute: number,
  want: number,
  limit: number,
) => Promise<{ granted: number; total: number }>;

export interface Admission {
  allowed: boolean;
  resetSeconds: number;
  headers: Record<string, string>;
}

/** Whole seconds until the next one-minute window opens (Retry-After, RateLimit-Reset): 1–60. */
export const secondsToNextWindow = (now: number): number =>
  Math.max(1, Math.ceil(((Math.floor(now / 60_000) + 1) * 60_000 - now) / 1000));

/** Base lease size: small budgets lease one at a time (exact), large ones amortise the write over up to 50. */
export const leaseSize = (limit: number) => Math.max(1, Math.min(50, Math.floor(limit / 20)));

/**
 * How long a lease should last when its budget allows more than `leaseSize`: a next lease needed
 * within half of this after the last is twice its size, one needed over twice this later half,
 * never below the base size nor above a twentieth of the budget. An instance then claims about once a
 * second whatever its traffic (at 1 000 requests a second, leases of ~800 instead of 50: 0.001
 * writes a request instead of 0.02), and strands at most about a second of its own traffic
 * (docs/decisions.md, "Rate limit").
 */
export const LEASE_TARGET_MS = 1000;

/** The next lease of a subject whose last one (`previous`) was asked for `lastedMs` ago. */
export const grownLease = (base: number, limit: number, previous: number, lastedMs: number): number => {
  const top = Math.max(base, Math.floor(limit / 20));
  const next =
    lastedMs < LEASE_TARGET_MS / 2
      ? previous * 2
      : lastedMs > LEASE_TARGET_MS * 2
        ? Math.floor(previous / 2)
        : previous;
  return Math.min(top, Math.max(base, next));
};

/**
 * The admission rule of one instance: its window per subject (a client, an address; a new
 * window each minute), a lease of `lease(limit)` claimed through `claim` only when the granted
 * ones are used up and the shared budget is not known to be spent. With `grow`, leases follow
 * the instance's traffic (`grownLease`). Pure but for `claim`, which the middlewares bind to the
 * store.
 */
export const admission = (
  claim: ClaimLease,
  lease: (limit: number) => number = leaseSize,
  { grow = false }: { grow?: boolean } = {},
) => {
  const windows = new Map<string, Window>();
  /** The subject's window of the minute `now` is in, if this instance has one. */
  const current = (subject: string, now: number): Window | undefined => {
    const w = windows.get(subject);
    return w?.minute === Math.floor(now / 60_000) ? w : undefined;
  };
  const windowOf = (subject: string, now: number): Window => {
    let w = current(subject, now);
    if (!w) {
      if (windows.size > 10_000) windows.clear();
      const last = windows.get(subject);
      w = { minute: Math.floor(now / 60_000), granted: 0, used: 0, total: 0 };
      // The pace goes on into the next minute: its first lease follows the last one's.
      if (last?.lease !== undefined) w.lease = last.lease;
      if (last?.claimedAt !== undefined) w.claimedAt = last.claimedAt;
      windows.set(subject, w);
    }
    return w;
  };
  /** The size of `w`'s next lease: the base, or with `grow` what its last one's pace asks for. */
  const sizeFor = (w: Window, limit: number, now: number): number => {
    const base = lease(limit);
    // A base of one (budgets under 40) is also the top: those budgets stay exact.
    if (!grow || w.lease === undefined || w.claimedAt === undefined) return base;
    return grownLease(base, limit, w.lease, now - w.claimedAt);
  };
  /** One claim at a time per window; what it grants belongs to the window it was sent for. */
  const claimFor = (w: Window, subject: string, limit: number, now: number): Promise<void> => {
    if (w.claiming) return w.claiming;
    const size = sizeFor(w, limit, now);
    w.lease = size;
    w.claimedAt = now;
    w.claiming = claim(subject, w.minute, size, limit)
      .then((claimed) => {
        w.granted += claimed.granted;
        w.total = claimed.total;
      })
      .finally(() => {
        w.claiming = undefined;
      });
    return w.claiming;
  };
  const admit = async (subject: string, now: number, limit: number): Promise<Admission> => {
    const w = windowOf(subject, now);
    // Once the shared budget is known to be spent, refuse without asking the store again.
    while (w.used >= w.granted && w.total < limit) await claimFor(w, subject, limit, now);
    const allowed = w.used < w.granted;
    if (allowed) w.used++;
    const resetSeconds = secondsToNextWindow(now);
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
  /** True when this instance already knows the subject's budget for this minute is spent (no store call). */
  const blocked = (subject: string, now: number, limit: number): boolean => {
    const w = current(subject, now);
    return w !== undefined && w.used >= w.granted && w.total >= limit;
  };
  /**
   * The next lease, claimed before the current one runs out: when at most a quarter of a lease of
   * more than one is left and the shared budget is not spent, a claim is sent now and returned (the
   * caller lets its request answer only once it settles, so nothing is left in flight when Lambda
   * freezes the instance). Requests then rarely wait for a claim (a p99 of one lease's write less).
   */
  const prefetch = (subject: string, now: number, limit: number): Promise<void> | undefined => {
    const w = current(subject, now);
    const size = w?.lease ?? lease(limit);
    if (!w || size <= 1 || w.claiming) return undefined;
    if (w.total >= limit || w.granted - w.used > size / 4) return undefined;
    return claimFor(w, subject, limit, now);
  };
  return {
    admit,
    blocked,
    prefetch,
    /** Whether this instance holds any window (else nothing is blocked, and no subject need be named). */
    holdsAny: () => windows.size > 0,
    forget: () => windows.clear(),
  };
};

const instances = new Set<{ forget: () => void }>();

/** An admission bound to the store's shared counters (one per budget: requests, auth failures, exchanges). */
export const storeAdmission = (lease?: (limit: number) => number, options?: { grow?: boolean }) => {
  const instance = admission(claimLease, lease, options);
  instances.add(instance);
  return instance;
};

const requests = storeAdmission(leaseSize, { grow: true });

/** Forgets every budget's windows, as a new Lambda instance would start (tests). */
export const forgetRateWindows = (): void => {
  for (const instance of instances) instance.forget();
};

export const rateLimit = (): MiddlewareObj<APIGatewayProxyEventV2, HttpResult> => {
  const addHeaders = async ({
    event,
    response,
  }: {
    event: APIGatewayProxyEventV2;
    response: HttpResult | null | undefined;
  }) => {
    const decision = requestState(event).rate;
    if (decision && response) Object.assign(response.headers, decision.headers);
    // A failed prefetch changes nothing: the next request that finds no lease claims one itself.
    await decision?.prefetched?.catch(() => undefined);
  };
  return {
    before: async ({ event }) => {
      const clientId = clientOf(event)?.tenantId;
      if (!clientId) return;
      const limit = config().RATE_LIMIT_PER_MINUTE;
      const subject = rateSubjects.requests(clientId);
      const now = Date.now();
      const decision = await requests.admit(subject, now, limit);
      const prefetched = requests.prefetch(subject, now, limit);
      requestState(event).rate = { headers: decision.headers, ...(prefetched ? { prefetched } : {}) };
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
