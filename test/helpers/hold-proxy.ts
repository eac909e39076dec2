import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy in front of DynamoDB Local that holds the next requests of one operation (by
 * X-Amz-Target name, e.g. PutItem) until `release`, then delivers them: a write sent before
 * another lands after it. Everything else (streams included) passes through.
 */
export interface HoldProxy {
  readonly endpoint: string;
  holdNext(operation: string, count?: number): void;
  /** Requests being held now. */
  held(): number;
  /** Delivers the held requests; resolves when the store has answered them. */
  release(): Promise<void>;
  close(): Promise<void>;
}

const operationOf = (chunk: Buffer) =>
  /x-amz-target:\s*[\w.]+?\.(\w+)\r\n/i.exec(chunk.toString('latin1'))?.[1];

export const startHoldProxy = async (target: string): Promise<HoldProxy> => {
  const { hostname, port } = new URL(target);
  let operation: string | undefined;
  let budget = 0;
  const holding: { flush: () => void; answered: Promise<void> }[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    // While a request of this connection is held, its later chunks (the rest of its body) are too.
    let chunks: Buffer[] | undefined;
    client.on('data', (chunk) => {
      if (chunks) {
        chunks.push(chunk);
        return;
      }
      if (budget > 0 && operationOf(chunk) === operation) {
        budget--;
        const held: Buffer[] = [chunk];
        chunks = held;
        holding.push({
          answered: new Promise<void>((resolve) => upstream.once('data', () => resolve())),
          flush: () => {
            chunks = undefined;
            for (const c of held) upstream.write(c);
          },
        });
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (data) => {
      if (!client.destroyed) client.write(data);
    });
    client.on('close', () => upstream.end());
    upstream.on('close', () => client.destroy());
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    holdNext: (name, count = 1) => {
      operation = name;
      budget = count;
    },
    held: () => holding.length,
    release: async () => {
      const delivering = holding.splice(0);
      for (const h of delivering) h.flush();
      await Promise.all(delivering.map((h) => h.answered));
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
