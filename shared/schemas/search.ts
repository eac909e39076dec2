import * as z from 'zod/mini';
import { cursorText, pageNumber } from './list-query';

/**
 * `GET /ticket/search` and `GET /customer/search`: the query in the query language (docs/search.md;
 * parsed by search/query-language.ts, whose errors are 400s naming their position), the order,
 * and the page. 1000 characters at most (QUERY_LIMITS.length).
 */
export const SEARCH_SORTS = ['relevance', 'created', 'updated'] as const;

export const searchQuery = z.strictObject({
  query: z
    .string()
    .check(z.minLength(1, 'must not be empty'), z.maxLength(1000, 'must be at most 1000 characters')),
  sort: z.optional(z.enum(SEARCH_SORTS, `must be one of ${SEARCH_SORTS.join(', ')}`)),
  order: z.optional(z.enum(['asc', 'desc'], 'must be asc or desc')),
  page: z._default(pageNumber, 1),
  cursor: z.optional(cursorText),
});
export type SearchQueryInput = z.output<typeof searchQuery>;
