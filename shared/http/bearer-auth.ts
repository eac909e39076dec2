import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { verifyAccessToken } from '../auth/access-tokens';
import { bearerCredentials } from '../auth/credentials';
import type { IdempotencyContext } from '../store/idempotency';
import { throttledAuthentication } from './auth-throttle';

export type AuthorizedEvent = APIGatewayProxyEventV2 & {
  requestContext: APIGatewayProxyEventV2['requestContext'] & {
    authorizer?: { lambda: { tenantId: string } };
    /** Set by the Idempotency-Key middleware when the request carries one. */
    idempotency?: IdempotencyContext;
  };
};

/**
 * Checks the Bearer token and the clientId header, then records the tenant where an
 * API Gateway Lambda authorizer would put it. Throws the 401 on any failure (a 429 past the
 * failure budgets of auth-throttle.ts); never returns early.
 */
export const bearerAuth = (): MiddlewareObj<AuthorizedEvent> => ({
  before: async ({ event }) => {
    const { clientId } = await throttledAuthentication(
      event,
      () => bearerCredentials(event.headers),
      ({ clientId, token }) => verifyAccessToken(clientId, token),
    );
    event.requestContext.authorizer = { lambda: { tenantId: clientId } };
  },
});
