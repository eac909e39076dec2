import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import type { WriteContext } from '../domain/commit';
import { publishMetrics, recordCreated } from '../observability/metrics';
import { tracing } from '../observability/tracing';
import { type OperationId, type Route, type RouteOf, routeOf } from '../routes';
import { DEFAULT_COMPAT } from '../schemas/compat';
import { withDeadline } from '../store/deadline';
import { db } from '../store/dynamo';
import { rememberOutcome, replayIfSeen, transactionToken } from '../store/idempotency';
import { withRegionScope } from '../store/store-region';
import { baseUrlOf } from './base-url';
import { type AuthorizedEvent, bearerAuth } from './bearer-auth';
import { bodyLimit } from './body-limit';
import { type Compat, compatFor, compatProfile } from './compat';
import { homeRegion } from './home-region';
import { idempotencyKey } from './idempotency-key';
import { ifMatchOf } from './if-match';
import { jsonLimits } from './json-limits';
import { errorFields, logContext, logger } from './logger';
import { problemResponses } from './problem-response';
import { rateLimit } from './rate-limit';
import { requestLog, tenantLogKey } from './request-log';
import type { HttpResult } from './responses';
import { validate } from './validate';
import { wellFormedInput } from './well-formed';

type Output<S> = S extends z.ZodMiniType ? z.output<S> : undefined;
type Req<R extends Route> = R['request'];

/** What an operation receives: its route's input, validated and typed, and who is asking. */
export interface ApiRequest<R extends Route = Route> {
  event: AuthorizedEvent;
  /** The authenticated client; empty on the token route. */
  tenantId: string;
  params: Output<Req<R>['params']>;
  query: Output<Req<R>['query']>;
  /** The query as sent (search values before normalisation: page links keep them). */
  rawQuery: Record<string, string | undefined>;
  body: Output<Req<R>['body']>;
  /** Absolute base URL of the API as the client called it (for nextQuery, photo URLs). */
  baseUrl: string;
  /** Absolute URL of this route's path (a list route's: what page links start with). */
  routeUrl: string;
  /** Tenant, `If-Match` and the idempotency record, for the domain's writes. */
  write: WriteContext;
  /** The request's compatibility profile: what shapes its pages and ticket statuses. */
  compat: Compat;
}

/**
 * Wraps one operation in the house middleware chain, configured from its route-table entry:
 * tracing (when bundled in: observability/tracing.ts), the Lambda context and the request's keys
 * on every log line, metrics published once per invocation (observability/metrics.ts), header
 * normalisation, access log and request metrics, Bearer + clientId auth (then the tenant on the
 * log lines), the per-client rate limit, the request's compatibility profile (compat.ts), body
 * limits (bytes, then depth and members: json-limits.ts) and JSON parsing only on routes with a
 * body, well-formed Unicode in every string of the path, query and body, the Idempotency-Key on
 * creating routes, the route's input schemas (the query as the profile reads it), and the single
 * problem+json error responder (last, so its onError runs first). An error of the operation that
 * the profile answers itself (a missing detail under `deskero`) becomes that answer; every other
 * one a problem. A success of a route that creates tickets, replies or notes is counted
 * (observability/metrics.ts `recordCreated`).
 */
export const apiHandler = <Op extends OperationId>(
  operationId: Op,
  operation: (req: ApiRequest<RouteOf<Op>>) => Promise<HttpResult>,
) => {
  const route: Route = routeOf(operationId);
  const { params, query, body } = route.request;
  // middy's own early timeout would answer 503 while a write may still land: ours (below) knows better.
  const chain = middy<AuthorizedEvent, HttpResult, Error, Context>({ timeoutEarlyInMillis: 0 })
    .use(tracing({ awsClients: () => (route.access === 'none' ? [] : [db()]) }))
    .use(logContext())
    .use(publishMetrics())
    .use(httpHeaderNormalizer())
    .use(requestLog(operationId));
  // Rate windows are counted in the receiving region; from the home region on, the tenant's data.
  if (route.auth === 'bearer')
    chain
      .use(bearerAuth())
      .use(tenantLogKey())
      .use(rateLimit())
      .use(homeRegion(route))
      .use(compatProfile(route));
  if (body) chain.use(bodyLimit(route.maxBodyBytes)).use(jsonLimits()).use(httpJsonBodyParser());
  chain.use(wellFormedInput());
  if (route.idempotent) chain.use(idempotencyKey(operationId));
  chain.use(problemResponses());

  const [successStatus] = route.responses.success;
  // The token route has no client yet: it answers the same under every profile.
  const unprofiled = compatFor(route, DEFAULT_COMPAT);
  const handler = chain.handler(async (event) => {
    const rawQuery = event.queryStringParameters ?? {};
    const tenantId = event.requestContext.authorizer?.lambda.tenantId ?? '';
    const idempotency = event.requestContext.idempotency;
    const compat = event.requestContext.compat ?? unprofiled;
    const request: ApiRequest<RouteOf<Op>> = {
      event,
      tenantId,
      compat,
      params: (params ? validate(params, event.pathParameters ?? {}, 'path') : undefined) as never,
      query: (query ? validate(query, compat.query(rawQuery), 'query') : undefined) as never,
      rawQuery,
      // Validated before the operation touches the store, so a bad body on an unknown id is still a 400.
      body: (body ? validate(body, event.body, 'body') : undefined) as never,
      baseUrl: baseUrlOf(event),
      routeUrl: `${baseUrlOf(event)}${route.path}`,
      write: {
        tenantId,
        ifMatch: ifMatchOf(event.headers['if-match']),
        afterFailed: (error) =>
          logger.warn('after-commit work failed; a retry or sweep finishes it', errorFields(error)),
        ...(idempotency
          ? {
              remember: (id: string) => [rememberOutcome(idempotency, successStatus, { id })],
              requestToken: transactionToken(idempotency),
              replay: () => replayIfSeen(idempotency),
            }
          : {}),
      },
    };
    try {
      const result = await operation(request);
      if (result.statusCode < 300) recordCreated(operationId, request.body);
      return result;
    } catch (error) {
      const answer = compat.answer(error);
      if (answer) return answer;
      throw error;
    }
  });
  return (event: AuthorizedEvent, context: Context): Promise<HttpResult> => {
    const deadline = Math.max(0, context.getRemainingTimeInMillis() - DEADLINE_MARGIN_MS);
    return withDeadline(deadline, () => withRegionScope(() => handler(event, context)));
  };
};

/**
 * Store and S3 calls stop this long before the function's own timeout, leaving time to answer
 * truthfully (503 nothing written, or 504 outcome unknown) instead of being cut off.
 */
const DEADLINE_MARGIN_MS = 1500;
