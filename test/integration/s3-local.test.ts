import { describe, expect, it } from 'vitest';
import { startS3Local } from '../../local/s3-local';
import { connects, reachableWhenExposed } from '../helpers/reachability';

/**
 * The local S3 server (s3rver) checks no signature: whoever reaches it reads and writes every
 * object. It must listen on the loopback interface only, never on the machine's other addresses.
 */
describe('local S3 server', () => {
  it('listens on 127.0.0.1 only: unreachable on the machine’s other addresses', async () => {
    const s3 = await startS3Local();
    try {
      const url = new URL(s3.endpoint);
      expect(url.hostname).toBe('127.0.0.1');
      const port = Number(url.port);
      // It answers unsigned requests (hence loopback only).
      expect((await fetch(`${s3.endpoint}/${s3.bucket}`)).status).toBe(200);
      const exposed = await reachableWhenExposed();
      for (const host of exposed) {
        expect(await connects(host, port), `reachable on ${host}:${port}`).toBe(false);
      }
    } finally {
      await s3.stop();
    }
  });
});
