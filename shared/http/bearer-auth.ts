import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { forgetClientTokens, type VerifiedClient, verifyAccessToken } from '../auth/access-tokens';
import { bearerCredentials } from '../auth/credentials';
import { HomeMoving } from '../store/errors';
import { throttledAuthentication } from './auth-throttle';
import { clientOf, requestState } from './request-state';

/**
 * Checks the Bearer token and the clientId header, then records the client, its compatibility
 * profile and its home region (read with the token, no extra round trip) in the request's state
 * (request-state.ts). Throws the 401 on any failure (a 429 past the failure budgets of
 * auth-throttle.ts); never returns early.
 */
export const bearerAuth = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: async ({ event }) => {
    let verified: VerifiedClient | undefined;
    const { clientId } = await throttledAuthentication(
      event,
      () => bearerCredentials(event.headers),
      async ({ clientId, token }) => {
        verified = await verifyAccessToken(clientId, token);
      },
    );
    requestState(event).client = { tenantId: clientId, ...verified };
  },
  // The client's home moved (a re-home): the next request reads it again, not the remembered one.
  onError: ({ event, error }) => {
    const tenantId = clientOf(event)?.tenantId;
    if (tenantId && error instanceof HomeMoving) forgetClientTokens(tenantId);
  },
});
