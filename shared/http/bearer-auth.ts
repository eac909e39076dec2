import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { forgetClientTokens, verifyAccessToken } from '../auth/access-tokens';
import { bearerCredentials } from '../auth/credentials';
import type { CompatProfile } from '../schemas/compat';
import { HomeMoving } from '../store/errors';
import type { IdempotencyContext } from '../store/idempotency';
import { throttledAuthentication } from './auth-throttle';
import type { Compat } from './compat';

export type AuthorizedEvent = APIGatewayProxyEventV2 & {
  requestContext: APIGatewayProxyEventV2['requestContext'] & {
    /** The client and the profile it is pinned to. */
    authorizer?: { lambda: { tenantId: string; compat?: CompatProfile; homeRegion?: string } };
    /** Set by the Idempotency-Key middleware when the request carries one. */
    idempotency?: IdempotencyContext;
    /** The request's compatibility profile, resolved once after authentication (compat.ts). */
    compat?: Compat;
  };
};

/**
 * Checks the Bearer token and the clientId header, then records the tenant and its
 * compatibility profile (read with the token, no extra round trip) where an API Gateway Lambda
 * authorizer would put them. Throws the 401 on any failure (a 429 past the failure budgets of
 * auth-throttle.ts); never returns early.
 */
export const bearerAuth = (): MiddlewareObj<AuthorizedEvent> => ({
  before: async ({ event }) => {
    let compat: CompatProfile | undefined;
    let homeRegion: string | undefined;
    const { clientId } = await throttledAuthentication(
      event,
      () => bearerCredentials(event.headers),
      async ({ clientId, token }) => {
        ({ compat, homeRegion } = await verifyAccessToken(clientId, token));
      },
    );
    event.requestContext.authorizer = { lambda: { tenantId: clientId, compat, homeRegion } };
  },
  // The client's home moved (a re-home): the next request reads it again, not the remembered one.
  onError: ({ event, error }) => {
    const tenantId = event.requestContext.authorizer?.lambda.tenantId;
    if (tenantId && error instanceof HomeMoving) forgetClientTokens(tenantId);
  },
});
