import { type ChildProcess, fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, ChildRequest } from './server-child';
import { median, nowMs, progress } from './stats';

/**
 * Sections 4 and 5. Ticket detail through the local server (API Gateway stand-in + the real
 * handler, in its own process) against the same local server answering with a bare handler making the same DynamoDB calls
 * (also its own process). Load comes from this process over keep-alive connections at a fixed
 * concurrency; rounds alternate the two servers. The product server's heap is taken after a
 * full GC before and after the run (>= `memoryRequests` requests), and its peak RSS at the end.
 */
export interface ThroughputResult {
  concurrency: number;
  rounds: number;
  secondsPerRound: number;
  /** Requests per second of each round. */
  productRps: number[];
  bareRps: number[];
  productMedianRps: number;
  bareMedianRps: number;
  /** Median over the rounds of product / bare within the round (goal >= 0.85). */
  ratio: number;
}

export interface MemoryResult {
  /** Product-server requests between the two heap readings. */
  requests: number;
  gcAvailable: boolean;
  heapBefore: number;
  heapAfter: number;
  /** (after - before) / before (goal < 10 %). */
  growth: number;
  /** Peak RSS of the product server process over its whole life (the run included). */
  productPeakRss: number;
  barePeakRss: number;
}

const root = fileURLToPath(new URL('..', import.meta.url));

class ServerProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async start(mode: 'product' | 'bare'): Promise<ServerProcess> {
    const child = fork(fileURLToPath(new URL('./server-child.ts', import.meta.url)), [mode], {
      cwd: root,
      execArgv: ['--expose-gc', '--import', 'tsx'],
      // The deployed log level: one access-log line per request, written to /dev/null here.
      env: { ...process.env, LOG_LEVEL: 'INFO', POWERTOOLS_LOG_LEVEL: 'INFO' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.once('message', (m: ChildMessage) => (m.type === 'ready' ? resolve(m.url) : reject(m)));
      child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
    });
    return new ServerProcess(child, url);
  }

  stats(gc: boolean): Promise<Extract<ChildMessage, { type: 'stats' }>> {
    return new Promise((resolve) => {
      this.child.once('message', (m: ChildMessage) => m.type === 'stats' && resolve(m));
      this.child.send({ type: 'stats', gc } satisfies ChildRequest);
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.send({ type: 'stop' } satisfies ChildRequest);
    });
  }
}

/** GETs `url` from `concurrency` workers until `seconds` pass or `count` requests complete. */
const load = async (
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  concurrency: number,
  limit: { seconds?: number; count?: number },
): Promise<{ requests: number; seconds: number }> => {
  const started = nowMs();
  const deadline = limit.seconds === undefined ? Number.POSITIVE_INFINITY : started + limit.seconds * 1000;
  const count = limit.count ?? Number.POSITIVE_INFINITY;
  let issued = 0;
  let done = 0;
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, { agent, headers }, (res) => {
        res.resume();
        res.once('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`${url} answered ${res.statusCode}`)),
        );
      });
      req.once('error', reject);
      req.end();
    });
  const worker = async () => {
    while (issued < count && nowMs() < deadline) {
      issued++;
      await once();
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { requests: done, seconds: (nowMs() - started) / 1000 };
};

export const runThroughput = async (opts: {
  tenantId: string;
  authorization: string;
  ticketId: string;
  concurrency: number;
  rounds: number;
  secondsPerRound: number;
  memoryRequests: number;
}): Promise<{ throughput: ThroughputResult; memory: MemoryResult }> => {
  const product = await ServerProcess.start('product');
  const bare = await ServerProcess.start('bare');
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency * 2 });
  const headers = { authorization: opts.authorization, clientid: opts.tenantId };
  const path = `/ticket/${opts.ticketId}`;
  const run = (server: ServerProcess, limit: { seconds?: number; count?: number }) =>
    load(agent, server.url + path, headers, opts.concurrency, limit);
  try {
    // Warm both: module load, JIT, connections, the product's token cache.
    await run(product, { seconds: 2 });
    await run(bare, { seconds: 2 });
    const before = await product.stats(true);

    const productRps: number[] = [];
    const bareRps: number[] = [];
    let productRequests = 0;
    const bar = progress('throughput rounds');
    for (let r = 0; r < opts.rounds; r++) {
      const order = r % 2 === 0 ? [product, bare] : [bare, product];
      for (const server of order) {
        const { requests, seconds } = await run(server, { seconds: opts.secondsPerRound });
        if (server === product) {
          productRps.push(requests / seconds);
          productRequests += requests;
        } else bareRps.push(requests / seconds);
      }
      bar.update(
        r + 1,
        opts.rounds,
        `(${Math.round(productRps.at(-1) ?? 0)} vs ${Math.round(bareRps.at(-1) ?? 0)} req/s)`,
      );
    }
    bar.done(`${opts.rounds} rounds of ${opts.secondsPerRound} s per server`);

    const rest = opts.memoryRequests - productRequests;
    if (rest > 0) {
      const mem = progress('memory run');
      const { requests } = await run(product, { count: rest });
      productRequests += requests;
      mem.done(`${productRequests} product requests since the first heap reading`);
    }
    const after = await product.stats(true);
    const bareStats = await bare.stats(false);

    const productMedianRps = median(productRps);
    const bareMedianRps = median(bareRps);
    return {
      throughput: {
        concurrency: opts.concurrency,
        rounds: opts.rounds,
        secondsPerRound: opts.secondsPerRound,
        productRps,
        bareRps,
        productMedianRps,
        bareMedianRps,
        ratio: median(productRps.map((rps, i) => rps / (bareRps[i] as number))),
      },
      memory: {
        requests: productRequests,
        gcAvailable: after.gcAvailable,
        heapBefore: before.heapUsed,
        heapAfter: after.heapUsed,
        growth: (after.heapUsed - before.heapUsed) / before.heapUsed,
        productPeakRss: after.maxRss,
        barePeakRss: bareStats.maxRss,
      },
    };
  } finally {
    agent.destroy();
    await Promise.all([product.stop(), bare.stop()]);
  }
};
