import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/**
 * A local S3-compatible server (s3rver, in this process) for attachments and photos, used by
 * `npm start`, the tests and the benchmark. Clients must use path-style addressing.
 * s3rver checks no signature: whoever reaches it reads and writes every object. So it listens on
 * 127.0.0.1 only, whatever HOST the API listens on (test/integration/s3-local.test.ts).
 */
export interface S3Local {
  readonly endpoint: string;
  readonly bucket: string;
  stop(): Promise<void>;
}

export interface S3LocalOptions {
  /** Where objects are kept; omitted = a temporary directory removed on stop. */
  directory?: string;
  bucket?: string;
}

export const startS3Local = async ({
  directory,
  bucket = 'helpdesk-blobs',
}: S3LocalOptions = {}): Promise<S3Local> => {
  const dir = directory ?? mkdtempSync(join(tmpdir(), 'helpdesk-s3-'));
  mkdirSync(dir, { recursive: true });
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1', // loopback only: it answers unsigned requests
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    stop: async () => {
      await server.close();
      if (!directory) rmSync(dir, { recursive: true, force: true });
    },
  };
};
