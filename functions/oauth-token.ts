import { issueAccessToken } from '../shared/auth/access-tokens';
import { basicCredentials } from '../shared/auth/credentials';
import { apiHandler } from '../shared/http/api-handler';
import { badRequest } from '../shared/http/errors';
import { json } from '../shared/http/responses';

/** `GET /oauth/token?grant_type=client_credentials` with `Authorization: Basic <apiToken>`. */
export const handler = apiHandler('oauthToken', async ({ event, query }) => {
  const { clientId, secret } = basicCredentials(event.headers);
  if (query.grant_type !== 'client_credentials') {
    throw badRequest('grant_type must be client_credentials.', [
      { path: 'grant_type', message: 'unsupported grant type' },
    ]);
  }
  const token = await issueAccessToken(clientId, secret);
  // RFC 6749 §5.1: token responses must not be cached.
  return json(200, token, { 'cache-control': 'no-store', pragma: 'no-cache' });
});
