import { createHash } from 'node:crypto';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { getMany } from './batch-get';
import { cellKeys, readCells, sumCells } from './counters';
import { type CursorPayload, decodeCursor, encodeCursor } from './cursor';
import { db, tableName } from './dynamo';
import { InvalidCursor } from './errors';
import { type Cond, type KeyCond, queryOf } from './expression';
import { type ItemKey, ownedBy } from './keys';
import type { GuardTarget, SearchTarget } from './search-targets';
import { TABLE_KEY } from './table-schema';
import { type CountCell, itemId } from './write-ops';

export const RECORDS_PER_PAGE = 25;

/**
 * Lambda refuses a response payload over 6 000 000 bytes. A page's records, and a ticket
 * detail's body, may take PAGE_BYTES of it, measured on the JSON they travel as
 * (http/byte-budget.ts); the rest is room for the status, the headers and the list wrapper
 * with its two links (a few KB at most).
 */
export const LAMBDA_RESPONSE_BYTES = 6_000_000;
export const PAGE_BYTES = LAMBDA_RESPONSE_BYTES - 100_000;

type Item = Record<string, unknown>;

export interface ListRequest {
  tenantId: string;
  /** Resource name, part of what a cursor is bound to. */
  resource: string;
  /** The index partition (and range) holding exactly the records of this list, and its counter. */
  target: SearchTarget;
  page: number;
  cursor?: string;
}

/**
 * Where the entries of a paged list live: one partition of the table or of an index, or the
 * part of it from a sort value on (range searches) or with a sort-key prefix (one kind of item
 * in a ticket's collection), in one order.
 */
export interface PageSource {
  tenantId: string;
  /** Resource name, part of what a cursor is bound to. */
  resource: string;
  /** The index read (no name: the table itself) and its key attributes. */
  index: { name?: string; partition: string; sort: string; succeeds?: string };
  partition: string;
  range?: { from: string } | { prefix: string };
  /** `newest`: page 1 starts at the greatest sort value; `oldest`: at the least. */
  order: 'newest' | 'oldest';
  /** Strongly consistent reads (the table only). */
  consistent?: boolean;
  /**
   * Only entries matching this condition. A Query's Limit counts entries before the filter, so
   * each further Query of a page asks for twice as many.
   */
  filter?: Cond;
  /**
   * The exact number of entries: the sum of counter cells, read in the page's BatchGetItem (with
   * what `fetch` asks for), or counted by a function (queries, a parent item).
   */
  count: { cells: readonly CountCell[] } | { by: () => Promise<number> } | { entries: true };
  /** Counted once, on the page a client starts from, then carried in the cursors. */
  carryCount?: boolean;
  /**
   * Items to read with the count in the page's one BatchGetItem, given the entries read: the
   * records behind key-only entries, the records they point at. Found ones come back in
   * `Page.fetched`. Called once, as soon as the entries are read and before the BatchGetItem is
   * sent: reads started there run alongside it (store/ticket-detail-page.ts).
   */
  fetch?: (entries: Item[]) => ItemKey[];
  /**
   * Sources with small entries whose union is exactly this one, in the same order (same sort
   * values): a bare `?page=n` skips through them instead (store/entity.ts `coveredBy`).
   */
  skipVia?: PageSource[];
}

/** Where a neighbouring page is: its number and, when it can be resumed cheaply, a signed cursor. */
export interface PageLink {
  page: number;
  cursor?: string;
}

export interface PageLinks {
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

/** A page of an index-served list (every record of a kind, or one search), newest first. */
export const listPage = (req: ListRequest, fetch?: PageSource['fetch']): Promise<Page> =>
  pageOf({ ...listSource(req), ...(fetch ? { fetch } : {}) }, req.page, req.cursor);

/** A list request as a source: its counter cells, or for a range search, its total counted and carried. */
export const listSource = (req: Pick<ListRequest, 'tenantId' | 'resource' | 'target'>): PageSource => {
  const { index, partition, sortFrom, count } = req.target;
  const source: PageSource = {
    tenantId: req.tenantId,
    resource: req.resource,
    index,
    partition,
    ...(sortFrom === undefined ? {} : { range: { from: sortFrom } }),
    order: 'newest',
    count:
      sortFrom !== undefined
        ? { by: () => rangeCount(source, count) }
        : req.target.countEntries
          ? { entries: true }
          : { cells: count },
    carryCount: sortFrom !== undefined || req.target.countEntries === true,
    ...(req.target.coveredBy
      ? { skipVia: req.target.coveredBy.map((target) => listSource({ ...req, target })) }
      : {}),
  };
  return source;
};

/**
 * One page of a source, in two requests whatever the page number: the Query of its entries
 * (one per MB of entries read; one for records of ordinary size), then one BatchGetItem of its
 * count cells and of what `fetch` asks for given the entries (sent alongside the Query when
 * there is nothing to fetch). A bare `?page=n` reads the count first, then skips (n-1)*25
 * entries with key-only reads. The read asks for one entry more than a page, to know without
 * another round trip whether a next page exists, and follows DynamoDB's 1 MB pages until it has
 * them, or until the entries read cannot all fit in PAGE_BYTES anyway. Builds no URL: http/
 * turns links into them.
 */
export const pageOf = async (src: PageSource, page: number, cursorText?: string): Promise<Page> => {
  const binding = { t: src.tenantId, r: src.resource, f: sourceDigest(src) };
  const cursor = cursorText ? await decodeCursor(cursorText, binding) : undefined;
  if (cursor && cursor.p !== page) throw pageMismatch();

  const cells = 'cells' in src.count ? src.count.cells : [];
  const fetchKeys = (items: Item[]) => src.fetch?.(items) ?? [];
  let total: number | undefined = cursor?.c;
  // A count that is not in cells is made alongside the read, but for a first page of a count that
  // travels in cursors (a range, a ticket's notes): one that reads every entry counts them itself.
  const selfCounting = src.carryCount === true && !cursor && page === 1;
  const counting = total === undefined && 'by' in src.count && !selfCounting ? src.count.by() : undefined;
  // Awaited once the read is done; a failure (the ticket is gone) is thrown there, not lost now.
  counting?.catch(() => undefined);
  let read: Read;
  let fetched: ReadonlyMap<string, Item>;
  if (cursor || page === 1) {
    const reading = readFrom(src, cursor?.d ?? 'n', cursor ? startKey(src, cursor.k) : undefined);
    const counted = total === undefined ? cellKeys(cells) : [];
    if (!src.fetch && counted.length > 0) {
      [read, fetched] = await Promise.all([reading, getMany(counted)]);
    } else {
      read = await reading;
      fetched = await getMany([...counted, ...fetchKeys(read.items)]);
    }
    if (total === undefined && selfCounting && !read.hasMore) total = read.items.length;
    if (total === undefined && 'entries' in src.count) total = await countEntries(src);
    if (total === undefined && selfCounting && 'by' in src.count) total = await src.count.by();
    total ??= counting ? await counting : sumCells(cells, fetched);
  } else {
    total = counting
      ? await counting
      : 'entries' in src.count
        ? await countEntries(src)
        : await readCells(cells);
    const start = pageStartsWithin(page, total)
      ? await skipThrough(src, src.skipVia ?? [src], page)
      : undefined;
    read = start ? await readFrom(src, 'n', start) : { items: [], hasMore: false };
    fetched = await getMany(fetchKeys(read.items));
  }
  const totalRecords = total;

  const direction = cursor?.d ?? 'n';
  // A carried total is counted once, on the page the client started from, and then travels in
  // the cursors: walking its pages costs what walking any list costs.
  const carried = src.carryCount ? { c: totalRecords } : {};
  const sign = async (link: LinkPlan, d: 'n' | 'p'): Promise<PageLink> =>
    link.k
      ? {
          page: link.page,
          cursor: await encodeCursor({ ...binding, ...carried, p: link.page, d, k: link.k }),
        }
      : { page: link.page };
  return {
    totalRecords,
    fetched,
    items: read.items,
    keep: direction === 'n' ? 'first' : 'last',
    links: async (count) => {
      const links = keptLinks(src.index.sort, page, read, direction, count);
      return {
        previous: links.previous && (await sign(links.previous, 'p')),
        next: links.next && (await sign(links.next, 'n')),
      };
    },
  };
};

/**
 * The page of a search served by a unique guard (store/entity.ts `GuardSearch`), in two
 * requests: one BatchGetItem of the guard, then, when there is one, one of the record its
 * `ownerId` names. It holds that record or none: `totalRecords` is what was found, a later
 * page is empty past the end (a bare previous link, as `pageLinks` gives any list past its
 * end), and no page has a next one, so no cursor leads to any of its pages.
 * Both reads are eventually consistent, as an index-served search page is (an index can only
 * be read so): the same freshness as the slot it replaces, at half the read units of consistent
 * reads. A record whose value has moved on by the time it is read is not shown.
 */
export const guardPage = async (target: GuardTarget, page: number, cursorText?: string): Promise<Page> => {
  if (cursorText) throw new InvalidCursor('The cursor belongs to another query.');
  const guard = (await getMany([target.guard])).get(itemId(target.guard));
  const owner = typeof guard?.ownerId === 'string' ? target.owner(guard.ownerId) : undefined;
  const record = owner && (await getMany([owner])).get(itemId(owner));
  const found = record && target.holds(record) ? [record] : [];
  const items = page === 1 ? found : [];
  return {
    totalRecords: found.length,
    items,
    keep: 'first',
    fetched: new Map(),
    links: async () => ({ previous: page === 1 ? null : { page: page - 1 }, next: null }),
  };
};

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

// The cursor already says which page it leads to; a different page number is a client bug.
const pageMismatch = () => new InvalidCursor('The page parameter does not match the cursor.');

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

/**
 * What a cursor is bound to besides tenant and resource: the index (by the name of the one it
 * succeeds, if any: both order alike), the partition and the range it reads.
 */
const sourceDigest = (src: Pick<PageSource, 'index' | 'partition' | 'range'>): string => {
  const range = src.range;
  const index = src.index.succeeds ?? src.index.name;
  if (!range || 'from' in range) return digest(`${index}\n${src.partition}\n${range?.from ?? ''}`);
  return digest(`${index ?? ''}\n${src.partition}\n^${range.prefix}`);
};

/** The binding of a list request's cursors (what sourceDigest makes of its source). */
export const filterDigest = (target: SearchTarget): string =>
  sourceDigest({
    index: target.index,
    partition: target.partition,
    ...(target.sortFrom === undefined ? {} : { range: { from: target.sortFrom } }),
  });

/**
 * The Query reading a source: its partition and range (`sort` instead: a count of what lies
 * before a range), its filter, and with `project`, only those attributes.
 */
const baseQuery = (
  src: PageSource,
  options: { sort?: KeyCond['sort']; project?: readonly string[] } = {},
): QueryCommandInput => {
  const range = src.range;
  const sort: KeyCond['sort'] =
    options.sort ??
    (!range
      ? undefined
      : 'from' in range
        ? { ge: [src.index.sort, range.from] }
        : { beginsWith: [src.index.sort, range.prefix] });
  return {
    TableName: tableName(),
    ...(src.index.name ? { IndexName: src.index.name } : {}),
    ...(src.consistent ? { ConsistentRead: true } : {}),
    ...queryOf(
      { partition: [src.index.partition, src.partition], ...(sort ? { sort } : {}) },
      {
        ...(src.filter ? { filter: src.filter } : {}),
        ...(options.project ? { project: options.project } : {}),
      },
    ),
  };
};

/** Reading on (`n`) follows the source's order; walking back (`p`) goes against it. */
const forward = (src: PageSource, direction: 'n' | 'p') => (src.order === 'oldest') === (direction === 'n');

/**
 * No counter can hold "entries from X on" for every X, so a range is counted with key-only
 * COUNT queries, from both ends at once, one page each in turn: whichever side ends first gives
 * the answer (inside, or the partition's counter minus outside). Cost: twice the smaller side.
 * Each COUNT query stops at 1 MB of entries read; every side follows LastEvaluatedKey to its end.
 */
const rangeCount = async (src: PageSource, all: readonly CountCell[]): Promise<number> => {
  if (!src.range || !('from' in src.range)) throw new Error('rangeCount counts a range from a sort value');
  const inside = counting(baseQuery(src));
  const outside = counting(baseQuery(src, { sort: { lt: [src.index.sort, src.range.from] } }));
  for (;;) {
    await inside.step();
    if (inside.done()) return inside.total();
    await outside.step();
    if (outside.done()) return Math.max(0, (await readCells(all)) - outside.total());
  }
};

/** Every entry of a source, counted with key-only COUNT queries (one per MB of entries). */
export const countEntries = async (src: PageSource): Promise<number> => {
  const all = counting(baseQuery(src));
  while (!all.done()) await all.step();
  return all.total();
};

const counting = (query: QueryCommandInput) => {
  let total = 0;
  let start: Item | undefined;
  let done = false;
  return {
    total: () => total,
    done: () => done,
    step: async () => {
      const out = await db().send(
        new QueryCommand({
          ...query,
          Select: 'COUNT',
          ExclusiveStartKey: start,
        }),
      );
      total += out.Count ?? 0;
      start = out.LastEvaluatedKey;
      done = !start;
    },
  };
};

const positionOf = (sortAttribute: string, item: Item | undefined): Position => [
  String(item?.[sortAttribute]),
  String(item?.pk),
  String(item?.sk),
];

/** The ExclusiveStartKey a cursor resumes from; only ever inside the requesting tenant. */
export const resumeKey = (req: Pick<ListRequest, 'tenantId' | 'target'>, cursor: CursorPayload): Item =>
  startKey(listSource({ ...req, resource: '' }), cursor.k);

const startKey = (src: PageSource, [sort, pk, sk]: Position): Item => {
  // Defence in depth: even a validly signed cursor can only resume inside this tenant, and on
  // the table, inside the partition it reads.
  if (!ownedBy(src.tenantId, pk) || (!src.index.name && pk !== src.partition))
    throw new InvalidCursor('The cursor belongs to another query.');
  return { [src.index.partition]: src.partition, [src.index.sort]: sort, pk, sk };
};

/**
 * What an entry will at least take in a response: its JSON less what the views never show
 * (keys, index attributes, version; a few hundred bytes each, 4 KB allowed). The escaping of a
 * response only adds to it, and references only grow when expanded.
 */
const STORE_ONLY_BYTES = 4096;
export const leastResponseBytes = (item: Item): number =>
  Math.max(0, Buffer.byteLength(JSON.stringify(item), 'utf8') - STORE_ONLY_BYTES);

export interface Read {
  /** At most a page of entries, in page order. */
  items: Item[];
  /** More entries follow them in the direction read. */
  hasMore: boolean;
}

/**
 * A page of entries from `start` in `direction`, and whether more follow. A Query returns at
 * most 1 MB, so one read may take several: it goes on until it has a page and one more entry,
 * the source ends, or the entries read already pass PAGE_BYTES (a response could not carry them
 * all, so the page ends among them whatever follows). Each Query asks only for what is missing.
 */
const readFrom = async (src: PageSource, direction: 'n' | 'p', start: Item | undefined): Promise<Read> => {
  const found: Item[] = [];
  let from = start;
  let bytes = 0;
  // A Limit counts entries read before a filter: when some did not match, ask for twice as many.
  let widen = 1;
  do {
    const out = await db().send(
      new QueryCommand({
        ...baseQuery(src),
        ScanIndexForward: forward(src, direction),
        Limit: (RECORDS_PER_PAGE + 1 - found.length) * widen,
        ExclusiveStartKey: from,
      }),
    );
    if (src.filter) widen *= 2;
    for (const item of out.Items ?? []) {
      found.push(item);
      bytes += leastResponseBytes(item);
    }
    from = out.LastEvaluatedKey;
  } while (from && found.length <= RECORDS_PER_PAGE && bytes <= PAGE_BYTES);
  // Entries past the page and its look-ahead are dropped: links resume from the entries kept.
  const items = found.slice(0, RECORDS_PER_PAGE);
  return {
    items: direction === 'p' ? items.reverse() : items,
    hasMore: found.length > RECORDS_PER_PAGE || from !== undefined,
  };
};

/**
 * Skips the first (page-1)*25 entries of `src` and returns where its page starts (a position in
 * `src`), or undefined when the list ends first. It walks `streams`: the source itself, or
 * sources with small entries that together hold exactly its entries in its order (`skipVia`),
 * merged. Each is read key-only, a chunk at a time (about an equal share of what is left to
 * skip, at most 1000: one Query per MB of entries either way), always taking the head that
 * comes first in the list's order. A filter reads more entries than it keeps: the walk goes on
 * until enough matched.
 */
const skipThrough = async (
  src: PageSource,
  streams: PageSource[],
  page: number,
): Promise<Item | undefined> => {
  let remaining = (page - 1) * RECORDS_PER_PAGE;
  const state = streams.map((stream) => ({
    stream,
    entries: [] as Item[],
    at: 0,
    from: undefined as Item | undefined,
    done: false,
  }));
  const sortOf = (entry: Item, stream: PageSource) => String(entry[stream.index.sort]);
  const before = (a: string, b: string) => (src.order === 'newest' ? a > b : a < b);
  let last: { entry: Item; stream: PageSource } | undefined;
  while (remaining > 0) {
    const chunk = Math.min(1000, Math.max(RECORDS_PER_PAGE, Math.ceil(remaining / streams.length)));
    await Promise.all(
      state
        .filter((s) => s.at === s.entries.length && !s.done)
        .map(async (s) => {
          const out = await db().send(
            new QueryCommand({
              ...keysOnly(s.stream),
              ScanIndexForward: forward(s.stream, 'n'),
              Limit: chunk,
              ExclusiveStartKey: s.from,
            }),
          );
          s.entries = out.Items ?? [];
          s.at = 0;
          s.from = out.LastEvaluatedKey;
          s.done = !s.from;
        }),
    );
    const heads = state.filter((s) => s.at < s.entries.length);
    if (heads.length === 0) return undefined;
    const first = heads.reduce((a, b) =>
      before(sortOf(b.entries[b.at] as Item, b.stream), sortOf(a.entries[a.at] as Item, a.stream)) ? b : a,
    );
    last = { entry: first.entries[first.at++] as Item, stream: first.stream };
    remaining--;
  }
  if (!last) return undefined;
  return {
    [src.index.partition]: src.partition,
    [src.index.sort]: sortOf(last.entry, last.stream),
    pk: last.entry.pk,
    sk: last.entry.sk,
  };
};

/** A source's Query returning its index keys and the table's only (what a skip needs). */
const keysOnly = (src: PageSource): QueryCommandInput =>
  baseQuery(src, {
    project: [...new Set([src.index.partition, src.index.sort, TABLE_KEY.partition, TABLE_KEY.sort])],
  });
