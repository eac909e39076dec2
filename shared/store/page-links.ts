import { type Item, RECORDS_PER_PAGE, type Read } from './pages';

/** The links of a page to its neighbours: page numbers, and the positions their cursors resume from. */
/**
 * The links of a page that returns `count` of the entries read (at least one of a non-empty
 * page): the first ones reading on, the last ones walking back. Entries read but not returned
 * lie beyond the page, so reading on, the next page starts right after the last one returned.
 */
export const keptLinks = (
  sortAttribute: string,
  page: number,
  read: Read,
  direction: 'n' | 'p',
  count: number,
): { previous: LinkPlan | null; next: LinkPlan | null } => {
  const { items, hasMore } = read;
  const kept = items.length === 0 ? 0 : Math.min(items.length, Math.max(1, count));
  const shown = direction === 'n' ? items.slice(0, kept) : items.slice(items.length - kept);
  return pageLinks(sortAttribute, page, shown, hasMore || kept < items.length, direction);
};

/** A neighbouring page before its cursor is signed: the index position to resume from, if any. */
export interface LinkPlan {
  page: number;
  k?: Position;
}

/** Index sort value, table pk, table sk: where a cursor resumes. */
export type Position = [string, string, string];

/**
 * The links of a page of `items` (in page order) read in `direction`: no previous on page 1, a
 * bare previous page number on page 2 or on an empty page, else a cursor from the first
 * record; a next page with a cursor from the last record when more records follow (walking
 * backwards, "more" meant newer records, so a next page always exists then).
 */
export const pageLinks = (
  sortAttribute: string,
  page: number,
  items: Item[],
  hasMore: boolean,
  direction: 'n' | 'p',
): { previous: LinkPlan | null; next: LinkPlan | null } => {
  const first = items[0];
  const previous =
    page === 1
      ? null
      : page === 2 || !first
        ? { page: page - 1 }
        : { page: page - 1, k: positionOf(sortAttribute, first) };
  const next =
    items.length > 0 && (direction === 'p' || hasMore)
      ? { page: page + 1, k: positionOf(sortAttribute, items.at(-1)) }
      : null;
  return { previous, next };
};

/** A bare `?page=n` past the end of the list is empty without reading any entry. */
export const pageStartsWithin = (page: number, total: number): boolean =>
  (page - 1) * RECORDS_PER_PAGE < total;

export const positionOf = (sortAttribute: string, item: Item | undefined): Position => [
  String(item?.[sortAttribute]),
  String(item?.pk),
  String(item?.sk),
];
