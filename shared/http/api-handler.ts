import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { Context } from 'aws-lambda';
import { type AuthorizedEvent, bearerAuth } from '../auth/bearer-auth';
import { config } from '../config';
import { routes } from '../routes';
import { rememberOutcome } from '../store/idempotency';
import type { WriteOp } from '../store/transact';
import { bodyLimit } from './body-limit';
import { idempotencyKey } from './idempotency-key';
import { problemResponses } from './problem-response';
import { rateLimit } from './rate-limit';
import { requestLog } from './request-log';
import type { HttpResult } from './responses';

export interface ApiRequest {
  event: AuthorizedEvent;
  /** The authenticated client; empty on the token route. */
  tenantId: string;
  /** The `{id}` path parameter, when the route has one. */
  pathId: string;
  query: Record<string, string>;
  /** Parsed JSON on routes with a body, otherwise undefined. */
  body: unknown;
  /** Absolute base URL of the API as the client called it (for nextQuery, photo URLs). */
  baseUrl: string;
  /**
   * The transaction element that stores this response under the request's Idempotency-Key
   * (none without a key): creating operations add it to their write.
   */
  remember: (status: number, body: unknown) => WriteOp[];
  /** The version named by `If-Match` (NaN when it names none); undefined without the header or for `*`. */
  ifMatch: number | undefined;
}

/**
 * Wraps one operation in the house middleware chain, configured from its route-table entry:
 * header normalisation, access log, Bearer + clientId auth, the per-client rate limit, body size limit and JSON parsing only
 * on routes with a body, and the single problem+json error responder (last, so its onError runs first).
 */
export const apiHandler = (operationId: string, operation: (req: ApiRequest) => Promise<HttpResult>) => {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`Unknown operation ${operationId}`);

  const chain = middy<AuthorizedEvent, HttpResult, Error, Context>()
    .use(httpHeaderNormalizer())
    .use(requestLog());
  if (route.auth === 'bearer') chain.use(bearerAuth()).use(rateLimit());
  if (route.hasBody) chain.use(bodyLimit(route.maxBodyBytes)).use(httpJsonBodyParser());
  if (route.idempotent) chain.use(idempotencyKey(operationId));
  chain.use(problemResponses());

  return chain.handler((event) =>
    operation({
      event,
      tenantId: event.requestContext.authorizer?.lambda.tenantId ?? '',
      pathId: event.pathParameters?.id ?? '',
      query: (event.queryStringParameters ?? {}) as Record<string, string>,
      body: route.hasBody ? (event.body as unknown) : undefined,
      baseUrl: baseUrlOf(event),
      remember: (status, body) => {
        const ctx = event.requestContext.idempotency;
        return ctx ? [rememberOutcome(ctx, status, body)] : [];
      },
      ifMatch: ifMatchOf(event.headers['if-match']),
    }),
  );
};

/** ETags are `"<version>"`; a weak `W/` prefix is accepted, `*` matches any existing record. */
const ifMatchOf = (header: string | undefined): number | undefined => {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"(\d{1,15})"\s*$/.exec(header);
  return match ? Number(match[1]) : Number.NaN;
};

const baseUrlOf = (event: AuthorizedEvent): string => {
  const configured = config().PUBLIC_BASE_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const proto = event.headers['x-forwarded-proto'] ?? 'https';
  return `${proto}://${event.requestContext.domainName}`;
};
