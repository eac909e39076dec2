import document from '../docs/openapi.json' with { type: 'json' };
import { publicHandler } from '../shared/http/public-handler';

/**
 * `GET /openapi.json`, public: the OpenAPI 3.1 document of this API, as `npm run openapi` wrote
 * it from the route table and the schemas (shared/http/openapi.ts). Served from the committed
 * file, so the function carries neither the generator nor the response schemas.
 */
const body = JSON.stringify(document);

export const handler = publicHandler('openapi', async () => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' },
  body,
}));
