import { decodeCursor, encodeCursor } from '../store/cursor';
import { InvalidCursor, InvalidInput } from '../store/errors';
import { type PageLink, RECORDS_PER_PAGE } from '../store/pages';
import { compileQuery, type FilterColumns, SqlParams, UnsupportedFilter } from './compile';
import { MARK_END, MARK_START, SEARCH_CONFIGS } from './documents';
import { parseQuery, QuerySyntaxError } from './query-language';
import type { SqlEngine } from './sql-engine';

/**
 * One page of a search (docs/search.md): the matches' ids in the page's order, the exact number of
 * matches, each match's highlights, and signed cursors to the neighbouring pages. One statement:
 * the matches (the tenant's rows only: every statement reads its table through `scoped`), their
 * count (or the total the cursor carries, while the tenant's index generation is the one it was
 * counted at), the page after (or before) the cursor's place, and the snippets of the page's rows.
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
const compiled = (query: string, spec: SearchTable, p: SqlParams, configs: readonly string[]) => {
  try {
    return compileQuery(parseQuery(query), spec.columns, p, configs);
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
  compiled(query, spec, new SqlParams(), ['simple']);
};

/**
 * The configurations each tenant's rows are in, as this process last read them (search_configs,
 * which only ever grows). A search is written for them and checks, in its own statement, that
 * the tenant uses no other: if it does, the search read nothing and runs again with the new set.
 */
const knownConfigs = new Map<string, readonly string[]>();
const KNOWN_TENANTS = 10_000;

const readConfigs = async (engine: SqlEngine, tenantId: string): Promise<readonly string[]> => {
  const rows = await engine.query<{ config: string }>(
    `SELECT config::text AS config FROM ${scoped('search_configs')} AS c`,
    [tenantId],
  );
  const configs = rows.map((r) => r.config);
  if (knownConfigs.size >= KNOWN_TENANTS) knownConfigs.clear();
  knownConfigs.set(tenantId, configs);
  return configs;
};

export const runSearch = async (
  engine: SqlEngine,
  spec: SearchTable,
  tenantId: string,
  request: SearchRequest,
): Promise<SearchPage> => {
  let configs = knownConfigs.get(tenantId) ?? (await readConfigs(engine, tenantId));
  // Each stale read means the set grew, and it has at most every configuration.
  for (let attempt = 0; attempt <= SEARCH_CONFIGS.length; attempt++) {
    const page = await searchIn(engine, spec, tenantId, request, configs);
    if (page) return page;
    configs = await readConfigs(engine, tenantId);
  }
  throw new Error(`the text configurations of tenant ${tenantId} keep changing`);
};

/** One page, or undefined when the tenant uses a configuration `configs` lacks (nothing was read). */
const searchIn = async (
  engine: SqlEngine,
  spec: SearchTable,
  tenantId: string,
  request: SearchRequest,
  configs: readonly string[],
): Promise<SearchPage | undefined> => {
  const p = new SqlParams([tenantId]);
  const { where: matched, rankQuery } = compiled(request.query, spec, p, configs);
  // Nothing is read unless the tenant uses no configuration but these.
  const where = `(SELECT complete FROM known) AND ${matched}`;
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
  const relevance = sort === 'relevance';
  const key = relevance
    ? rankQuery
      ? `ts_rank(t.tsv, ${rankQuery})`
      : '0::real'
    : `t.${spec.columns[sort]}`;
  // Reading back walks the other way, then the page is put back in order.
  const back = cursor?.d === 'p';
  const forward = descending !== back;
  const [cmp, dir] = forward ? ['<', 'DESC'] : ['>', 'ASC'];
  const offset = cursor ? '' : `OFFSET ${(request.page - 1) * RECORDS_PER_PAGE}`;
  const headlines = Object.entries(spec.highlights)
    .map(([field, col]) =>
      rankQuery
        ? `ts_headline(t.config, t.${col}, ${rankQuery}, ${HEADLINE_OPTIONS}) AS "h_${field}"`
        : `NULL AS "h_${field}"`,
    )
    .join(', ');
  const rows = `${scoped(spec.table)} AS t`;
  const after = (k: string, id: string) =>
    cursor
      ? `(${k}, ${id}) ${cmp} (${p.add(cursor.k[0])}::${relevance ? 'real' : 'bigint'}, ${p.add(cursor.k[1])})`
      : 'true';
  // Ranked, every match is ranked once (`m`), then counted and cut. By a date, the count reads
  // nothing but the matches' rows, and the page walks the date's index from the cursor's place when
  // the planner finds that cheaper (a common word), or sorts the matches (a rare one).
  const [matchesSql, countSql, pageSql] = relevance
    ? [
        `m AS MATERIALIZED (SELECT t.id, ${key} AS k FROM ${rows} WHERE ${where}),`,
        'SELECT count(*)::int AS total FROM m',
        `SELECT m.id, m.k FROM m WHERE ${after('m.k', 'm.id')}
         ORDER BY m.k ${dir}, m.id ${dir} LIMIT ${RECORDS_PER_PAGE + 1} ${offset}`,
      ]
    : [
        '',
        `SELECT count(*)::int AS total FROM ${rows} WHERE ${where}`,
        `SELECT t.id, ${key} AS k FROM ${rows} WHERE ${where} AND ${after(key, 't.id')}
         ORDER BY ${key} ${dir}, t.id ${dir} LIMIT ${RECORDS_PER_PAGE + 1} ${offset}`,
      ];
  // A cursor carries the total its page counted, and the tenant's index generation then: while it
  // is the same, no match came or went (search/index-writes.ts), and the total is not counted again.
  const carried =
    cursor?.c !== undefined && /^\d+$/.test(cursor.k[2])
      ? `CASE WHEN (SELECT generation FROM known) = ${p.add(cursor.k[2])}::bigint THEN ${p.add(cursor.c)}::int
         ELSE (${countSql}) END`
      : `(${countSql})`;
  const result = await engine.query<Record<string, unknown>>(
    `WITH known AS MATERIALIZED (
       SELECT NOT EXISTS (
         SELECT 1 FROM ${scoped('search_configs')} AS c WHERE c.config::text <> ALL (ARRAY[${configs.map((c) => `'${c}'`).join(', ')}]::text[])
       ) AS complete,
       coalesce((SELECT g.generation FROM ${scoped('search_changes')} AS g), 0) AS generation
     ),
     ${matchesSql}
     found AS (SELECT ${carried} AS total, page.id, page.k FROM (SELECT 1) AS one LEFT JOIN LATERAL (${pageSql}) AS page ON true)
     SELECT known.complete, known.generation::text AS generation, found.total, found.id, found.k::text AS k, ${headlines}
     FROM known, found LEFT JOIN ${rows} ON t.id = found.id
     ORDER BY found.k ${dir}, found.id ${dir}`,
    p.values,
  );
  if (result[0]?.complete !== true) return undefined;
  const totalRecords = Number(result[0]?.total ?? 0);
  const generation = String(result[0]?.generation ?? '');
  const found = result.filter((r) => r.id !== null && r.id !== undefined);
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
      : {
          page: to,
          cursor: await encodeCursor({
            ...binding,
            p: to,
            d,
            k: [at.key, at.id, generation],
            c: totalRecords,
          }),
        };
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
