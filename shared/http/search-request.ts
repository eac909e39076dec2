import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { SearchQueryInput } from '../schemas/search';
import type { SearchRequest } from '../search/search-reads';

/**
 * What a search route reads of its request (docs/search.md): the query, order and page; the
 * parameters its page links keep, as the client sent them; and `Helpdesk-Min-Position`.
 */
export const searchRequest = (
  query: SearchQueryInput,
  raw: Record<string, string | undefined>,
  event: APIGatewayProxyEventV2,
): { request: SearchRequest; filter: Record<string, string>; minPosition: string | undefined } => ({
  request: {
    query: query.query,
    page: query.page,
    ...(query.sort ? { sort: query.sort } : {}),
    ...(query.order ? { order: query.order } : {}),
    ...(query.cursor ? { cursor: query.cursor } : {}),
  },
  filter: Object.fromEntries(
    (['query', 'sort', 'order'] as const).flatMap((name) =>
      raw[name] === undefined ? [] : [[name, raw[name]]],
    ),
  ),
  minPosition: event.headers['helpdesk-min-position'],
});
