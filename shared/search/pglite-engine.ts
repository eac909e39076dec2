import type { SqlEngine, SqlValue } from './sql-engine';

/**
 * The local search engine: PostgreSQL compiled to WASM (`@electric-sql/pglite`, a devDependency:
 * `npm ci` is all it needs), in this process, its database under `dir` (none: in memory, as the
 * tests use it). Loaded only when no Aurora cluster is configured (search/engine.ts), and left out
 * of the deployed bundles (infra/bundling.ts).
 */
export const openPglite = async (dir?: string): Promise<SqlEngine> => {
  const [{ PGlite }, { btree_gin }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/btree_gin'),
  ]);
  const db = await PGlite.create(dir, { extensions: { btree_gin } });
  return {
    query: async <T>(sql: string, params: readonly SqlValue[] = []) =>
      (await db.query<T>(sql, params as SqlValue[])).rows,
    close: () => db.close(),
  };
};
