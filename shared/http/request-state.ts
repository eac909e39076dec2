import type { CompatProfile } from '../schemas/compat';
import type { IdempotencyContext, StoredAnswer } from '../store/idempotency';
import type { Compat } from './compat';
import { objectSlot } from './object-slot';

/** The client a Bearer token was issued to, as authentication found it (bearer-auth.ts). */
export interface AuthorizedClient {
  readonly tenantId: string;
  /** The compatibility profile the client is pinned to. */
  readonly compat?: CompatProfile;
  /** The client's home region (docs/regions.md). */
  readonly homeRegion?: string;
  /** How many days its deleted tickets stay in the trash. */
  readonly trashDays?: number;
  /** How many days its history entries are kept. */
  readonly historyDays?: number;
}

/**
 * What the chain learns of one request, written by its middlewares and read by `apiHandler`:
 * the one per-request state of the house chain. The event stays as API Gateway sent it (no
 * middleware writes to `requestContext`); the state is held on it under a hidden key
 * (object-slot.ts), so concurrent requests of one process (the local server) never share one.
 */
export interface RequestState {
  /** Set by Bearer authentication (bearer-auth.ts). */
  client?: AuthorizedClient;
  /** The request's compatibility profile, resolved once after authentication (compat.ts). */
  compat?: Compat;
  /** The request's Idempotency-Key, hashed, and what it asks for (idempotency-key.ts). */
  idempotency?: IdempotencyContext;
  /** The stored answer of a committed request with the same key: answered instead of the operation. */
  replay?: StoredAnswer;
  /** When the request started (epoch ms): its access-log line's duration (request-log.ts). */
  startedAt?: number;
  /** The code of the problem the request was answered with (problem-response.ts): its metrics' `problemType`. */
  problem?: string;
  /** The rate limit's answer headers, and the next lease's claim if this request sent it (rate-limit.ts). */
  rate?: { headers: Record<string, string>; prefetched?: Promise<void> };
}

const states = objectSlot<object, RequestState>('request state');

/** A fresh state for one invocation (apiHandler): nothing an earlier one with the same event left. */
export const startRequestState = (event: object): RequestState => states.set(event, {});

/** The state of the request `event` belongs to (a middleware called on its own gets a fresh one). */
export const requestState = (event: object): RequestState => states.get(event) ?? startRequestState(event);

/** The authenticated client of the request, if any; reads without making a state (the public chain's log line). */
export const clientOf = (event: object): AuthorizedClient | undefined => states.get(event)?.client;
