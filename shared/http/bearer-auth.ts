import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { verifyAccessToken } from '../auth/access-tokens';
import { bearerCredentials } from '../auth/credentials';
import type { IdempotencyContext } from '../store/idempotency';

export type AuthorizedEvent = APIGatewayProxyEventV2 & {
  requestContext: APIGatewayProxyEventV2['requestContext'] & {
    authorizer?: { lambda: { tenantId: string } };
    /** Set by the Idempotency-Key middleware when the request carries one. */
    idempotency?: IdempotencyContext;
  };
};

/**
 * Checks the Bearer token and the clientId header, then records the tenant where an
 * API Gateway Lambda authorizer would put it. Throws the 401 on any failure; never returns early.
 */
export const bearerAuth = (): MiddlewareObj<AuthorizedEvent> => ({
  before: async ({ event }) => {
    const { clientId, token } = bearerCredentials(event.headers);
    await verifyAccessToken(clientId, token);
    event.requestContext.authorizer = { lambda: { tenantId: clientId } };
  },
});
