import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { SqlEngine, SqlValue } from '../shared/search/sql-engine';

/**
 * A throwaway native PostgreSQL 15 cluster (Debian's, /usr/lib/postgresql/15) for the search
 * bench's AWS-like figures: initdb in a temporary directory, run as the `postgres` user when this
 * process is root, on a free port, durability off (fsync, synchronous commit: the figures are of
 * query and indexing work, not of the disk), 2 GB of shared buffers. Removed on stop.
 */
const BIN = '/usr/lib/postgresql/15/bin';

export interface NativePostgres {
  url: string;
  engine(connections: number): SqlEngine;
  stop(): Promise<void>;
}

/** A port nothing listens on now. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

export const startPostgres = async (): Promise<NativePostgres> => {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'helpdesk-pg-'));
  const root = userInfo().uid === 0;
  const run = (cmd: string, args: string[]) =>
    execFileSync(root ? 'runuser' : cmd, root ? ['-u', 'postgres', '--', cmd, ...args] : args, {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  if (root) execFileSync('chown', ['postgres:postgres', dir]);
  run(`${BIN}/initdb`, [
    '-D',
    dir,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
  ]);
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c shared_buffers=2GB',
    '-c maintenance_work_mem=1GB',
    '-c work_mem=64MB',
    '-c max_wal_size=8GB',
    '-c max_connections=50',
  ].join(' ');
  run(`${BIN}/pg_ctl`, ['-D', dir, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const pools: pg.Pool[] = [];
  return {
    url,
    engine: (connections) => {
      const pool = new pg.Pool({ connectionString: url, max: connections });
      pools.push(pool);
      return {
        query: async <T>(sql: string, params: readonly SqlValue[] = []) =>
          (await pool.query(sql, params as SqlValue[])).rows as T[],
        close: () => pool.end(),
      };
    },
    stop: async () => {
      await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
      try {
        run(`${BIN}/pg_ctl`, ['-D', dir, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
};
