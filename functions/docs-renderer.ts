import { DOCS_HEADERS } from '../shared/http/docs-page';
import { publicHandler } from '../shared/http/public-handler';
import { staticFile, staticFileResponse } from '../shared/http/static-file';
import { REDOC_FILE } from '../shared/routes';

/**
 * `GET /docs/redoc.standalone.js`: the reference page's renderer (public), read once per instance
 * from next to the bundle, gzip-compressed when accepted. The page asks for it with `?v=<version>`,
 * so it may be cached for a year.
 */
export const handler = publicHandler('docsRenderer', async ({ event }) =>
  staticFileResponse(staticFile(REDOC_FILE), event, {
    ...DOCS_HEADERS,
    'content-type': 'text/javascript; charset=utf-8',
    'cache-control': 'public, max-age=31536000, immutable',
  }),
);
