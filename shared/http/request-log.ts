import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { recordRequest } from '../observability/metrics';
import type { OperationId } from '../routes';
import { logger } from './logger';
import { clientOf, requestState } from './request-state';
import type { HttpResult } from './responses';

/**
 * What identifies a request on every log line it writes (logger.ts): `requestId` (API Gateway's,
 * the `x-request-id` of the answer) and `routeKey`, appended as the request starts; `tenantId`
 * once authenticated (`tenantLogKey`). The logger's Lambda-context middleware (registered before
 * this one) clears them as the invocation starts and when it ends.
 */
const appendRequestKeys = (event: APIGatewayProxyEventV2): void => {
  logger.appendKeys({ requestId: event.requestContext.requestId, routeKey: event.requestContext.routeKey });
};

/**
 * One access-log line per request with chosen fields only (never headers, bodies or tokens), and
 * the request's metrics (observability/metrics.ts: Requests, Latency, Errors by route and problem
 * type), from the same measurement. Registered right after the context and metrics, so its
 * after/onError hooks run last of the chain and see the final status. The line names its
 * request, route and tenant itself as well: the local server runs requests of one function
 * concurrently in one process, where the appended keys of one could land on another's line.
 */
export const requestLog = (route: OperationId): MiddlewareObj<APIGatewayProxyEventV2, HttpResult> => {
  const write = (event: APIGatewayProxyEventV2, status: number | undefined) => {
    const ctx = event.requestContext;
    const now = Date.now();
    const state = requestState(event);
    const durationMs = now - (state.startedAt ?? now);
    logger.info('request', {
      requestId: ctx.requestId,
      routeKey: ctx.routeKey,
      status,
      tenantId: clientOf(event)?.tenantId,
      durationMs,
    });
    recordRequest(route, status, durationMs, state.problem);
  };
  return {
    before: ({ event }) => {
      requestState(event).startedAt = Date.now();
      appendRequestKeys(event);
    },
    after: ({ event, response }) => write(event, response?.statusCode),
    onError: ({ event, response }) => write(event, response?.statusCode),
  };
};

/** Registered right after authentication: the tenant on every later line of the request. */
export const tenantLogKey = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: ({ event }) => {
    const tenantId = clientOf(event)?.tenantId;
    if (tenantId) logger.appendKeys({ tenantId });
  },
});
