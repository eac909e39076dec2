/**
 * Domain errors: what went wrong, in the store's and the domain's words. Nothing here knows
 * HTTP; `shared/http/problems.ts` is the one place that turns each into a problem+json answer,
 * and the operator CLI prints them in the same shape. Anything thrown that is not a
 * DomainError is an outage or a bug.
 */

import type { WriteOutcome } from './write-ops';

export interface FieldError {
  path: string;
  message: string;
}

export abstract class DomainError extends Error {
  /** Stable machine-readable code, published as the problem `type` (docs/errors.md). */
  abstract readonly code: string;
  constructor(
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request itself is invalid (a field, a parameter, a file that is not an image). */
export class InvalidInput extends DomainError {
  readonly code: string;
  constructor(message: string, errors?: FieldError[], code?: string) {
    super(message, errors);
    this.code = code ?? (errors ? 'validation-error' : 'bad-request');
  }
}

/** A body field names a record of the tenant that does not exist. */
export class InvalidReference extends DomainError {
  readonly code = 'invalid-reference';
  constructor(path: string, what: string, message = `${what} does not exist`) {
    super(`${what} does not exist.`, [{ path, message }]);
  }
}

/** A page cursor that was altered, expired or belongs to another query. */
export class InvalidCursor extends DomainError {
  readonly code = 'bad-request';
}

/** A feed cursor older than the events the feed keeps (EVENT_RETENTION_DAYS): 410. */
export class CursorExpired extends DomainError {
  readonly code = 'cursor-expired';
}

/** The record named by the request (path id) does not exist in this tenant. */
export class NotFound extends DomainError {
  readonly code = 'not-found';
  constructor(readonly what: string) {
    super(`${what} does not exist.`);
  }
}

/** The write contradicts the data: a duplicate unique value, a record still in use. */
export class Conflict extends DomainError {
  constructor(
    readonly code: string,
    detail: string,
    path?: string,
  ) {
    super(detail, path ? [{ path, message: detail }] : undefined);
  }
}

/** The version the client named (`If-Match`) is not the record's current one: nothing changed. */
export class StaleVersion extends DomainError {
  readonly code = 'precondition-failed';
  constructor(what: string) {
    super(`${what} has changed since the version named by If-Match; read it again.`);
  }
}

/**
 * A search asked to see a change (`Helpdesk-Min-Position`) the search index has not applied within
 * its wait (SEARCH_WAIT_MS): 503 with Retry-After; the search was not answered.
 */
export class IndexBehind extends DomainError {
  readonly code = 'index-behind';
  constructor(position: string, waitedMs: number) {
    super(
      `The search index has not applied position ${position} yet (waited ${waitedMs} ms); retry shortly, or search without Helpdesk-Min-Position to read what is indexed now.`,
    );
  }
}

/** Concurrent writes kept winning over this one; nothing was written, a retry will do. */
export class Contended extends DomainError {
  readonly code = 'contended';
  constructor(what = 'The record') {
    super(`${what} is being changed by other requests right now; nothing was written. Retry shortly.`);
  }
}

/**
 * Several regions: the tenant's home is moving (docs/regions.md, re-homing): this replica is no
 * longer its home, or the new home has not yet waited out the old home's last writes. Nothing
 * was written; a retry goes to the new home.
 */
export class HomeMoving extends DomainError {
  readonly code = 'unavailable';
  constructor() {
    super("The account's data is moving to another region; nothing was written. Retry shortly.");
  }
}

/** Over a size or count limit: the whole body (no path) or one field of it. */
export class LimitExceeded extends DomainError {
  constructor(
    detail: string,
    path?: string,
    limit?: number,
    readonly code: string = 'content-too-large',
  ) {
    super(detail, path ? [{ path, message: `larger than ${limit} bytes` }] : undefined);
  }
}

/** Missing, invalid, expired or revoked credentials; the same answer whatever was wrong. */
export class Unauthorized extends DomainError {
  readonly code = 'unauthorized';
  constructor(readonly scheme: 'Bearer' | 'Basic' = 'Bearer') {
    super('Missing, invalid or expired credentials.');
  }
}

/** An Idempotency-Key sent again with a different request. */
export class IdempotencyKeyReused extends DomainError {
  readonly code = 'idempotency-key-reused';
  constructor() {
    super('This Idempotency-Key was already used for a different request.');
  }
}

/**
 * Not an error: the stored outcome of an earlier request with the same Idempotency-Key, found
 * by a write's own transaction (a concurrent duplicate that committed first). Thrown to stop the
 * write; `apiHandler` answers it as the route's result, never as a problem.
 */
export class IdempotentReplay extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** What the first answer said of the change besides its body (its feed position, its version). */
    readonly outcome: WriteOutcome = {},
  ) {
    super('replay of an idempotent request');
  }
}

/**
 * A write was sent and no answer came back (the deadline passed, the connection dropped): it
 * may or may not have been applied. A retry with the same Idempotency-Key tells which, without
 * applying it twice.
 */
export class OutcomeUnknown extends DomainError {
  readonly code = 'outcome-unknown';
  constructor() {
    super(
      'The store did not answer in time: this write may or may not have been applied. Retry with the same Idempotency-Key to get its outcome without applying it twice, or read the record to see.',
    );
  }
}

/** The request's time ran out before this store or S3 call was sent: nothing more was written. */
export class DeadlineExceeded extends DomainError {
  readonly code = 'unavailable';
  constructor() {
    super('The store did not answer in time; nothing was written by this request. Retry shortly.');
  }
}

/** The same Idempotency-Key is being used by a request that is still running. */
export class RequestInProgress extends Conflict {
  constructor() {
    super('request-in-progress', 'A request with this Idempotency-Key is still running; retry shortly.');
  }
}
