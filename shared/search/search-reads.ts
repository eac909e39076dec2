import { decodeCursor, encodeCursor } from '../store/cursor';
import { InvalidCursor, InvalidInput } from '../store/errors';
import { type PageLink, RECORDS_PER_PAGE } from '../store/pages';
import { CONFIG_ROWS, compileQuery, type FilterColumns, SqlParams, UnsupportedFilter } from './compile';
import { MARK_END, MARK_START } from './documents';
import { parseQuery, QuerySyntaxError } from './query-language';
import type { SqlEngine } from './sql-engine';

/**
 * One page of a search (docs/search.md): the matches' ids in the page's order, the exact number of
 * matches, each match's highlights, and signed cursors to the neighbouring pages. One statement:
 * the matches (the tenant's rows only: every statement reads its table through `scoped`), their
 * count, the page after (or before) the cursor's place, and the snippets of the page's rows.
 *
 * Pages continue from the last (or first) row shown: its sort value and id, so a page never
 * repeats or skips a row that did not change while the reader paged (keyset paging; a row whose
 * sort value changed meanwhile moves). A bare `?page=n` counts rows from the top instead.
 */
export interface SearchTable {
  /** `search_tickets`, `search_customers`. */
  table: string;
  /** What its cursors are bound to (store/cursor.ts `r`). */
  resource: string;
  columns: FilterColumns;
  /** Response field → its text column: what the highlights show. */
  highlights: Record<string, string>;
}

export type SearchSort = 'relevance' | 'created' | 'updated';

export interface SearchRequest {
  query: string;
  sort?: SearchSort;
  order?: 'asc' | 'desc';
  page: number;
  cursor?: string;
}

export interface SearchHit {
  id: string;
  /** Field → snippets, the matched words between `<em>` and `</em>`, the rest HTML-escaped. */
  highlights: Record<string, string[]>;
}

export interface SearchPage {
  totalRecords: number;
  /** In the page's order; reading back (a previous page), the page's last ones are those kept. */
  hits: SearchHit[];
  keep: 'first' | 'last';
  links: (kept: number) => Promise<{ previous: PageLink | null; next: PageLink | null }>;
}

/** The table's rows of one tenant: every statement reads an index table only through this. */
export const scoped = (table: string): string => `(SELECT * FROM ${table} WHERE tenant_id = $1)`;

const HEADLINE_OPTIONS = `'StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=30, MinWords=12, MaxFragments=3, FragmentDelimiter=\uE002'`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A headline's fragments as snippets: escaped, the marks turned into `<em>`; none when nothing in it matched. */
export const snippetsOf = (headline: unknown): string[] => {
  if (typeof headline !== 'string' || !headline.includes(MARK_START)) return [];
  return headline
    .split('\uE002')
    .filter((fragment) => fragment.includes(MARK_START))
    .map((fragment) =>
      escapeHtml(fragment.trim()).replaceAll(MARK_START, '<em>').replaceAll(MARK_END, '</em>'),
    );
};

/** The query as SQL; a malformed query, or a filter the table does not have, is a 400 naming where. */
const compiled = (query: string, spec: SearchTable, p: SqlParams) => {
  try {
    return compileQuery(parseQuery(query), spec.columns, p);
  } catch (error) {
    if (error instanceof QuerySyntaxError)
      throw new InvalidInput(`The query is not valid: ${error.message}.`, [
        { path: 'query', message: error.message },
      ]);
    if (error instanceof UnsupportedFilter) {
      // Counted in characters (code points), as the parser's own positions are.
      const at = Math.max(0, query.indexOf(`${error.filter}:`));
      const message = `${error.filter}: is not a filter of this search (at position ${[...query.slice(0, at)].length + 1})`;
      throw new InvalidInput(`The query is not valid: ${message}.`, [{ path: 'query', message }]);
    }
    throw error;
  }
};

/** Throws the 400 a malformed query gets, before anything else is done for it. */
export const checkQuery = (query: string, spec: SearchTable): void => {
  compiled(query, spec, new SqlParams());
};

export const runSearch = async (
  engine: SqlEngine,
  spec: SearchTable,
  tenantId: string,
  request: SearchRequest,
): Promise<SearchPage> => {
  const p = new SqlParams([tenantId]);
  const { text, where, rankQuery } = compiled(request.query, spec, p);
  const sort: SearchSort = request.sort ?? (rankQuery ? 'relevance' : 'created');
  const descending = (request.order ?? 'desc') === 'desc';
  const binding = {
    t: tenantId,
    r: spec.resource,
    f: JSON.stringify([request.query, sort, descending ? 'desc' : 'asc']),
  };
  const cursor = request.cursor ? await decodeCursor(request.cursor, binding) : undefined;
  if (cursor && cursor.p !== request.page)
    throw new InvalidCursor('The page parameter does not match the cursor.');
  const [key, keyType] =
    sort === 'relevance'
      ? [rankQuery ? `ts_rank(t.tsv, ${rankQuery})` : '0::real', 'real']
      : [`t.${spec.columns[sort]}`, 'bigint'];
  // Reading back walks the other way, then the page is put back in order.
  const back = cursor?.d === 'p';
  const forward = descending !== back;
  const [cmp, dir] = forward ? ['<', 'DESC'] : ['>', 'ASC'];
  const after = cursor
    ? `WHERE (m.k, m.id) ${cmp} (${p.add(cursor.k[0])}::${keyType}, ${p.add(cursor.k[1])})`
    : '';
  const offset = cursor ? '' : `OFFSET ${(request.page - 1) * RECORDS_PER_PAGE}`;
  const headlines = Object.entries(spec.highlights)
    .map(([field, col]) =>
      rankQuery
        ? `ts_headline(t.config, t.${col}, ${rankQuery}, ${HEADLINE_OPTIONS}) AS "h_${field}"`
        : `NULL AS "h_${field}"`,
    )
    .join(', ');
  const rows = await engine.query<Record<string, unknown>>(
    `WITH ${text.length ? `q AS MATERIALIZED (SELECT c.config, ${text.join(', ')} FROM ${CONFIG_ROWS}),` : ''}
     m AS MATERIALIZED (
       SELECT t.id, ${key} AS k FROM ${scoped(spec.table)} AS t WHERE ${where}
     )
     SELECT c.total, page.id, page.k::text AS k, ${headlines}
     FROM (SELECT count(*)::int AS total FROM m) AS c
     LEFT JOIN LATERAL (
       SELECT m.id, m.k FROM m ${after} ORDER BY m.k ${dir}, m.id ${dir} LIMIT ${RECORDS_PER_PAGE + 1} ${offset}
     ) AS page ON true
     LEFT JOIN ${scoped(spec.table)} AS t ON t.id = page.id
     ORDER BY page.k ${dir}, page.id ${dir}`,
    p.values,
  );
  const totalRecords = Number(rows[0]?.total ?? 0);
  const found = rows.filter((r) => r.id !== null && r.id !== undefined);
  const more = found.length > RECORDS_PER_PAGE;
  const read = found.slice(0, RECORDS_PER_PAGE);
  const inOrder = back ? read.reverse() : read;
  const hits = inOrder.map((r) => ({
    id: String(r.id),
    key: String(r.k),
    highlights: Object.fromEntries(
      Object.keys(spec.highlights).flatMap((field) => {
        const snippets = snippetsOf(r[`h_${field}`]);
        return snippets.length ? [[field, snippets]] : [];
      }),
    ),
  }));
  const page = request.page;
  const link = async (at: (typeof hits)[number], to: number, d: 'n' | 'p'): Promise<PageLink> =>
    to < 2
      ? { page: 1 }
      : { page: to, cursor: await encodeCursor({ ...binding, p: to, d, k: [at.key, at.id, ''] }) };
  return {
    totalRecords,
    hits: hits.map(({ id, highlights }) => ({ id, highlights })),
    keep: back ? 'last' : 'first',
    links: async (kept) => {
      if (kept === 0 || hits.length === 0) {
        return { previous: page > 1 ? { page: page - 1 } : null, next: null };
      }
      const shown = back ? hits.slice(hits.length - kept) : hits.slice(0, kept);
      const first = shown[0] as (typeof hits)[number];
      const last = shown.at(-1) as (typeof hits)[number];
      // Forward, more follow when the read found more or the page kept fewer than it read; back, the rows it came from do.
      const hasNext = back || more || kept < hits.length;
      const hasPrevious = back ? more || kept < hits.length : page > 1;
      return {
        previous: hasPrevious ? await link(first, page - 1, 'p') : null,
        next: hasNext ? await link(last, page + 1, 'n') : null,
      };
    },
  };
};
