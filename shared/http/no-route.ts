import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { HttpError } from './errors';
import type { HttpResult } from './responses';

/** Where the docs page is, from each address that leads to it (relative: a custom domain's base path stays). */
const TO_DOCS: Record<string, string> = { '/': 'docs', '/docs/': '../docs' };

/**
 * A request no route matches (API Gateway's `$default` route, served by the docs page's function:
 * routes.ts `fallback`): `GET /` and `GET /docs/` are a 302 to the docs page; anything else a 404
 * `no-route` problem naming the method and path, not API Gateway's bare `{"message":"Not Found"}`.
 */
export const noRoute = (event: APIGatewayProxyEventV2): HttpResult => {
  const { method } = event.requestContext.http;
  const to = method === 'GET' || method === 'HEAD' ? TO_DOCS[event.rawPath] : undefined;
  if (to) return { statusCode: 302, headers: { location: to, 'cache-control': 'no-store' }, body: '' };
  throw new HttpError(
    404,
    'no-route',
    'Not Found',
    `No route for ${method} ${event.rawPath}; the routes are listed at /docs and /openapi.json.`,
  );
};
