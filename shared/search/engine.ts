import { config } from '../config';
import { openDataApi } from './data-api-engine';
import { migrate } from './schema';
import type { SqlEngine } from './sql-engine';

/**
 * The search index of this process, opened once: the region's Aurora cluster when the stack names
 * one (its schema migrated on deploy, infra/search.ts), else PGlite in this process with its
 * schema migrated as it opens (search/pglite-engine.ts, loaded only then).
 */
let opened: Promise<SqlEngine> | undefined;

const open = async (): Promise<SqlEngine> => {
  const { SEARCH_CLUSTER_ARN, SEARCH_SECRET_ARN, SEARCH_DATABASE, SEARCH_DATA_DIR } = config();
  if (SEARCH_CLUSTER_ARN) {
    if (!SEARCH_SECRET_ARN)
      throw new Error('Invalid configuration: SEARCH_SECRET_ARN: required with SEARCH_CLUSTER_ARN');
    return openDataApi({
      clusterArn: SEARCH_CLUSTER_ARN,
      secretArn: SEARCH_SECRET_ARN,
      database: SEARCH_DATABASE,
    });
  }
  const { openPglite } = await import('./pglite-engine');
  const engine = await openPglite(SEARCH_DATA_DIR);
  await migrate(engine);
  return engine;
};

export const searchEngine = (): Promise<SqlEngine> => {
  if (!opened) {
    opened = open();
    opened.catch(() => {
      opened = undefined;
    });
  }
  return opened;
};

/**
 * Uses `engine` as this process's index from now on (the benchmark's native PostgreSQL:
 * bench/search.ts); the one it replaces is not closed.
 */
export const provideSearchEngine = (engine: SqlEngine): void => {
  opened = Promise.resolve(engine);
};

/** Closes this process's index (the local server's stop, tests). */
export const closeSearchEngine = async (): Promise<void> => {
  const engine = opened;
  opened = undefined;
  if (engine) await (await engine).close();
};
