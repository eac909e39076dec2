import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { logger } from './logger';
import type { HttpResult } from './responses';

/**
 * One access-log line per request with chosen fields only: never headers, bodies or tokens.
 * Registered first, so its after/onError hooks run last and see the final status.
 */
export const requestLog = (): MiddlewareObj<APIGatewayProxyEventV2, HttpResult> => {
  const started = new WeakMap<object, number>();
  const write = (event: APIGatewayProxyEventV2, status: number | undefined) => {
    const ctx = event.requestContext as APIGatewayProxyEventV2['requestContext'] & {
      authorizer?: { lambda?: { tenantId?: string } };
    };
    logger.info('request', {
      requestId: ctx.requestId,
      routeKey: ctx.routeKey,
      status,
      tenantId: ctx.authorizer?.lambda?.tenantId,
      durationMs: Date.now() - (started.get(event) ?? Date.now()),
    });
  };
  return {
    before: ({ event }) => {
      started.set(event, Date.now());
    },
    after: ({ event, response }) => write(event, response?.statusCode),
    onError: ({ event, response }) => write(event, response?.statusCode),
  };
};
