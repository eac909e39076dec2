import { createHash } from 'node:crypto';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { readCount } from './counters';
import { type CursorPayload, decodeCursor, encodeCursor } from './cursor';
import { db, tableName } from './dynamo';
import type { SearchTarget } from './entity';
import { InvalidCursor } from './errors';
import { ownedBy } from './keys';

export const RECORDS_PER_PAGE = 25;

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

/** Where a neighbouring page is: its number and, when it can be resumed cheaply, a signed cursor. */
export interface PageLink {
  page: number;
  cursor?: string;
}

export interface Page {
  totalRecords: number;
  /** Index entries of the page, newest first. */
  items: Item[];
  previous: PageLink | null;
  next: PageLink | null;
}

/**
 * One page of a list, newest first. Resuming from a cursor costs one index Query (plus the
 * counter read) whatever the page number; a bare `?page=n` skips (n-1)*25 entries with
 * key-only reads first. The Query asks for one record more than a page to know, without
 * another round trip, whether a next page exists. Builds no URL: http/ turns links into them.
 */
export const listPage = async (req: ListRequest): Promise<Page> => {
  const binding = { t: req.tenantId, r: req.resource, f: filterDigest(req.target) };
  const cursor = req.cursor ? await decodeCursor(req.cursor, binding) : undefined;
  if (cursor && cursor.p !== req.page) throw pageMismatch();

  let total: number;
  let items: Item[];
  let hasMore: boolean;
  if (cursor) {
    [total, { items, hasMore }] = await Promise.all([
      cursor.c ?? count(req),
      queryFrom(req, cursor.d, resumeKey(req, cursor)),
    ]);
  } else if (req.page === 1) {
    [total, { items, hasMore }] = await Promise.all([count(req), queryFrom(req, 'n', undefined)]);
  } else {
    total = await count(req);
    const start = pageStartsWithin(req.page, total) ? await skip(req) : undefined;
    ({ items, hasMore } = start ? await queryFrom(req, 'n', start) : { items: [], hasMore: false });
  }

  const links = pageLinks(req.target.index.sort, req.page, items, hasMore, cursor?.d ?? 'n');
  // A range search's total is counted once, on the page the client started from, and then
  // travels in the cursors: walking its pages costs what walking any list costs.
  const carried = isRange(req) ? { c: total } : {};
  const sign = async (link: LinkPlan, d: 'n' | 'p'): Promise<PageLink> =>
    link.k
      ? {
          page: link.page,
          cursor: await encodeCursor({ ...binding, ...carried, p: link.page, d, k: link.k }),
        }
      : { page: link.page };
  return {
    totalRecords: total,
    items,
    previous: links.previous && (await sign(links.previous, 'p')),
    next: links.next && (await sign(links.next, 'n')),
  };
};

/** A neighbouring page before its cursor is signed: the index position to resume from, if any. */
export interface LinkPlan {
  page: number;
  k?: Position;
}

/** Index sort value, table pk, table sk: where a cursor resumes. */
export type Position = [string, string, string];

/**
 * The links of a page of `items` (newest first) read in `direction`: no previous on page 1, a
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

const isRange = (req: ListRequest) => req.target.sortFrom !== undefined;

/** What a cursor is bound to besides tenant and resource: the index, partition and range start it reads. */
export const filterDigest = (target: SearchTarget): string =>
  createHash('sha256')
    .update(`${target.index.name}\n${target.partition}\n${target.sortFrom ?? ''}`)
    .digest('base64url')
    .slice(0, 22);

/** Exact size of the list: its counter, or for a range search, rangeCount. */
const count = async (req: ListRequest): Promise<number> =>
  isRange(req) ? rangeCount(req) : readCount(req.tenantId, req.target.countName);

/**
 * No counter can hold "entries from X on" for every X, so a range is counted with key-only
 * COUNT queries, from both ends at once, one page each in turn: whichever side ends first gives
 * the answer (inside, or the partition's counter minus outside). Cost: twice the smaller side.
 */
const rangeCount = async (req: ListRequest): Promise<number> => {
  const { KeyConditionExpression: _, ...base } = baseQuery(req);
  const side = (condition: string) => {
    let total = 0;
    let start: Item | undefined;
    let done = false;
    return {
      total: () => total,
      done: () => done,
      step: async () => {
        const out = await db().send(
          new QueryCommand({
            ...base,
            KeyConditionExpression: condition,
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
  const inside = side('#p = :p AND #s >= :from');
  const outside = side('#p = :p AND #s < :from');
  for (;;) {
    await inside.step();
    if (inside.done()) return inside.total();
    await outside.step();
    if (outside.done()) {
      const all = await readCount(req.tenantId, req.target.countName);
      return Math.max(0, all - outside.total());
    }
  }
};

const positionOf = (sortAttribute: string, item: Item | undefined): Position => [
  String(item?.[sortAttribute]),
  String(item?.pk),
  String(item?.sk),
];

/** The ExclusiveStartKey a cursor resumes from; only ever inside the requesting tenant. */
export const resumeKey = (req: Pick<ListRequest, 'tenantId' | 'target'>, cursor: CursorPayload): Item => {
  const [sort, pk, sk] = cursor.k;
  // Defence in depth: even a validly signed cursor can only resume inside this tenant.
  if (!ownedBy(req.tenantId, pk)) throw new InvalidCursor('The cursor belongs to another query.');
  const { index, partition } = req.target;
  return { [index.partition]: partition, [index.sort]: sort, pk, sk };
};

const baseQuery = ({ target: { index, partition, sortFrom } }: ListRequest): QueryCommandInput =>
  sortFrom === undefined
    ? {
        TableName: tableName(),
        IndexName: index.name,
        KeyConditionExpression: '#p = :p',
        ExpressionAttributeNames: { '#p': index.partition },
        ExpressionAttributeValues: { ':p': partition },
      }
    : {
        TableName: tableName(),
        IndexName: index.name,
        KeyConditionExpression: '#p = :p AND #s >= :from',
        ExpressionAttributeNames: { '#p': index.partition, '#s': index.sort },
        ExpressionAttributeValues: { ':p': partition, ':from': sortFrom },
      };

const queryFrom = async (req: ListRequest, direction: 'n' | 'p', start: Item | undefined) => {
  const out = await db().send(
    new QueryCommand({
      ...baseQuery(req),
      ScanIndexForward: direction === 'p',
      Limit: RECORDS_PER_PAGE + 1,
      ExclusiveStartKey: start,
    }),
  );
  const found = out.Items ?? [];
  const hasMore = found.length > RECORDS_PER_PAGE;
  const items = found.slice(0, RECORDS_PER_PAGE);
  return { items: direction === 'p' ? items.reverse() : items, hasMore };
};

/** Key-only walk over the first (page-1)*25 entries; returns where the page starts. */
const skip = async (req: ListRequest): Promise<Item | undefined> => {
  let remaining = (req.page - 1) * RECORDS_PER_PAGE;
  let start: Item | undefined;
  const query = baseQuery(req);
  while (remaining > 0) {
    const out = await db().send(
      new QueryCommand({
        ...query,
        ExpressionAttributeNames: {
          ...query.ExpressionAttributeNames,
          '#s': req.target.index.sort,
          '#pk': 'pk',
          '#sk': 'sk',
        },
        ProjectionExpression: '#p, #s, #pk, #sk',
        ScanIndexForward: false,
        Limit: Math.min(remaining, 1000),
        ExclusiveStartKey: start,
      }),
    );
    remaining -= out.Count ?? 0;
    start = out.LastEvaluatedKey;
    if (!start) return remaining > 0 ? undefined : lastOf(req, out.Items);
  }
  return start;
};

const lastOf = (req: ListRequest, items: Item[] | undefined): Item | undefined => {
  const last = items?.at(-1);
  const { index, partition } = req.target;
  return last && { [index.partition]: partition, [index.sort]: last[index.sort], pk: last.pk, sk: last.sk };
};
