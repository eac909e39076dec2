import {
  InternalServerError,
  ProvisionedThroughputExceededException,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { badRequest, fromDomainError, HttpError, unavailable } from '../../shared/http/errors';
import { logger } from '../../shared/http/logger';
import { problemBody, problemResponses, toHttpError } from '../../shared/http/problem-response';
import {
  Conflict,
  Contended,
  type DomainError,
  IdempotencyKeyReused,
  InvalidCursor,
  InvalidInput,
  InvalidReference,
  LimitExceeded,
  NotFound,
  StaleVersion,
  Unauthorized,
} from '../../shared/store/errors';
import { thrown } from './fixtures';

let warn: ReturnType<typeof vi.spyOn>;
let error: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
  error = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

const plain = (e: HttpError) => ({
  status: e.status,
  code: e.code,
  title: e.title,
  detail: e.detail,
  errors: e.errors,
  headers: e.headers,
});

describe('fromDomainError', () => {
  const cases: [DomainError, ReturnType<typeof plain>][] = [
    [
      new InvalidInput('The query is invalid.', [{ path: 'page', message: 'bad' }]),
      {
        status: 400,
        code: 'validation-error',
        title: 'Bad Request',
        detail: 'The query is invalid.',
        errors: [{ path: 'page', message: 'bad' }],
        headers: {},
      },
    ],
    [
      new InvalidInput('Not an image.', undefined, 'unsupported-image'),
      {
        status: 400,
        code: 'unsupported-image',
        title: 'Bad Request',
        detail: 'Not an image.',
        errors: undefined,
        headers: {},
      },
    ],
    [
      new InvalidInput('Nope.'),
      {
        status: 400,
        code: 'bad-request',
        title: 'Bad Request',
        detail: 'Nope.',
        errors: undefined,
        headers: {},
      },
    ],
    [
      new InvalidReference('assignedTo.id', 'Agent abc'),
      {
        status: 400,
        code: 'invalid-reference',
        title: 'Bad Request',
        detail: 'Agent abc does not exist.',
        errors: [{ path: 'assignedTo.id', message: 'Agent abc does not exist' }],
        headers: {},
      },
    ],
    [
      new InvalidCursor('The cursor is invalid.'),
      {
        status: 400,
        code: 'bad-request',
        title: 'Bad Request',
        detail: 'The cursor is invalid.',
        errors: undefined,
        headers: {},
      },
    ],
    [
      new Unauthorized(),
      {
        status: 401,
        code: 'unauthorized',
        title: 'Unauthorized',
        detail: 'Missing, invalid or expired credentials.',
        errors: undefined,
        headers: { 'WWW-Authenticate': 'Bearer realm="helpdesk"' },
      },
    ],
    [
      new Unauthorized('Basic'),
      {
        status: 401,
        code: 'unauthorized',
        title: 'Unauthorized',
        detail: 'Missing, invalid or expired credentials.',
        errors: undefined,
        headers: { 'WWW-Authenticate': 'Basic realm="helpdesk"' },
      },
    ],
    [
      new NotFound('Ticket abc'),
      {
        status: 404,
        code: 'not-found',
        title: 'Not Found',
        detail: 'Ticket abc does not exist.',
        errors: undefined,
        headers: {},
      },
    ],
    [
      new Conflict('duplicate-email', 'Taken.', 'email'),
      {
        status: 409,
        code: 'duplicate-email',
        title: 'Conflict',
        detail: 'Taken.',
        errors: [{ path: 'email', message: 'Taken.' }],
        headers: {},
      },
    ],
    [
      new Conflict('in-use', 'Still used.'),
      {
        status: 409,
        code: 'in-use',
        title: 'Conflict',
        detail: 'Still used.',
        errors: undefined,
        headers: {},
      },
    ],
    [
      new StaleVersion('Ticket abc'),
      {
        status: 412,
        code: 'precondition-failed',
        title: 'Precondition Failed',
        detail: 'Ticket abc has changed since the version named by If-Match; read it again.',
        errors: undefined,
        headers: {},
      },
    ],
    [
      new LimitExceeded('Too big.', 'description', 10),
      {
        status: 413,
        code: 'content-too-large',
        title: 'Content Too Large',
        detail: 'Too big.',
        errors: [{ path: 'description', message: 'larger than 10 bytes' }],
        headers: {},
      },
    ],
    [
      new IdempotencyKeyReused(),
      {
        status: 422,
        code: 'idempotency-key-reused',
        title: 'Unprocessable Content',
        detail: 'This Idempotency-Key was already used for a different request.',
        errors: undefined,
        headers: {},
      },
    ],
    [
      new Contended('The ticket'),
      {
        status: 503,
        code: 'contended',
        title: 'Service Unavailable',
        detail:
          'The ticket is being changed by other requests right now; nothing was written. Retry shortly.',
        errors: undefined,
        headers: { 'Retry-After': '1' },
      },
    ],
  ];

  it.each(cases)('maps %s', (domainError, expected) => {
    expect(plain(fromDomainError(domainError))).toEqual(expected);
    // toHttpError sends every domain error through the same mapping.
    expect(plain(toHttpError(domainError))).toEqual(expected);
  });

  it('names each error class after itself', () => {
    expect(new NotFound('x').name).toBe('NotFound');
    expect(new Contended().name).toBe('Contended');
  });
});

describe('toHttpError', () => {
  it('passes an HttpError through unchanged', () => {
    const given = badRequest('x');
    expect(toHttpError(given)).toBe(given);
  });

  it.each([
    [
      'ProvisionedThroughputExceededException',
      new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }),
    ],
    ['InternalServerError ($fault server)', new InternalServerError({ message: 'oops', $metadata: {} })],
    ['ThrottlingException', Object.assign(new Error('throttled'), { name: 'ThrottlingException' })],
    [
      'TransactionCanceledException',
      Object.assign(new Error('conflict'), { name: 'TransactionCanceledException' }),
    ],
    ['S3 SlowDown', Object.assign(new Error('slow'), { name: 'SlowDown' })],
    [
      'ECONNREFUSED',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' }),
    ],
    ['ECONNRESET', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    ['ENOTFOUND', Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' })],
    ['any server fault', Object.assign(new Error('???'), { name: 'SomethingNew', $fault: 'server' })],
  ])('answers 503 unavailable with Retry-After for %s', (_, given) => {
    expect(plain(toHttpError(given))).toEqual(plain(unavailable()));
    expect(plain(unavailable())).toEqual({
      status: 503,
      code: 'unavailable',
      title: 'Service Unavailable',
      detail: 'The store is temporarily unavailable; retry shortly.',
      errors: undefined,
      headers: { 'Retry-After': '1' },
    });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(error).not.toHaveBeenCalled();
  });

  it.each([
    ['a plain Error', new Error('secret internals: table helpdesk at 10.0.0.1')],
    [
      'a client fault of the SDK (our bug)',
      new ResourceNotFoundException({ message: 'Requested resource not found', $metadata: {} }),
    ],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a thrown string', 'boom'],
    ['undefined', undefined],
    ['null', null],
  ])('answers 500 with a generic detail for %s, and logs it', (_, given) => {
    const mapped = toHttpError(given);
    expect(plain(mapped)).toEqual({
      status: 500,
      code: 'internal-error',
      title: 'Internal Server Error',
      detail: 'An unexpected error occurred.',
      errors: undefined,
      headers: {},
    });
    expect(error).toHaveBeenCalledTimes(1);
  });

  /** What the real JSON body parser throws for this event. */
  const parserError = (headers: Record<string, string>, body?: string) =>
    thrown(() => httpJsonBodyParser().before?.({ event: { headers, body } } as never));

  it('answers 415 when the body is not declared as JSON', async () => {
    const mapped = toHttpError(await parserError({ 'content-type': 'text/plain' }, '{}'));
    expect(plain(mapped)).toEqual({
      status: 415,
      code: 'unsupported-media-type',
      title: 'Unsupported Media Type',
      detail: 'Send the body as application/json.',
      errors: undefined,
      headers: {},
    });
  });

  it('answers 400 malformed-json for a body that does not parse, or is missing, or smuggles __proto__', async () => {
    for (const body of ['{"a":', undefined, '{"__proto__": {"admin": true}}']) {
      const mapped = toHttpError(await parserError({ 'content-type': 'application/json' }, body));
      expect(plain(mapped)).toEqual({
        status: 400,
        code: 'malformed-json',
        title: 'Bad Request',
        detail: 'The body is not valid JSON.',
        errors: undefined,
        headers: {},
      });
    }
  });

  it('keeps other middy 4xx statuses, exposing their message only when middy says so', () => {
    const middy = (statusCode: number, expose: boolean) =>
      Object.assign(new Error('Internal detail'), { statusCode, expose });
    expect(plain(toHttpError(middy(413, true)))).toMatchObject({
      status: 413,
      code: 'bad-request',
      title: 'Content Too Large',
      detail: 'Internal detail',
    });
    expect(plain(toHttpError(middy(404, false)))).toMatchObject({
      status: 404,
      title: 'Not Found',
      detail: 'Not Found',
    });
    expect(plain(toHttpError(middy(418, false)))).toMatchObject({
      status: 418,
      title: 'Bad Request',
      detail: 'Bad Request',
    });
    expect(toHttpError(middy(502, true)).status).toBe(500);
  });
});

describe('problem responses', () => {
  it('write RFC 9457 bodies with the problem type URN', () => {
    expect(
      problemBody(new HttpError(404, 'not-found', 'Not Found', 'Ticket x does not exist.'), '/ticket/x'),
    ).toEqual({
      type: 'urn:helpdesk:problem:not-found',
      title: 'Not Found',
      status: 404,
      detail: 'Ticket x does not exist.',
      instance: '/ticket/x',
    });
    expect(problemBody(badRequest('Bad.', [{ path: 'a', message: 'b' }]))).toEqual({
      type: 'urn:helpdesk:problem:validation-error',
      title: 'Bad Request',
      status: 400,
      detail: 'Bad.',
      errors: [{ path: 'a', message: 'b' }],
    });
  });

  const request = (thrownError: unknown) =>
    ({
      event: { rawPath: '/ticket/list', requestContext: { requestId: 'req-1' } },
      error: thrownError,
      response: undefined,
    }) as unknown as Parameters<NonNullable<ReturnType<typeof problemResponses>['onError']>>[0];

  it('answer an error as problem+json with its headers and the request id', async () => {
    const req = request(new Unauthorized());
    await problemResponses().onError?.(req);
    expect(req.response).toEqual({
      statusCode: 401,
      headers: {
        'content-type': 'application/problem+json; charset=utf-8',
        'WWW-Authenticate': 'Bearer realm="helpdesk"',
        'x-request-id': 'req-1',
      },
      body: JSON.stringify({
        type: 'urn:helpdesk:problem:unauthorized',
        title: 'Unauthorized',
        status: 401,
        detail: 'Missing, invalid or expired credentials.',
        instance: '/ticket/list',
      }),
    });
  });
});
