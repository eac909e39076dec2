/**
 * The one seam between the search code and PostgreSQL (docs/search.md): run one SQL statement with
 * positional parameters (`$1`, `$2`…) and read its rows as plain objects. Above it, the schema,
 * the indexer's writes, the queries, ranking, snippets and paging are the same code everywhere;
 * below it, PGlite (PostgreSQL compiled to WASM) for `npm start` and the tests
 * (search/pglite-engine.ts), and Aurora PostgreSQL through the RDS Data API in AWS
 * (search/data-api-engine.ts).
 *
 * Parameters are scalars only (the Data API takes no arrays): a list travels as JSON text and the
 * statement unpacks it (`jsonb_array_elements_text($n::jsonb)`). Whole numbers within
 * Number.MAX_SAFE_INTEGER; a bigint column is read back as a number or its text, so statements
 * cast what they return (`::float8`, `::text`) to what the caller reads.
 */
export type SqlValue = string | number | boolean | null;

export type Row = Record<string, unknown>;

export interface SqlEngine {
  /** Runs one statement; its rows (none for a statement that returns none). */
  query<T extends Row = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Releases what the engine holds (the local database's files, the Data API's client). */
  close(): Promise<void>;
}
