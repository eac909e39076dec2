import type { PageView } from '../../schemas/views';
import { PAGE_BYTES, type Page, type PageLink, RECORDS_PER_PAGE } from '../../store/pages';
import { arrayBudget, payloadBound, payloadBytes } from '../byte-budget';

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
): PageView<T> => ({
  totalRecords: page.totalRecords,
  recordsPerPage: RECORDS_PER_PAGE,
  previousQuery: page.previous ? pageUrl(listUrl, filter, page.previous) : null,
  nextQuery: page.next ? pageUrl(listUrl, filter, page.next) : null,
  records,
});

/**
 * The wrapper of a page read from the store: its records as `view` shows them, as many whole
 * records as fit in PAGE_BYTES of the response (at least one), and links that continue exactly
 * after the last record returned. Records are built in the order the page keeps them (the first
 * ones reading on, the last ones walking back) and no further than the first that does not fit:
 * a record built on demand (a ticket's detail finished only if the page reaches it) costs nothing
 * beyond it. An entry whose record vanished between the index read and the record read
 * (`undefined`) is skipped.
 */
export const pageResponse = async <T, V extends object>(
  page: Page<T | undefined>,
  view: (item: T) => V | Promise<V>,
  listUrl: string,
  filter: Record<string, string>,
): Promise<PageView<V>> => {
  const inOrder = page.keep === 'first' ? page.items : [...page.items].reverse();
  const fits = arrayBudget(PAGE_BYTES, 1);
  const kept: (V | undefined)[] = [];
  // While the records' upper bounds (byte-budget.ts `payloadBound`) fit, their exact sizes would:
  // they are measured exactly only from the first record whose bound passes the budget on.
  let bound = 0;
  let exact = false;
  const size = (record: V | undefined) => (record === undefined ? 0 : payloadBytes(record));
  for (const item of inOrder) {
    const record = item === undefined ? undefined : await view(item);
    if (!exact) {
      bound += (record === undefined ? 0 : payloadBound(record)) + 1;
      if (bound <= PAGE_BYTES) {
        kept.push(record);
        continue;
      }
      exact = true;
      for (const earlier of kept) fits(size(earlier));
    }
    if (!fits(size(record))) break;
    kept.push(record);
  }
  const links = await page.links(kept.length);
  const shown = page.keep === 'first' ? kept : kept.reverse();
  return pageView(
    { totalRecords: page.totalRecords, ...links },
    shown.filter((v): v is V => v !== undefined),
    listUrl,
    filter,
  );
};
