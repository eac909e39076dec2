import type { ListView } from '../schemas/list-query';

/**
 * A validated list query (schemas/list-query.ts) as the store takes it, and the filter that
 * page links keep (the search as the client sent it).
 */
export interface ListQuery {
  page: number;
  cursor?: string;
  /** The one search of this request, its value normalised for the index. */
  search?: { param: string; value: string };
}

/**
 * The parsed query as the store takes it, the view it asks for (when it names one), and the
 * filter that page links keep: the search and the view, as the client sent them (so following
 * `nextQuery` keeps reading the same records in the same shape).
 */
export const listRequest = (
  query: { page: number; cursor?: string; view?: ListView } & Record<string, unknown>,
  raw: Record<string, string | undefined>,
): { query: ListQuery; filter: Record<string, string>; view?: ListView } => {
  const { page: p, cursor: c, view, ...rest } = query;
  const found = Object.entries(rest).find(([, value]) => value !== undefined);
  const search = found ? { param: found[0], value: String(found[1]) } : undefined;
  return {
    query: { page: p, ...(c ? { cursor: c } : {}), ...(search ? { search } : {}) },
    filter: {
      ...(search ? { [search.param]: raw[search.param] as string } : {}),
      ...(view ? { view: raw.view as string } : {}),
    },
    ...(view ? { view } : {}),
  };
};
