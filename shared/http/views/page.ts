import type { PageLink } from '../../store/pages';
import { RECORDS_PER_PAGE } from '../../store/pages';

/**
 * The list wrapper of the seed: `{ totalRecords, recordsPerPage, previousQuery, nextQuery, records }`.
 * `nextQuery` / `previousQuery` are absolute URLs that keep the search parameters (as the client
 * sent them) and carry the page's signed cursor.
 */
export const pageUrl = (listUrl: string, filter: Record<string, string>, link: PageLink): string => {
  const params = new URLSearchParams(filter);
  params.set('page', String(link.page));
  if (link.cursor) params.set('cursor', link.cursor);
  return `${listUrl}?${params.toString()}`;
};

export const pageView = <T>(
  page: { totalRecords: number; previous: PageLink | null; next: PageLink | null },
  records: T[],
  listUrl: string,
  filter: Record<string, string>,
) => ({
  totalRecords: page.totalRecords,
  recordsPerPage: RECORDS_PER_PAGE,
  previousQuery: page.previous ? pageUrl(listUrl, filter, page.previous) : null,
  nextQuery: page.next ? pageUrl(listUrl, filter, page.next) : null,
  records,
});
