/**
 * What a page of a list is, for the store and the views alike: its size in records and in bytes,
 * the page a read returns and the links to its neighbours. Reading one: page-read.ts.
 */
export const RECORDS_PER_PAGE = 25;

/**
 * Lambda refuses a response payload over 6 000 000 bytes. A page's records, and a ticket
 * detail's body, may take PAGE_BYTES of it, measured on the JSON they travel as
 * (http/byte-budget.ts); the rest is room for the status, the headers and the list wrapper
 * with its two links (a few KB at most).
 */
const LAMBDA_RESPONSE_BYTES = 6_000_000;
export const PAGE_BYTES = LAMBDA_RESPONSE_BYTES - 100_000;

export type Item = Record<string, unknown>;

/** Where a neighbouring page is: its number and, when it can be resumed cheaply, a signed cursor. */
export interface PageLink {
  page: number;
  cursor?: string;
}

interface PageLinks {
  previous: PageLink | null;
  next: PageLink | null;
}

/**
 * Up to RECORDS_PER_PAGE entries in page order, and the links of the page once it is settled how
 * many of them it returns: a byte budget may keep fewer (never none of a non-empty page).
 * Reading on, it keeps the first ones; walking back, the last ones (those next to the page the
 * walk came from), so that either way the links continue exactly after what was returned.
 */
export interface Page<T = Item> {
  totalRecords: number;
  items: T[];
  keep: 'first' | 'last';
  links: (kept: number) => Promise<PageLinks>;
  /** What `fetch` asked for and exists, by `pk\nsk`. */
  fetched: ReadonlyMap<string, Item>;
}

export interface Read {
  /** At most a page of entries, in page order. */
  items: Item[];
  /** More entries follow them in the direction read. */
  hasMore: boolean;
}
