import { type ChildProcess, fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { esbuildOptions } from '../infra/bundling';
import { OUT_DIR } from './cold-start';
import type { ChildMessage, ChildRequest } from './server-child';
import { median, nowMs, percentile, progress } from './stats';

/**
 * Sections 4 and 5. Ticket detail and the ticket list through the local server (API Gateway
 * stand-in + the real handlers, in its own process) against the same local server answering with
 * bare handlers making the same DynamoDB calls, run twice: two bare server processes, each its
 * own. Load comes from this process over keep-alive connections at a fixed concurrency; rounds
 * load the three servers one after the other, the order rotating every round, and every
 * request's latency is kept for the percentiles. The product is measured against both bare
 * servers (their mean in each round), and the second bare server against the first: the same
 * code twice, the control that says how far this run's machine let two equal servers drift
 * apart (docs/performance.md, "Issue 27, eighth pass": ±6 % between runs of 5 rounds). Each
 * read is first warmed the same way for `warmRounds` rounds: module load and
 * V8's compiler in the servers, and DynamoDB Local's JIT, which shares the two cores with them
 * and keeps compiling for about 90 s of load (docs/performance.md, "Issue 27, sixth pass").
 * Then the memory run: the product server's heap after a full GC, `memoryRequests` more
 * requests, the heap after a full GC again, and its peak RSS at the end. The forced GCs come
 * after the rounds, never before: a process that has run `gc()` (--expose-gc) stays ~0.5 ms a
 * request slower for the rest of its life (measured: two product servers, one collected after
 * its warm-up, then the same rounds: 3.16 vs 2.69 ms of CPU a request), and only the product's
 * heap is read.
 */
export interface ThroughputTarget {
  /** What is read, e.g. `ticket detail`. */
  name: string;
  path: string;
  /** Requests per second of each round: the product's, the mean of the two bare servers', and each of theirs. */
  productRps: number[];
  bareRps: number[];
  firstBareRps: number[];
  secondBareRps: number[];
  productMedianRps: number;
  bareMedianRps: number;
  /** Median over the rounds of product / bare (the two bare servers' mean) within the round (goal >= 0.90). */
  ratio: number;
  /** Median over the rounds of the second bare server / the first: the same code, so 1 but for the run's noise. */
  control: number;
  /** CPU time (ms) the product's process and the bare ones (their mean) spent per request over the rounds. */
  productCpuMs: number;
  bareCpuMs: number;
  /** Latency percentiles (ms) over every request of the rounds, client side (the bare ones: both servers'). */
  productP50: number;
  productP99: number;
  bareP50: number;
  bareP99: number;
}

export interface ThroughputResult {
  concurrency: number;
  /** Alternating rounds of each read before its measured ones (not counted). */
  warmRounds: number;
  rounds: number;
  secondsPerRound: number;
  targets: ThroughputTarget[];
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

/**
 * Both servers run what Lambda runs: server-child.ts (the local server, the product's two
 * handlers and the bare ones) bundled by esbuild with the functions' own settings
 * (infra/bundling.ts), not TypeScript transpiled on load by tsx, whose `keepNames` adds a call
 * for every named function made at run time, which the product makes more of than the bare
 * handler (docs/performance.md, "Issue 27, seventh pass"). Its source map lets bench/profile.ts
 * name the files that cost.
 */
const bundleServer = async (): Promise<string> => {
  const outfile = join(OUT_DIR, 'server-child', 'index.mjs');
  await build({
    ...esbuildOptions(),
    entryPoints: [fileURLToPath(new URL('./server-child.ts', import.meta.url))],
    outfile,
  });
  return outfile;
};

class ServerProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async start(bundle: string, mode: 'product' | 'bare', profileDir?: string): Promise<ServerProcess> {
    const profile = profileDir
      ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', profileDir]
      : [];
    const child = fork(bundle, [mode], {
      cwd: root,
      execArgv: ['--expose-gc', ...profile],
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
): Promise<{ requests: number; seconds: number; latencies: number[] }> => {
  const started = nowMs();
  const latencies: number[] = [];
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
      req.on('error', reject);
      req.end();
    });
  const worker = async () => {
    while (issued < count && nowMs() < deadline) {
      issued++;
      const sent = nowMs();
      await once();
      latencies.push(nowMs() - sent);
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { requests: done, seconds: (nowMs() - started) / 1000, latencies };
};

export const runThroughput = async (opts: {
  tenantId: string;
  authorization: string;
  /** What each round reads from both servers, one after the other. */
  targets: { name: string; path: string }[];
  concurrency: number;
  warmRounds: number;
  rounds: number;
  secondsPerRound: number;
  memoryRequests: number;
  /** Writes CPU profiles of the servers (their whole lives) into `product/`, `bare/` and `control/` of this directory. */
  profileDir?: string;
}): Promise<{
  throughput: ThroughputResult;
  memory: MemoryResult;
  served: { product: number; bare: number };
}> => {
  const profile = (mode: string) => (opts.profileDir ? join(opts.profileDir, mode) : undefined);
  const bundle = await bundleServer();
  const product = await ServerProcess.start(bundle, 'product', profile('product'));
  const bare = await ServerProcess.start(bundle, 'bare', profile('bare'));
  const control = await ServerProcess.start(bundle, 'bare', profile('control'));
  const servers = [product, bare, control];
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency * 2 });
  const headers = { authorization: opts.authorization, clientid: opts.tenantId };
  /** Every request each server answered, warm-up included (a profile covers its server's whole life). */
  const served = new Map<ServerProcess, number>();
  const run = async (server: ServerProcess, path: string, limit: { seconds?: number; count?: number }) => {
    const result = await load(agent, server.url + path, headers, opts.concurrency, limit);
    served.set(server, (served.get(server) ?? 0) + result.requests);
    return result;
  };
  /** Round `r`'s servers in the order they are loaded: each takes each place once in three rounds. */
  const orderOf = (r: number) => servers.map((_, i) => servers[(i + r) % servers.length] as ServerProcess);
  try {
    // Warm both, alternating as the measured rounds do: module load, V8's compiler (the product has
    // more code to optimise: a short warm-up measured its compiler threads), connections, the
    // product's token cache, and DynamoDB Local's JIT.
    for (const { path } of opts.targets) {
      const bar = progress('throughput warm-up');
      for (let r = 0; r < opts.warmRounds; r++) {
        for (const server of orderOf(r)) await run(server, path, { seconds: opts.secondsPerRound });
        bar.update(r + 1, opts.warmRounds);
      }
      bar.done(`${opts.warmRounds} rounds of ${opts.secondsPerRound} s per server`);
    }

    const targets: ThroughputTarget[] = [];
    for (const target of opts.targets) {
      const rps = new Map<ServerProcess, number[]>(servers.map((s) => [s, []]));
      const cpu = new Map<ServerProcess, number>(servers.map((s) => [s, 0]));
      const latencies = { product: [] as number[], bare: [] as number[] };
      const bar = progress(`throughput rounds, ${target.name}`);
      for (let r = 0; r < opts.rounds; r++) {
        for (const server of orderOf(r)) {
          const cpuBefore = (await server.stats(false)).cpuMs;
          const result = await run(server, target.path, { seconds: opts.secondsPerRound });
          const cpuMs = ((await server.stats(false)).cpuMs - cpuBefore) / result.requests;
          cpu.set(server, (cpu.get(server) ?? 0) + cpuMs / opts.rounds);
          rps.get(server)?.push(result.requests / result.seconds);
          latencies[server === product ? 'product' : 'bare'].push(...result.latencies);
        }
        const [p, b, c] = servers.map((s) => Math.round(rps.get(s)?.at(-1) ?? 0));
        bar.update(r + 1, opts.rounds, `(${p} vs ${b} and ${c} req/s)`);
      }
      bar.done(`${opts.rounds} rounds of ${opts.secondsPerRound} s per server`);
      const [productRps, firstRps, secondRps] = servers.map((s) => rps.get(s) ?? []) as [
        number[],
        number[],
        number[],
      ];
      const bareRps = firstRps.map((v, i) => (v + (secondRps[i] as number)) / 2);
      targets.push({
        ...target,
        productRps,
        bareRps,
        firstBareRps: firstRps,
        secondBareRps: secondRps,
        productMedianRps: median(productRps),
        bareMedianRps: median(bareRps),
        ratio: median(productRps.map((v, i) => v / (bareRps[i] as number))),
        control: median(secondRps.map((v, i) => v / (firstRps[i] as number))),
        productCpuMs: cpu.get(product) ?? 0,
        bareCpuMs: ((cpu.get(bare) ?? 0) + (cpu.get(control) ?? 0)) / 2,
        productP50: percentile(latencies.product, 50),
        productP99: percentile(latencies.product, 99),
        bareP50: percentile(latencies.bare, 50),
        bareP99: percentile(latencies.bare, 99),
      });
    }

    const before = await product.stats(true);
    const mem = progress('memory run');
    const { requests: memoryRequests } = await run(product, opts.targets[0]?.path ?? '/', {
      count: opts.memoryRequests,
    });
    mem.done(`${memoryRequests} product requests between the two heap readings`);
    const after = await product.stats(true);
    const bareStats = await bare.stats(false);

    return {
      served: { product: served.get(product) ?? 0, bare: served.get(bare) ?? 0 },
      throughput: {
        concurrency: opts.concurrency,
        warmRounds: opts.warmRounds,
        rounds: opts.rounds,
        secondsPerRound: opts.secondsPerRound,
        targets,
      },
      memory: {
        requests: memoryRequests,
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
    await Promise.all(servers.map((s) => s.stop()));
  }
};
