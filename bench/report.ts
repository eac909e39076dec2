import type { BundleTiming, ColdStartResult } from './cold-start';
import type { DeepPagesResult } from './deep-pages';
import type { OperationResult } from './operations';
import type { SeedResult } from './seed';
import { round } from './stats';
import type { MemoryResult, ThroughputResult } from './throughput';

/** The whole run, as written to bench/results/latest.json (format: docs/performance.md). */
export interface Results {
  version: 1;
  startedAt: string;
  durationSeconds: number;
  quick: boolean;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryBytes: number;
    platform: string;
    node: string;
    java: string;
    dynamodbLocal: string;
    /** os.loadavg() (1, 5, 15 min) at the start and the end: other work on the machine skews timings. */
    loadAverage: { start: number[]; end: number[] };
  };
  /** Whether DynamoDB Local returned ConsumedCapacity (it does, with ReturnConsumedCapacity). */
  capacityReported: boolean;
  seed?: SeedResult & { tenantTickets: number };
  operations?: OperationResult[];
  deepPages?: DeepPagesResult;
  coldStart?: ColdStartResult;
  throughput?: ThroughputResult;
  memory?: MemoryResult;
  goals: Goal[];
}

export interface Goal {
  name: string;
  target: string;
  actual: string;
  pass: boolean;
}

export const BUNDLE_LIMIT_BYTES = 500_000;

const kb = (bytes: number) => `${Math.round(bytes / 1000)} KB`;
const mb = (bytes: number) => `${Math.round(bytes / 1_000_000)} MB`;
const ms = (value: number) => `${round(value, 1)} ms`;
const x = (value: number) => `×${round(value, 2).toFixed(2)}`;
const pct = (value: number) => `${round(value * 100, 1)} %`;

export const evaluateGoals = (r: Omit<Results, 'goals'>): Goal[] => {
  const goals: Goal[] = [];
  if (r.deepPages) {
    goals.push({
      name: `deep page ${r.deepPages.page} (nextQuery) / page 1, median latency`,
      target: '≤ 1.3',
      actual: x(r.deepPages.ratio),
      pass: r.deepPages.ratio <= 1.3,
    });
  }
  if (r.coldStart) {
    const fns = r.coldStart.bundles.filter((b) => b.kind === 'function' && b.nodeFlags.length > 0);
    const slow = fns.filter((b) => b.ratio > 1.3);
    const big = fns.filter((b) => b.bytes > BUNDLE_LIMIT_BYTES);
    const worst = fns.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    const biggest = fns.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    goals.push({
      name: 'cold start / baseline, every function',
      target: '≤ 1.3',
      actual: `worst ${worst.name} ${x(worst.ratio)}; ${slow.length}/${fns.length} over`,
      pass: slow.length === 0,
    });
    goals.push({
      name: 'bundle size, every function',
      target: `≤ ${kb(BUNDLE_LIMIT_BYTES)}`,
      actual: `largest ${biggest.name} ${kb(biggest.bytes)}; ${big.length}/${fns.length} over`,
      pass: big.length === 0,
    });
  }
  if (r.throughput) {
    goals.push({
      name: 'ticket detail req/s: local server / bare handler',
      target: '≥ 0.85',
      actual: x(r.throughput.ratio),
      pass: r.throughput.ratio >= 0.85,
    });
  }
  if (r.memory) {
    goals.push({
      name: `heap growth over ${r.memory.requests} requests`,
      target: '< 10 %',
      actual: pct(r.memory.growth),
      pass: r.memory.growth < 0.1,
    });
  }
  return goals;
};

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const check = (pass: boolean) => (pass ? 'yes' : '**NO**');

const bundleRow = (b: BundleTiming): string[] => [
  'cold start',
  b.name,
  `${kb(b.bytes)}; start ${ms(b.processMedianMs)} (${x(b.ratio)}); import ${ms(b.importMedianMs)} (${x(b.importRatio)})`,
  b.kind === 'function' && b.nodeFlags.length > 0 ? '≤ ×1.30, ≤ 500 KB' : '',
  b.kind === 'function' && b.nodeFlags.length > 0
    ? check(b.ratio <= 1.3 && b.bytes <= BUNDLE_LIMIT_BYTES)
    : '',
];

/** One Markdown table of the whole run (stdout; pasted into docs/performance.md). */
export const renderTable = (r: Results): string => {
  const lines = [
    row(['section', 'measure', 'result', 'goal', 'met']),
    row(['---', '---', '---', '---', '---']),
  ];
  const add = (cells: string[]) => lines.push(row(cells));
  if (r.seed) {
    add([
      'seed',
      `${r.seed.tenantTickets} tickets in one tenant`,
      `${r.seed.real.tickets} by insertTicket at ${round(r.seed.real.perSecond, 0)}/s, ` +
        `${r.seed.bulk.tickets} in bulk at ${round(r.seed.bulk.perSecond, 0)}/s`,
      '',
      '',
    ]);
  }
  for (const o of r.operations ?? []) {
    const requests = Object.entries(o.requests)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
    add([
      'requests',
      o.name,
      `${requests} = **${o.totalRequests}**; ${round(o.readUnits, 1)} RCU, ${round(o.writeUnits, 1)} WCU` +
        `${o.indexUnits > 0 ? ` (${round(o.indexUnits, 1)} on indexes)` : ''}; ` +
        `${ms(o.medianMs)}${o.stable ? '' : ' (varies)'}; ≈ $${o.costPerMillion.total.toFixed(2)} per million`,
      '',
      '',
    ]);
  }
  if (r.deepPages) {
    const d = r.deepPages;
    const cost = (c: DeepPagesResult['page1Cost']) => `${c.requests}; ${round(c.readUnits, 1)} RCU`;
    add(['deep pages', 'page 1, median', `${ms(d.page1MedianMs)} (${cost(d.page1Cost)})`, '', '']);
    add([
      'deep pages',
      `page ${d.page} via nextQuery, median`,
      `${ms(d.deepMedianMs)} (${x(d.ratio)}; ${cost(d.deepCost)})`,
      '≤ ×1.30',
      check(d.ratio <= 1.3),
    ]);
    add([
      'deep pages',
      `index Query alone: page 1 / page ${d.page}, medians`,
      `${ms(d.rawPage1MedianMs)} / ${ms(d.rawDeepMedianMs)} (${x(d.rawRatio)}): DynamoDB Local's share`,
      '',
      '',
    ]);
    add(['deep pages', `?page=${d.page} without cursor, median`, ms(d.barePageMedianMs), '', '']);
  }
  if (r.coldStart) {
    const order = { baseline: 0, library: 2, function: 1 } as const;
    const bundles = [...r.coldStart.bundles].sort(
      (a, b) => order[a.kind] - order[b.kind] || a.name.localeCompare(b.name),
    );
    for (const b of bundles) add(bundleRow(b));
  }
  if (r.throughput) {
    const t = r.throughput;
    add([
      'overhead',
      `ticket detail, concurrency ${t.concurrency}, ${t.rounds}×${t.secondsPerRound} s`,
      `local server ${round(t.productMedianRps, 0)} req/s, bare ${round(t.bareMedianRps, 0)} req/s (${x(t.ratio)})`,
      '≥ ×0.85',
      check(t.ratio >= 0.85),
    ]);
  }
  if (r.memory) {
    const m = r.memory;
    add([
      'memory',
      `heap after GC, ${m.requests} requests`,
      `${mb(m.heapBefore)} → ${mb(m.heapAfter)} (${pct(m.growth)})${m.gcAvailable ? '' : ' (no --expose-gc)'}`,
      '< 10 %',
      check(m.growth < 0.1),
    ]);
    add([
      'memory',
      'peak RSS of the server process',
      `local server ${mb(m.productPeakRss)}, bare ${mb(m.barePeakRss)}`,
      '',
      '',
    ]);
  }
  return lines.join('\n');
};
