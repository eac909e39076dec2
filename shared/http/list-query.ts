import { badRequest } from './errors';

export interface ListQuery {
  page: number;
  cursor?: string;
  /** The one search parameter of this request, if any: [name, value]. */
  search?: [string, string];
}

const PAGE = /^[1-9]\d{0,6}$/;

/**
 * `page` (integer >= 1), `cursor` (from nextQuery / previousQuery) and at most one search
 * parameter among those the resource indexes. Anything else is a 400 that names it.
 */
export const parseListQuery = (query: Record<string, string>, searchable: readonly string[]): ListQuery => {
  const { page = '1', cursor, ...rest } = query;
  if (!PAGE.test(page)) {
    throw badRequest('page must be an integer from 1 to 9999999.', [
      { path: 'page', message: 'invalid page' },
    ]);
  }
  const unknown = Object.keys(rest).filter((name) => !searchable.includes(name));
  if (unknown.length > 0) {
    const allowed = searchable.length ? searchable.join(', ') : 'none';
    throw badRequest(
      `Unknown search field: ${unknown.join(', ')}. Searchable: ${allowed}.`,
      unknown.map((path) => ({ path, message: 'unknown search field' })),
    );
  }
  const terms = Object.entries(rest);
  if (terms.length > 1) throw badRequest('Search by one field at a time.');
  const search = terms[0];
  if (search && (search[1].length === 0 || search[1].length > 500)) {
    throw badRequest(`${search[0]} must be 1 to 500 characters.`, [
      { path: search[0], message: 'invalid value' },
    ]);
  }
  if (cursor !== undefined && cursor.length === 0) throw badRequest('cursor must not be empty.');
  return { page: Number(page), ...(cursor ? { cursor } : {}), ...(search ? { search } : {}) };
};
