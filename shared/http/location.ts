import { compatRole, type Route, routes } from '../routes';
import type { HttpResult } from './responses';

/**
 * What a `201 Created` says besides its body: `Location`, the absolute address the created
 * resource is read at (its resource's `GET /<resource>/{id}`; for an upload, the address to PUT
 * the file to), and for a record the `ETag` of the version the write made (`"1"`: a new record's
 * first; the write's plan gives it, domain/commit.ts), so a client chains a conditional update
 * without reading first. Replays carry the same.
 */
export interface Created {
  /** `/ticket/{id}`: where the route's records are read; none for an upload. */
  detailPath?: string;
  /** A record (versioned, with an ETag when read), not a job: the document declares its 201's ETag. */
  versioned: boolean;
}

/**
 * Worked out once per route, as its function is made: a record insert answers its `id` (with
 * the webhook's secret, or alone), a job its view; an upload is no resource of ours.
 */
export const createdOf = (route: Route): Created => {
  const [, body] = route.responses.success;
  const resource = route.path.split('/')[1];
  const detail =
    body === 'upload' ? undefined : routes.find((r) => r.method === 'GET' && r.path === `/${resource}/{id}`);
  return {
    ...(detail ? { detailPath: detail.path } : {}),
    versioned:
      detail !== undefined && compatRole(detail) === 'detail' && (body === 'id' || body === 'secret'),
  };
};

/** A 201 `result` with `Location` (a record's ETag comes with its write: api-handler.ts). */
export const located = (result: HttpResult, created: Created, baseUrl: string): HttpResult => {
  if (typeof result.body !== 'string') return result;
  const body = JSON.parse(result.body) as { id?: unknown; uploadUrl?: unknown };
  const location =
    created.detailPath && typeof body.id === 'string'
      ? `${baseUrl}${created.detailPath.replace('{id}', encodeURIComponent(body.id))}`
      : typeof body.uploadUrl === 'string'
        ? body.uploadUrl
        : undefined;
  if (location) result.headers = { ...result.headers, location };
  return result;
};
