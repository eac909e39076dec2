import { connect, createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { startS3Local } from '../../local/s3-local';

/**
 * The local S3 server (s3rver) checks no signature: whoever reaches it reads and writes every
 * object. It must listen on the loopback interface only, never on the machine's other addresses.
 */
const connects = (host: string, port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });

/** This machine's own non-loopback addresses (link-local IPv6 left out: they need a zone). */
const externalAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && !a.internal && !a.address.startsWith('fe80:'))
    .map((a) => a?.address as string);

/** The addresses where a server listening on every interface can be reached (the control). */
const reachableWhenExposed = async (): Promise<string[]> => {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  const { port } = server.address() as { port: number };
  try {
    const all = externalAddresses();
    const ok = await Promise.all(all.map((host) => connects(host, port)));
    return all.filter((_, i) => ok[i]);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
};

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
