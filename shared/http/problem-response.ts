import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { DomainError } from '../store/errors';
import { fromDomainError, HttpError, unavailable } from './errors';
import { errorFields, logger } from './logger';
import { requestState } from './request-state';
import { type HttpResult, problemJson } from './responses';

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
};

/** AWS SDK failures that mean "the store is busy or away", not "the request was wrong". */
const STORE_UNAVAILABLE = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'AbortError',
  'TransactionCanceledException',
  'TransactionInProgressException',
  // The search index's RDS Data API: a paused Aurora cluster resuming (it takes seconds), or away.
  'DatabaseResumingException',
  'DatabaseUnavailableException',
  'DatabaseNotFoundException',
  'StatementTimeoutException',
  'ServiceUnavailableError',
  'InternalServerErrorException',
  // S3
  'SlowDown',
  'InternalError',
  'RequestTimeout',
]);
const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

interface MiddyHttpError {
  statusCode: number;
  expose?: boolean;
  message: string;
  cause?: { package?: string };
}

const isMiddyError = (e: unknown): e is MiddyHttpError =>
  typeof e === 'object' && e !== null && typeof (e as MiddyHttpError).statusCode === 'number';

/** Maps anything thrown to one HttpError; unknown errors become a generic 500 and are logged. */
export const toHttpError = (error: unknown): HttpError => {
  if (error instanceof HttpError) return error;
  if (error instanceof DomainError) return fromDomainError(error);
  if (isMiddyError(error) && error.cause?.package === '@middy/http-json-body-parser') {
    if (error.statusCode === 415)
      return new HttpError(
        415,
        'unsupported-media-type',
        'Unsupported Media Type',
        'Send the body as application/json.',
      );
    return new HttpError(400, 'malformed-json', 'Bad Request', 'The body is not valid JSON.');
  }
  if (isMiddyError(error) && error.statusCode >= 400 && error.statusCode < 500) {
    const title = STATUS_TITLES[error.statusCode] ?? 'Bad Request';
    return new HttpError(error.statusCode, 'bad-request', title, error.expose ? error.message : title);
  }
  const { name, code, $fault } = (error ?? {}) as { name?: string; code?: string; $fault?: string };
  // A server-side fault of DynamoDB or S3 (after the SDK's own retries) is an outage, not a bug of ours.
  if ((name && STORE_UNAVAILABLE.has(name)) || (code && NETWORK_ERRORS.has(code)) || $fault === 'server') {
    logger.warn('store unavailable', { errorName: name, errorCode: code });
    return unavailable();
  }
  // Chosen fields only: an SDK error's own properties hold the raw response (customer data).
  logger.error('unhandled error', { error: errorFields(error) });
  return new HttpError(500, 'internal-error', 'Internal Server Error', 'An unexpected error occurred.');
};

/** The RFC 9457 body of an error (the API's responses, and the operator CLI's failures). */
export const problemBody = (error: HttpError, instance?: string) => ({
  type: `urn:helpdesk:problem:${error.code}`,
  title: error.title,
  status: error.status,
  detail: error.detail,
  ...(error.errors ? { errors: error.errors } : {}),
  ...(instance ? { instance } : {}),
});

/**
 * The one error responder (registered last, so its onError runs first) and the request id on
 * every response, success or failure. The problem's code becomes the `problemType` dimension of
 * the request's metrics (request-log.ts records them).
 */
export const problemResponses = (): MiddlewareObj<APIGatewayProxyEventV2, HttpResult> => ({
  after: (request) => {
    if (request.response) request.response.headers['x-request-id'] = request.event.requestContext.requestId;
  },
  onError: (request) => {
    const error = toHttpError(request.error);
    requestState(request.event).problem = error.code;
    request.response = problemJson(error.status, problemBody(error, request.event.rawPath), {
      ...error.headers,
      'x-request-id': request.event.requestContext.requestId,
    });
  },
});
