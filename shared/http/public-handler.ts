import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { publishMetrics } from '../observability/metrics';
import { tracing } from '../observability/tracing';
import { type OperationId, type Route, type RouteOf, routeOf } from '../routes';
import { baseUrlOf } from './base-url';
import { logContext } from './logger';
import { noRoute } from './no-route';
import { problemResponses } from './problem-response';
import { requestLog } from './request-log';
import type { HttpResult } from './responses';
import { validate } from './validate';
import { wellFormedInput } from './well-formed';

type Output<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

/** What a public operation receives: its validated query and the API's origin; no tenant, no body, no writes. */
export interface PublicRequest<R extends Route = Route> {
  event: APIGatewayProxyEventV2;
  query: Output<R['request']['query']>;
  /** The API's origin as the client reached it (base-url.ts). */
  baseUrl: string;
}

/**
 * The house chain for a public route (`auth: 'none'`, `access: 'none'`): tracing when bundled
 * in, the Lambda context and request keys on log lines, metrics, access log, well-formed Unicode in the path and query, the route's query schema, problem+json
 * and the request id, as apiHandler does; no credentials, no rate limit, no body, nothing that
 * touches the store. Its own module so that a public function's bundle carries neither the AWS
 * SDK nor the auth code (apiHandler serves such a route the same way, at that weight).
 */
export const publicHandler = <Op extends OperationId>(
  operationId: Op,
  operation: (req: PublicRequest<RouteOf<Op>>) => Promise<HttpResult>,
) => {
  const route: Route = routeOf(operationId);
  if (route.auth !== 'none' || route.access !== 'none' || route.request.body) {
    throw new Error(`${operationId} is not a public route without a body (shared/routes.ts)`);
  }
  const { query } = route.request;
  return middy<APIGatewayProxyEventV2, HttpResult, Error, Context>({ timeoutEarlyInMillis: 0 })
    .use(tracing())
    .use(logContext())
    .use(publishMetrics())
    .use(requestLog(operationId))
    .use(wellFormedInput())
    .use(problemResponses())
    .handler((event) =>
      // The fallback route's function also answers the requests no route matches.
      route.fallback && event.routeKey === '$default'
        ? Promise.resolve(noRoute(event))
        : operation({
            event,
            query: (query ? validate(query, event.queryStringParameters ?? {}, 'query') : undefined) as never,
            baseUrl: baseUrlOf(event),
          }),
    );
};
