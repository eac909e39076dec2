import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from './batch-get';
import { cellKeys, readCells, sumCells } from './counters';
import { type CursorPayload, decodeCursor, encodeCursor } from './cursor';
import { db } from './dynamo';
import { InvalidCursor } from './errors';
import { ownedBy } from './keys';
import { countEntries, rangeCount } from './page-count';
import { keptLinks, type LinkPlan, type Position, pageStartsWithin } from './page-links';
import {
  baseQuery,
  forward,
  keysOnly,
  type ListRequest,
  type PageSource,
  partitionsOf,
  sourceDigest,
} from './page-source';
import { type Item, PAGE_BYTES, type Page, type PageLink, RECORDS_PER_PAGE, type Read } from './pages';
import type { GuardTarget } from './search-targets';
import { itemId } from './write-ops';

/**
 * Reading one page of a source: its entries from where a signed cursor or a page number says, its
 * exact count, what it fetches besides, and its links (page-links.ts) signed into cursors.
 */
/** A page of an index-served list (every record of a kind, or one search), newest first. */
export const listPage = (req: ListRequest, fetch?: PageSource['fetch']): Promise<Page> =>
  pageOf({ ...listSource(req), ...(fetch ? { fetch } : {}) }, req.page, req.cursor);

/** A list request as a source: its counter cells, or for a range search, its total counted and carried. */
const listSource = (req: Pick<ListRequest, 'tenantId' | 'resource' | 'target'>): PageSource => {
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
      ? await skipThrough(src, src.skipVia ?? partitionsOf(src), page)
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

// The cursor already says which page it leads to; a different page number is a client bug.
const pageMismatch = () => new InvalidCursor('The page parameter does not match the cursor.');

/** The ExclusiveStartKey a cursor resumes from; only ever inside the requesting tenant. */
export const resumeKey = (req: Pick<ListRequest, 'tenantId' | 'target'>, cursor: CursorPayload): Item =>
  startKey(listSource({ ...req, resource: '' }), cursor.k);

const startKey = (src: PageSource, [sort, pk, sk]: Position): Item => {
  // Defence in depth: even a validly signed cursor can only resume inside this tenant, and on
  // the table, inside the partition it reads.
  if (!ownedBy(src.tenantId, pk) || (!src.index.name && pk !== src.partition && !src.alsoIn?.includes(pk)))
    throw new InvalidCursor('The cursor belongs to another query.');
  return { [src.index.partition]: src.partition, [src.index.sort]: sort, pk, sk };
};

/**
 * What an entry will at least take in a response: its JSON less what the views never show
 * (keys, index attributes, version; a few hundred bytes each, 4 KB allowed). The escaping of a
 * response only adds to it, and references only grow when expanded.
 */
const STORE_ONLY_BYTES = 4096;
const leastResponseBytes = (item: Item): number =>
  Math.max(0, Buffer.byteLength(JSON.stringify(item), 'utf8') - STORE_ONLY_BYTES);

/**
 * A page of entries from `start` in `direction`, and whether more follow. A Query returns at
 * most 1 MB, so one read may take several: it goes on until it has a page and one more entry,
 * the source ends, or the entries read already pass PAGE_BYTES (a response could not carry them
 * all, so the page ends among them whatever follows). Each Query asks only for what is missing.
 */
const readFrom = async (src: PageSource, direction: 'n' | 'p', start: Item | undefined): Promise<Read> =>
  src.alsoIn?.length ? readMerged(src, direction, start) : readOne(src, direction, start);

/**
 * A page from several partitions read as one list (`alsoIn`; on the table): each read from the
 * same sort key on, in parallel, and their entries merged in the list's order. The page is within
 * the first page of each, so more follow when any had more or together they passed a page.
 */
const readMerged = async (src: PageSource, direction: 'n' | 'p', start: Item | undefined): Promise<Read> => {
  const sort = src.index.sort;
  const reads = await Promise.all(
    partitionsOf(src).map((part) =>
      readOne(part, direction, start && { ...start, [src.index.partition]: part.partition }),
    ),
  );
  const ascending = src.order === 'oldest';
  const all = reads
    .flatMap((r) => r.items)
    .sort((a, b) => {
      const [x, y] = [String(a[sort]), String(b[sort])];
      return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
    });
  // In page order: reading on, the page is the first entries; walking back, the last ones.
  const items = direction === 'n' ? all.slice(0, RECORDS_PER_PAGE) : all.slice(-RECORDS_PER_PAGE);
  return { items, hasMore: all.length > RECORDS_PER_PAGE || reads.some((r) => r.hasMore) };
};

const readOne = async (src: PageSource, direction: 'n' | 'p', start: Item | undefined): Promise<Read> => {
  const found: Item[] = [];
  let from = start;
  let bytes = 0;
  let measured = 0;
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
    for (const item of out.Items ?? []) found.push(item);
    from = out.LastEvaluatedKey;
    // Sizes matter only when the Query stopped at its 1 MB short of a page (rare): measured then.
    if (from && found.length <= RECORDS_PER_PAGE)
      for (; measured < found.length; measured++) bytes += leastResponseBytes(found[measured] as Item);
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
