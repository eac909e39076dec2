/**
 * Typed client-facing errors. Handlers and repositories throw these; the problem middleware
 * (problem-response.ts) turns each into one RFC 9457 application/problem+json response.
 * Anything that is not an HttpError is a bug or an outage and never shows its message.
 */
export interface FieldError {
  path: string;
  message: string;
}

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

export const invalidReference = (path: string, what: string): HttpError =>
  new HttpError(400, 'invalid-reference', 'Bad Request', `${what} does not exist.`, [
    { path, message: `${what} does not exist` },
  ]);

export const notFound = (what: string): HttpError =>
  new HttpError(404, 'not-found', 'Not Found', `${what} does not exist.`);

export const conflict = (code: string, detail: string, path?: string): HttpError =>
  new HttpError(409, code, 'Conflict', detail, path ? [{ path, message: detail }] : undefined);

/** `If-Match` named a version the record no longer has (or never had): nothing was changed. */
export const preconditionFailed = (what: string): HttpError =>
  new HttpError(
    412,
    'precondition-failed',
    'Precondition Failed',
    `${what} has changed since the version named by If-Match; read it again.`,
  );

/** Same body whatever was wrong, so a caller learns nothing about which part failed. */
export const unauthorized = (scheme: 'Bearer' | 'Basic' = 'Bearer'): HttpError =>
  new HttpError(401, 'unauthorized', 'Unauthorized', 'Missing, invalid or expired credentials.', undefined, {
    'WWW-Authenticate': scheme === 'Bearer' ? 'Bearer realm="helpdesk"' : 'Basic realm="helpdesk"',
  });

/** Over a size limit: the whole body (no path) or one field of it. */
export const contentTooLarge = (detail: string, path?: string, limit?: number): HttpError =>
  new HttpError(
    413,
    'content-too-large',
    'Content Too Large',
    detail,
    path ? [{ path, message: `larger than ${limit} bytes` }] : undefined,
  );

export const unavailable = (detail = 'The store is temporarily unavailable; retry shortly.'): HttpError =>
  new HttpError(503, 'unavailable', 'Service Unavailable', detail, undefined, { 'Retry-After': '1' });
