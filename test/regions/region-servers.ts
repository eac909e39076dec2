import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One local "region" of the simulation: the API server (`npm start`'s local/start.ts, a process
 * of its own, so each has its own region, configuration and clients) on that region's DynamoDB
 * Local, told where the other regions' replicas are (REGION_ENDPOINTS) for tenant-homed writes.
 */
export interface RegionServer {
  readonly region: string;
  readonly url: string;
  /** What the process printed (for a failure message). */
  output(): string;
  stop(): Promise<void>;
}

export interface RegionSpec {
  region: string;
  endpoint: string;
}

const repoRoot = new URL('../../', import.meta.url).pathname;

export const startRegionServer = async (
  me: RegionSpec,
  all: readonly RegionSpec[],
  shared: { tableName: string; s3Endpoint: string; bucket: string; cursorSecret: string; homing: boolean },
): Promise<RegionServer> => {
  const dir = mkdtempSync(join(tmpdir(), `helpdesk-${me.region}-`));
  let out = '';
  const child: ChildProcess = spawn(join(repoRoot, 'node_modules/.bin/tsx'), ['local/start.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      AWS_REGION: me.region,
      REGIONS: all.map((r) => r.region).join(','),
      PRIMARY_REGION: all[0]?.region,
      DYNAMODB_ENDPOINT: me.endpoint,
      REGION_ENDPOINTS: all
        .filter((r) => r.region !== me.region)
        .map((r) => `${r.region}=${r.endpoint}`)
        .join(','),
      REGION_HOMING: String(shared.homing),
      TABLE_NAME: shared.tableName,
      S3_ENDPOINT: shared.s3Endpoint,
      BUCKET_NAME: shared.bucket,
      CURSOR_SECRET: shared.cursorSecret,
      HELPDESK_DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_FAILURES_PER_MINUTE_PER_CLIENT: '1000000',
      AUTH_FAILURES_PER_MINUTE_PER_IP: '1000000',
      TOKEN_EXCHANGES_PER_MINUTE: '1000000',
      EVENT_FEED_LAG_MS: '100',
      POWERTOOLS_LOG_LEVEL: 'ERROR',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${me.region} did not start:\n${out}`)), 60_000);
    const check = () => {
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${me.region} exited (${code}):\n${out}`));
    });
  });
  return {
    region: me.region,
    url,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
