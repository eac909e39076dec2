import { issueAccessToken, verifyClientSecret } from '../shared/auth/access-tokens';
import { basicCredentials } from '../shared/auth/credentials';
import { apiHandler } from '../shared/http/api-handler';
import { admitTokenExchange, throttledAuthentication } from '../shared/http/auth-throttle';
import { badRequest } from '../shared/http/errors';
import { json } from '../shared/http/responses';

/**
 * `GET /oauth/token?grant_type=client_credentials` with `Authorization: Basic <apiToken>`.
 * Failed authentications count against the presented clientId and the caller's address, and
 * issued tokens against the client's exchange budget (shared/http/auth-throttle.ts).
 */
export const handler = apiHandler('oauthToken', async ({ event, query }) => {
  let homeRegion: string | undefined;
  const { clientId } = await throttledAuthentication(
    event,
    () => {
      const credentials = basicCredentials(event.headers);
      if (query.grant_type !== 'client_credentials') {
        throw badRequest('grant_type must be client_credentials.', [
          { path: 'grant_type', message: 'unsupported grant type' },
        ]);
      }
      return credentials;
    },
    async ({ clientId, secret }) => {
      ({ homeRegion } = await verifyClientSecret(clientId, secret));
    },
  );
  await admitTokenExchange(clientId);
  const token = await issueAccessToken(clientId, homeRegion);
  // RFC 6749 §5.1: token responses must not be cached.
  return json(200, token, { 'cache-control': 'no-store', pragma: 'no-cache' });
});
