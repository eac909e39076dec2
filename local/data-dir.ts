import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The local data directory (HELPDESK_DATA_DIR, default `.helpdesk`) shared by `npm start`
 * and the operator CLI: the DynamoDB Local database, the cursor signing key and, while a
 * server runs, the endpoint of its DynamoDB Local so the CLI can use the same store.
 */
export const dataDir = (): string => {
  const dir = resolve(process.env.HELPDESK_DATA_DIR ?? '.helpdesk');
  mkdirSync(dir, { recursive: true });
  return dir;
};

export const dynamoDbPath = (dir: string): string => join(dir, 'dynamodb');

/** The local search index (PGlite's database files: docs/search.md). */
export const searchDataDir = (dir: string): string => join(dir, 'search');

/**
 * Cursors are signed; a key kept in the data dir keeps `nextQuery` links valid across
 * restarts. Generated on first use, readable by the owner only. An explicit env value wins.
 */
export const useCursorSecret = (dir: string): void => {
  if (process.env.CURSOR_SECRET) return;
  const file = join(dir, 'cursor-secret');
  try {
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // kept from an earlier start
  }
  process.env.CURSOR_SECRET = readFileSync(file, 'utf8').trim();
};

export interface RunningStore {
  readonly endpoint: string;
  /** The `npm start` process that owns the DynamoDB Local. */
  readonly pid: number;
}

const endpointFile = (dir: string): string => join(dir, 'endpoint.json');

export const readRunningStore = (dir: string): RunningStore | undefined => {
  try {
    const value = JSON.parse(readFileSync(endpointFile(dir), 'utf8')) as Partial<RunningStore>;
    return typeof value.endpoint === 'string' && typeof value.pid === 'number'
      ? { endpoint: value.endpoint, pid: value.pid }
      : undefined;
  } catch {
    return undefined; // absent or half-written: treat as not running
  }
};

export const writeRunningStore = (dir: string, store: RunningStore): void => {
  writeFileSync(endpointFile(dir), `${JSON.stringify(store)}\n`);
};

/** Removes the file only if it is ours, so a failed second start cannot orphan the first. */
export const removeRunningStore = (dir: string, pid = process.pid): void => {
  if (readRunningStore(dir)?.pid === pid) rmSync(endpointFile(dir), { force: true });
};

export const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};
