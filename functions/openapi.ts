import { publicHandler } from '../shared/http/public-handler';
import { staticFile, staticFileResponse } from '../shared/http/static-file';
import { OPENAPI_DOCUMENT } from '../shared/routes';

/**
 * `GET /openapi.json`, public: the OpenAPI 3.1 document of this API, as `npm run openapi` wrote
 * it from the route table, the schemas and the captured examples (shared/http/openapi.ts). Served
 * as the committed file, read once per instance from next to the bundle (the function carries
 * neither the generator nor the document: 609 KB of JSON, 42 KB gzip-compressed when accepted),
 * with a strong ETag, so a client that keeps it revalidates with a 304.
 */
export const handler = publicHandler('openapi', async ({ event }) =>
  staticFileResponse(staticFile(OPENAPI_DOCUMENT), event, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'public, max-age=300',
  }),
);
