import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { openLocalPort } from './webhook-receiver';

/**
 * A webhook receiver that never answers: it accepts every connection and holds it open, as a hung
 * receiver does, until the delivery's own timeout gives up. Counts the connections it took, and
 * the most it held at once.
 */
export interface SilentReceiver {
  readonly url: string;
  readonly connections: number;
  /** The most connections it held open at once. */
  readonly peak: number;
  stop(): Promise<void>;
}

export const startSilentReceiver = async (): Promise<SilentReceiver> => {
  const sockets = new Set<Socket>();
  let connections = 0;
  let peak = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    peak = Math.max(peak, sockets.size);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  openLocalPort(port);
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    get peak() {
      return peak;
    },
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};
