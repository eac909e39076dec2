import { createHash } from 'node:crypto';
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from './dynamo';
import { type Cond, type KeyCond, queryOf } from './expression';
import type { ItemKey } from './keys';
import type { Item } from './pages';
import type { SearchTarget } from './search-targets';
import { TABLE_KEY } from './table-schema';
import type { CountCell } from './write-ops';

/**
 * Where the entries of a paged list live (`PageSource`), the Query that reads them, and what a
 * cursor of theirs is bound to.
 */
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
  /**
   * More partitions of the table read with `partition` as one list, in the same range and order
   * (sort keys unique across them): a ticket's merged tickets' collections (domain/ticket-merge.ts).
   */
  alsoIn?: readonly string[];
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

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

/**
 * What a cursor is bound to besides tenant and resource: the index (by the name of the one it
 * succeeds, if any: both order alike), the partition and the range it reads, and the partitions
 * read with it.
 */
export const sourceDigest = (src: Pick<PageSource, 'index' | 'partition' | 'range' | 'alsoIn'>): string => {
  const range = src.range;
  const index = src.index.succeeds ?? src.index.name;
  if (!range || 'from' in range) return digest(`${index}\n${src.partition}\n${range?.from ?? ''}`);
  // The partitions read with it (a merged ticket's): a merge or unmerge changes the list, and its
  // cursors' carried total with it.
  const also = src.alsoIn?.length ? `\n${src.alsoIn.join(',')}` : '';
  return digest(`${index ?? ''}\n${src.partition}\n^${range.prefix}${also}`);
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
export const baseQuery = (
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
export const forward = (src: PageSource, direction: 'n' | 'p') =>
  (src.order === 'oldest') === (direction === 'n');

/** A source as one source per partition it reads (`alsoIn`): each is read the same way. */
export const partitionsOf = (src: PageSource): PageSource[] =>
  src.alsoIn?.length
    ? [src.partition, ...src.alsoIn].map((partition) => ({ ...src, partition, alsoIn: undefined }))
    : [src];

/** A source's Query returning its index keys and the table's only (what a skip needs). */
export const keysOnly = (src: PageSource): QueryCommandInput =>
  baseQuery(src, {
    project: [...new Set([src.index.partition, src.index.sort, TABLE_KEY.partition, TABLE_KEY.sort])],
  });
