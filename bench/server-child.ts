/**
 * A server process for sections 4 and 5, bundled by throughput.ts as Lambda's functions are and
 * started with `node --expose-gc <bundle> <product|bare|replay>` and the benchmark's environment
 * (DYNAMODB_ENDPOINT, TABLE_NAME, ...). `product` runs the local API Gateway stand-in
 * (local/server.ts) with the real handlers of the routes the sections call; `bare` runs
 * bare-server.ts. It answers `stats` messages (optionally after a full GC) so the parent can
 * follow its heap and peak RSS. `replay` serves no HTTP: it answers a `replay` message with
 * the CPU a request of the product's handler and of the bare one, the store's answers replayed
 * (replay.ts).
 */
import type { HttpHandler } from '../local/lambda-runtime';
import type { ReplayRequest, ReplayResult } from './replay';

export type ChildRequest = { type: 'stats'; gc: boolean } | { type: 'stop' } | ReplayRequest;
export type ChildMessage =
  | { type: 'ready'; url: string }
  | { type: 'replayed'; result: ReplayResult }
  | {
      type: 'stats';
      heapUsed: number;
      rss: number;
      maxRss: number;
      gcAvailable: boolean;
      /** CPU time (user + system) of the process so far, in ms. */
      cpuMs: number;
    };

const mode = process.argv[2];
const send = (message: ChildMessage) => process.send?.(message);

/** The product's handlers the sections call, imported by name so the bundle carries them. */
const PRODUCT: Record<string, () => Promise<{ handler: HttpHandler }>> = {
  'ticket-detail': () => import('../functions/ticket-detail'),
  'ticket-list': () => import('../functions/ticket-list'),
};

const productHandler = async (name: string): Promise<HttpHandler> => {
  const load = PRODUCT[name];
  if (!load) throw new Error(`bench/server-child.ts: functions/${name}.ts is not in the bench's bundle`);
  return (await load()).handler;
};

const start = async () => {
  if (mode === 'product') {
    const { startServer } = await import('../local/server');
    const server = await startServer({ port: 0, host: '127.0.0.1', loadHandler: productHandler });
    return { url: server.url.replace('localhost', '127.0.0.1'), close: server.close };
  }
  if (mode === 'bare') {
    const { startBareServer } = await import('./bare-server');
    return startBareServer();
  }
  if (mode === 'replay') return { url: '', close: async () => undefined };
  throw new Error(`usage: server-child.ts product|bare (got ${mode})`);
};

/** The product's handler of the path's route and the bare one (bench/bare-server.ts). */
const replay = async (ask: ReplayRequest): Promise<ReplayResult> => {
  const { runReplay } = await import('./replay');
  const bare = await import('./bare-server');
  const list = ask.path.startsWith('/ticket/list');
  return runReplay(ask, {
    product: await productHandler(list ? 'ticket-list' : 'ticket-detail'),
    bare: list ? bare.bareListHandler : bare.bareDetailHandler,
  });
};

const server = await start();
const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', (message: ChildRequest) => {
  if (message.type === 'stats') {
    if (message.gc && gc) {
      gc();
      gc();
    }
    const { heapUsed, rss } = process.memoryUsage();
    const { user, system } = process.cpuUsage();
    send({
      type: 'stats',
      heapUsed,
      rss,
      maxRss: process.resourceUsage().maxRSS * 1024,
      gcAvailable: !!gc,
      cpuMs: (user + system) / 1000,
    });
  } else if (message.type === 'replay') {
    // A replay that fails ends the process: the parent's `replay` rejects when it exits.
    void replay(message).then(
      (result) => send({ type: 'replayed', result }),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  } else if (message.type === 'stop') {
    void server.close().finally(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready', url: server.url });
