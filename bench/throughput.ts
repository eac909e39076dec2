import { type ChildProcess, fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { esbuildOptions } from '../infra/bundling';
import { OUT_DIR } from './cold-start';
import type { ReplayRequest, ReplayResult } from './replay';
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
 * apart. The rounds are shared among `generations` sets of three fresh processes, as a JVM
 * benchmark forks: on this machine two processes of the same code came out up to 9 % apart over
 * six rounds, often the same way for minutes on end (docs/performance.md, "Issue 27, eighth
 * pass"), which more rounds of the same processes cannot average out. Each generation's servers
 * are first warmed on each read, in turns as the measured rounds go (`rewarmRounds`; the first
 * generation `warmRounds`, long enough for DynamoDB Local too): module load and
 * V8's compiler in the servers, and DynamoDB Local's JIT, which shares the two cores with them
 * and keeps compiling for about 90 s of load (docs/performance.md, "Issue 27, sixth pass").
 * Then the memory run: the product server's heap after a full GC, `memoryRequests` more
 * requests, the heap after a full GC again, and its peak RSS at the end. The forced GCs come
 * after the rounds, never before: a process that has run `gc()` (--expose-gc) stays ~0.5 ms a
 * request slower for the rest of its life (measured: two product servers, one collected after
 * its warm-up, then the same rounds: 3.16 vs 2.69 ms of CPU a request), and only the product's
 * heap is read. Last, each read once more in one process with the store's answers replayed
 * (replay.ts): the product's overhead without the sockets, DynamoDB Local or the machine's load.
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
  /** The same read in one process with the store's answers replayed (replay.ts): CPU µs a request. */
  replay: {
    rounds: number;
    perRound: number;
    productUs: number[];
    bareUs: number[];
    productMedianUs: number;
    bareMedianUs: number;
    /** Median over the rounds of product / bare (the round's two sides). */
    ratio: number;
  };
}

export interface ThroughputResult {
  concurrency: number;
  /** Rounds of each read before the first generation's measured ones (not counted). */
  warmRounds: number;
  /** Rounds of each read before a later generation's measured ones (not counted). */
  rewarmRounds: number;
  rounds: number;
  /** Sets of three fresh server processes the rounds were shared among. */
  generations: number;
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

  static async start(
    bundle: string,
    mode: 'product' | 'bare' | 'replay',
    profileDir?: string,
  ): Promise<ServerProcess> {
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

  replay(ask: Omit<ReplayRequest, 'type'>): Promise<ReplayResult> {
    return new Promise((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the replay process exited with ${code}`));
      const answered = (m: ChildMessage) => {
        if (m.type !== 'replayed') return;
        this.child.off('exit', exited).off('message', answered);
        resolve(m.result);
      };
      this.child.once('exit', exited).on('message', answered);
      this.child.send({ type: 'replay', ...ask } satisfies ChildRequest);
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

/**
 * Section 5 on the last generation's servers, after its rounds: the product's heap after a full
 * GC, `count` more requests, the heap after a full GC again, and both servers' peak RSS.
 */
const measureMemory = async (
  product: ServerProcess,
  bare: ServerProcess,
  serve: (count: number) => Promise<{ requests: number }>,
  count: number,
): Promise<MemoryResult> => {
  const before = await product.stats(true);
  const mem = progress('memory run');
  const { requests } = await serve(count);
  mem.done(`${requests} product requests between the two heap readings`);
  const after = await product.stats(true);
  const bareStats = await bare.stats(false);
  return {
    requests,
    gcAvailable: after.gcAvailable,
    heapBefore: before.heapUsed,
    heapAfter: after.heapUsed,
    growth: (after.heapUsed - before.heapUsed) / before.heapUsed,
    productPeakRss: after.maxRss,
    barePeakRss: bareStats.maxRss,
  };
};

/** Each read's replayed rounds (replay.ts), in a process of their own, after the servers' rounds. */
const measureReplays = async (
  bundle: string,
  headers: Record<string, string>,
  targets: { name: string; path: string; replayPerRound: number }[],
  rounds: number,
  concurrency: number,
): Promise<ReplayResult[]> => {
  const child = await ServerProcess.start(bundle, 'replay');
  try {
    const results: ReplayResult[] = [];
    for (const { name, path, replayPerRound } of targets) {
      const bar = progress(`replayed rounds, ${name}`);
      results.push(await child.replay({ path, headers, rounds, perRound: replayPerRound, concurrency }));
      bar.done(`${rounds} rounds of ${replayPerRound} requests per side`);
    }
    return results;
  } finally {
    await child.stop();
  }
};

/** The three servers of a generation, by role: the product, the first bare server, the control. */
const ROLES = ['product', 'bare', 'control'] as const;
type Role = (typeof ROLES)[number];

/** Round `r`'s roles in the order they are loaded: each takes each place once in three rounds. */
const orderOf = (r: number): Role[] => ROLES.map((_, i) => ROLES[(i + r) % ROLES.length] as Role);

export const runThroughput = async (opts: {
  tenantId: string;
  authorization: string;
  /** What each round reads from the servers, one after the other; `replayPerRound`: requests a replay round. */
  targets: { name: string; path: string; replayPerRound: number }[];
  /** Rounds of each read in one process with the store's answers replayed (replay.ts). */
  replayRounds: number;
  concurrency: number;
  /** Rounds of each read that warm the first generation's servers (and DynamoDB Local), not counted. */
  warmRounds: number;
  /** Rounds that warm each later generation's servers (DynamoDB Local is warm by then), not counted. */
  rewarmRounds: number;
  /** Measured rounds of each read, over all generations. */
  rounds: number;
  /** Sets of three server processes, each started fresh and measured for its share of the rounds. */
  generations: number;
  secondsPerRound: number;
  memoryRequests: number;
  /** Writes CPU profiles of the servers (their whole lives) into `product/`, `bare/` and `control/` of this directory. */
  profileDir?: string;
}): Promise<{
  throughput: ThroughputResult;
  memory: MemoryResult;
  served: { product: number; bare: number };
}> => {
  // The servers run on this Node. Lambda's (nodejs24.x) keeps AsyncLocalStorage in V8's context
  // frames; before Node 24 it runs on promise hooks, which cost the product's detail ~75 µs more
  // under load and the bare handler nothing (docs/performance.md, "Issue 27, twelfth pass").
  if (Number(process.versions.node.split('.')[0]) < 24)
    throw new Error(
      `section 4 needs Node 24, Lambda's runtime (this is ${process.version}): run it with npm run bench`,
    );
  const profile = (mode: string) => (opts.profileDir ? join(opts.profileDir, mode) : undefined);
  const bundle = await bundleServer();
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency * 2 });
  const headers = { authorization: opts.authorization, clientid: opts.tenantId };
  /** Every request each role's servers answered, warm-ups included (a profile covers its server's whole life). */
  const served = { product: 0, bare: 0, control: 0 };
  const measured = opts.targets.map(() => ({
    rps: { product: [] as number[], bare: [] as number[], control: [] as number[] },
    cpu: { product: 0, bare: 0, control: 0 },
    latencies: { product: [] as number[], bare: [] as number[] },
  }));
  const perGeneration = Math.ceil(opts.rounds / opts.generations);
  let memory: MemoryResult | undefined;
  try {
    for (let g = 0; g < opts.generations; g++) {
      const servers = new Map<Role, ServerProcess>();
      try {
        for (const role of ROLES)
          servers.set(
            role,
            await ServerProcess.start(bundle, role === 'product' ? 'product' : 'bare', profile(role)),
          );
        const run = async (role: Role, path: string, limit: { seconds?: number; count?: number }) => {
          const server = servers.get(role) as ServerProcess;
          const result = await load(agent, server.url + path, headers, opts.concurrency, limit);
          served[role] += result.requests;
          return result;
        };
        // Warm them, in turns as the measured rounds go: module load, V8's compiler (the product has
        // more code to optimise: a short warm-up measured its compiler threads), connections, the
        // product's token cache, and, in the first generation, DynamoDB Local's JIT.
        const warmRounds = g === 0 ? opts.warmRounds : opts.rewarmRounds;
        for (const { path } of opts.targets) {
          const bar = progress(`throughput warm-up, generation ${g + 1}/${opts.generations}`);
          for (let r = 0; r < warmRounds; r++) {
            for (const role of orderOf(r)) await run(role, path, { seconds: opts.secondsPerRound });
            bar.update(r + 1, warmRounds);
          }
          bar.done(`${warmRounds} rounds of ${opts.secondsPerRound} s per server`);
        }
        const rounds = Math.min(perGeneration, opts.rounds - g * perGeneration);
        for (const [t, target] of opts.targets.entries()) {
          const m = measured[t] as (typeof measured)[number];
          const bar = progress(`throughput rounds, ${target.name}, generation ${g + 1}/${opts.generations}`);
          for (let i = 0; i < rounds; i++) {
            for (const role of orderOf(g * perGeneration + i)) {
              const server = servers.get(role) as ServerProcess;
              const cpuBefore = (await server.stats(false)).cpuMs;
              const result = await run(role, target.path, { seconds: opts.secondsPerRound });
              m.cpu[role] += ((await server.stats(false)).cpuMs - cpuBefore) / result.requests / opts.rounds;
              m.rps[role].push(result.requests / result.seconds);
              m.latencies[role === 'product' ? 'product' : 'bare'].push(...result.latencies);
            }
            const [p, b, c] = ROLES.map((role) => Math.round(m.rps[role].at(-1) ?? 0));
            bar.update(i + 1, rounds, `(${p} vs ${b} and ${c} req/s)`);
          }
          bar.done(`${rounds} rounds of ${opts.secondsPerRound} s per server`);
        }
        if (g === opts.generations - 1)
          memory = await measureMemory(
            servers.get('product') as ServerProcess,
            servers.get('bare') as ServerProcess,
            (count) => run('product', opts.targets[0]?.path ?? '/', { count }),
            opts.memoryRequests,
          );
      } finally {
        await Promise.all([...servers.values()].map((s) => s.stop()));
      }
    }
  } finally {
    agent.destroy();
  }
  const replays = await measureReplays(bundle, headers, opts.targets, opts.replayRounds, opts.concurrency);

  const targets: ThroughputTarget[] = opts.targets.map(({ replayPerRound, ...target }, t) => {
    const { rps, cpu, latencies } = measured[t] as (typeof measured)[number];
    const replay = replays[t] as ReplayResult;
    const bareRps = rps.bare.map((v, i) => (v + (rps.control[i] as number)) / 2);
    return {
      ...target,
      productRps: rps.product,
      bareRps,
      firstBareRps: rps.bare,
      secondBareRps: rps.control,
      productMedianRps: median(rps.product),
      bareMedianRps: median(bareRps),
      ratio: median(rps.product.map((v, i) => v / (bareRps[i] as number))),
      control: median(rps.control.map((v, i) => v / (rps.bare[i] as number))),
      productCpuMs: cpu.product,
      bareCpuMs: (cpu.bare + cpu.control) / 2,
      productP50: percentile(latencies.product, 50),
      productP99: percentile(latencies.product, 99),
      bareP50: percentile(latencies.bare, 50),
      bareP99: percentile(latencies.bare, 99),
      replay: {
        rounds: opts.replayRounds,
        perRound: replayPerRound,
        ...replay,
        productMedianUs: median(replay.productUs),
        bareMedianUs: median(replay.bareUs),
        ratio: median(replay.productUs.map((v, i) => v / (replay.bareUs[i] as number))),
      },
    };
  });
  return {
    served: { product: served.product, bare: served.bare },
    throughput: {
      concurrency: opts.concurrency,
      warmRounds: opts.warmRounds,
      rewarmRounds: opts.rewarmRounds,
      rounds: opts.rounds,
      generations: opts.generations,
      secondsPerRound: opts.secondsPerRound,
      targets,
    },
    memory: memory as MemoryResult,
  };
};
