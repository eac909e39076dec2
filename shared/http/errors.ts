import {
  Conflict,
  Contended,
  CursorExpired,
  DeadlineExceeded,
  DomainError,
  type FieldError,
  HomeMoving,
  IdempotencyKeyReused,
  IndexBehind,
  InvalidCursor,
  InvalidInput,
  InvalidReference,
  LimitExceeded,
  NotFound,
  OutcomeUnknown,
  StaleVersion,
  Unauthorized,
} from '../store/errors';

/**
 * Client-facing errors. The store and the domain throw DomainErrors (shared/store/errors.ts);
 * `toHttpError` is the one mapper that gives each its status, title and headers, and
 * problem-response.ts writes it as one RFC 9457 application/problem+json response. The HTTP
 * layer's own refusals (429, 415, malformed JSON) are HttpErrors directly.
 */
export type { FieldError };

export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** Stable machine-readable code, published as the problem `type` (see docs/errors.md). */
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

export const badRequest = (detail: string, errors?: FieldError[]): HttpError =>
  new HttpError(400, errors ? 'validation-error' : 'bad-request', 'Bad Request', detail, errors);

export const unavailable = (detail = 'The store is temporarily unavailable; retry shortly.'): HttpError =>
  new HttpError(503, 'unavailable', 'Service Unavailable', detail, undefined, { 'Retry-After': '1' });

/** Status and title of each domain error; the code, detail and field errors are the error's own. */
const STATUS: [new (...args: never[]) => DomainError, number, string][] = [
  [InvalidInput, 400, 'Bad Request'],
  [InvalidReference, 400, 'Bad Request'],
  [InvalidCursor, 400, 'Bad Request'],
  [Unauthorized, 401, 'Unauthorized'],
  [NotFound, 404, 'Not Found'],
  [Conflict, 409, 'Conflict'],
  [CursorExpired, 410, 'Gone'],
  [StaleVersion, 412, 'Precondition Failed'],
  [LimitExceeded, 413, 'Content Too Large'],
  [IdempotencyKeyReused, 422, 'Unprocessable Content'],
  [Contended, 503, 'Service Unavailable'],
  [IndexBehind, 503, 'Service Unavailable'],
  [HomeMoving, 503, 'Service Unavailable'],
  [DeadlineExceeded, 503, 'Service Unavailable'],
  [OutcomeUnknown, 504, 'Gateway Timeout'],
];

export const fromDomainError = (error: DomainError): HttpError => {
  const [, status, title] = STATUS.find(([type]) => error instanceof type) ?? [
    DomainError,
    400,
    'Bad Request',
  ];
  const headers: Record<string, string> = {};
  if (error instanceof Unauthorized) {
    headers['WWW-Authenticate'] = `${error.scheme} realm="helpdesk"`;
  }
  // Every 503 and 504 is worth retrying shortly: nothing was written, or the outcome is unknown.
  if (status === 503 || status === 504) headers['Retry-After'] = '1';
  return new HttpError(status, error.code, title, error.message, error.errors, headers);
};
