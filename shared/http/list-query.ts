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

/** The parsed query as the store takes it, and the filter (as the client sent it) that page links keep. */
export const listRequest = (
  query: { page: number; cursor?: string } & Record<string, unknown>,
  raw: Record<string, string | undefined>,
): { query: ListQuery; filter: Record<string, string> } => {
  const { page: p, cursor: c, ...rest } = query;
  const found = Object.entries(rest).find(([, value]) => value !== undefined);
  const search = found ? { param: found[0], value: String(found[1]) } : undefined;
  return {
    query: { page: p, ...(c ? { cursor: c } : {}), ...(search ? { search } : {}) },
    filter: search ? { [search.param]: raw[search.param] as string } : {},
  };
};
