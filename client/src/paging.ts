/** The list wrapper's content: one page of records and the addresses of its neighbours. */
export interface PageLike<R> {
  totalRecords: number;
  recordsPerPage: number;
  previousQuery: string | null;
  nextQuery: string | null;
  records: R[];
}

/**
 * Every record of a list or search, page after page, as `for await (const r of list)`; `pages()`
 * gives the pages themselves (with `totalRecords`). Nothing is requested before iteration
 * starts, and each iteration starts again from the first page.
 */
export interface Paged<R, P = PageLike<R>> extends AsyncIterable<R> {
  pages(): AsyncIterable<P>;
}

/**
 * The query of the page a `nextQuery` names. It is an absolute address built by the server
 * (its host may be a proxy's or a custom domain's): only its path and query count, and the
 * path, less the base URL's own path, must be the list's.
 */
export const followQuery = (nextQuery: string, baseUrl: string, listPath: string): Record<string, string> => {
  const base = new URL(baseUrl);
  const next = new URL(nextQuery, base);
  const basePath = base.pathname.replace(/\/+$/, '');
  let path = next.pathname;
  if (basePath && path.startsWith(`${basePath}/`)) path = path.slice(basePath.length);
  if (decodeURIComponent(path) !== listPath) {
    throw new Error(`nextQuery ${nextQuery} does not continue ${listPath}`);
  }
  return Object.fromEntries(next.searchParams);
};

export const paged = <R, P extends PageLike<R>>(
  fetchPage: (query: Record<string, string> | undefined) => Promise<P>,
  follow: (nextQuery: string) => Record<string, string>,
): Paged<R, P> => {
  async function* pages(): AsyncGenerator<P> {
    let page = await fetchPage(undefined);
    for (;;) {
      yield page;
      if (!page.nextQuery) return;
      page = await fetchPage(follow(page.nextQuery));
    }
  }
  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.records;
    },
  };
};
