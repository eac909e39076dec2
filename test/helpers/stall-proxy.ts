import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy in front of DynamoDB Local that can stall the store the way an outage does: while
 * stalled, each TransactWriteItems request is held (the client waits, gives up, hangs up) and,
 * on `resume`, delivered after all — the write lands late, as the audit saw — or, on `drop`,
 * never delivered. Everything else passes through.
 */
export interface StallProxy {
  readonly endpoint: string;
  /** Requests seen, in order of arrival (X-Amz-Target names). */
  readonly requests: string[];
  stall(): void;
  /** Holds only the next `count` transactions; later ones pass. */
  stallNext(count: number): void;
  resume(): Promise<void>;
  drop(): void;
  close(): Promise<void>;
}

const targetOf = (chunk: Buffer) =>
  /x-amz-target:\s*DynamoDB_\d+\.(\w+)/i.exec(chunk.toString('latin1'))?.[1];

export const startStallProxy = async (target: string): Promise<StallProxy> => {
  const { hostname, port } = new URL(target);
  let stalled = false;
  let budget = Number.POSITIVE_INFINITY;
  const held: { upstream: Socket; chunks: Buffer[]; answered: Promise<void> }[] = [];
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    let holding: Buffer[] | undefined;
    client.on('data', (chunk) => {
      const name = targetOf(chunk);
      if (name) requests.push(name);
      if (holding) {
        holding.push(chunk);
        return;
      }
      if (stalled && name === 'TransactWriteItems' && budget > 0) {
        budget--;
        holding = [chunk];
        const answered = new Promise<void>((resolve) => upstream.once('data', () => resolve()));
        held.push({ upstream, chunks: holding, answered });
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (data) => {
      if (!client.destroyed) client.write(data);
    });
    // A held request outlives its client: the store gets it on resume.
    client.on('close', () => {
      if (!holding) upstream.end();
    });
    upstream.on('close', () => client.destroy());
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    requests,
    stall: () => {
      stalled = true;
      budget = Number.POSITIVE_INFINITY;
    },
    stallNext: (count) => {
      stalled = true;
      budget = count;
    },
    resume: async () => {
      stalled = false;
      const delivering = held.splice(0);
      for (const { upstream, chunks } of delivering) for (const chunk of chunks) upstream.write(chunk);
      await Promise.all(delivering.map((h) => h.answered));
    },
    drop: () => {
      stalled = false;
      for (const { upstream } of held.splice(0)) upstream.destroy();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
