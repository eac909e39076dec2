import type { IndexSpec } from '../shared/store/table-schema';
import type { BundleTiming, ColdStartResult } from './cold-start';
import type { DeepPagesResult } from './deep-pages';
import type { ImportBench, UnitsPerTicket } from './import';
import type { AccountingCase } from './local-accounting';
import {
  BULK_MIX,
  BULK_OPERATION,
  BULK_SINGLES,
  type CapacitySummary,
  type OperationGoal,
  type OperationResult,
} from './operations';
import type { SearchBench } from './search';
import type { SeedResult } from './seed';
import type { SigningResult } from './signing';
import { round } from './stats';
import type { MemoryResult, ThroughputResult, ThroughputTarget } from './throughput';
import type { UnitSplit } from './unit-split';

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
  /**
   * The indexes AWS units were computed for: the bench table's own (DescribeTable), and where
   * they differ from what shared/store/table-schema.ts declares (ALL_INDEXES).
   */
  awsRules?: { indexes: IndexSpec[]; differsFromSchema: string[] };
  /** DynamoDB Local's reported units beside AWS's rules on a scratch table (local-accounting.ts). */
  localAccounting?: AccountingCase[];
  seed?: SeedResult & { tenantTickets: number };
  operations?: OperationResult[];
  deepPages?: DeepPagesResult;
  coldStart?: ColdStartResult;
  throughput?: ThroughputResult;
  /** Section 4: a store call's CPU with our SHA-256 against the SDK's own (bench/signing.ts). */
  signing?: SigningResult;
  memory?: MemoryResult;
  search?: SearchBench;
  /** Section 7: an import job against the same tickets through the API (bench/import.ts). */
  import?: ImportBench;
  goals: Goal[];
}

export interface Goal {
  name: string;
  target: string;
  actual: string;
  pass: boolean;
}

export const BUNDLE_LIMIT_BYTES = 500_000;
/** A function's cold start against the bare bundled DynamoDB handler (the brief: within 1.25×). */
export const COLD_START_RATIO = 1.25;
/** Requests per second of the local server against the bare handler, same reads (issue 27). */
export const THROUGHPUT_RATIO = 0.9;
/** p99 latency of the local server against the bare handler at the same concurrency (issue 27). */
export const P99_RATIO = 1.2;
/**
 * How far the second bare server may drift from the first (the same code) before a run is too
 * noisy to judge the two goals above: a ratio's verdict is only as good as its control.
 */
export const CONTROL_DRIFT = 0.05;

const controlHolds = (t: ThroughputTarget) => Math.abs(t.control - 1) <= CONTROL_DRIFT;
const CONTROL_TARGET = `×${1 - CONTROL_DRIFT}–${1 + CONTROL_DRIFT}`;

const p99Ratio = (t: ThroughputTarget) => t.productP99 / t.bareP99;

const kb = (bytes: number) => `${Math.round(bytes / 1000)} KB`;
const mb = (bytes: number) => `${Math.round(bytes / 1_000_000)} MB`;
const ms = (value: number) => `${round(value, 1)} ms`;
const x = (value: number) => `×${round(value, 2).toFixed(2)}`;
const pct = (value: number) => `${round(value * 100, 1)} %`;

/** Each limit of an operation's goal against what it measured (requests; AWS read and write units). */
export const operationChecks = (
  o: OperationResult,
): { what: string; unit: string; target: string; actual: string; pass: boolean }[] => {
  const g: OperationGoal = o.goal ?? {};
  const checks = [];
  if (g.requests !== undefined)
    checks.push({
      what: 'requests',
      unit: 'requests',
      target: `≤ ${g.requests}`,
      actual: String(o.totalRequests),
      pass: o.totalRequests <= g.requests,
    });
  for (const [key, what, unit] of [
    ['readUnits', 'AWS read units', 'RCU'],
    ['writeUnits', 'AWS write units', 'WCU'],
  ] as const) {
    const limit = g[key];
    if (limit === undefined) continue;
    checks.push({
      what,
      unit,
      target: `≤ ${limit}`,
      actual: String(round(o.aws[key], 1)),
      pass: o.aws[key] <= limit,
    });
  }
  return checks;
};

/** A bulk operation may cost at most this much more than the same operation sent alone (issue 24). */
const BULK_UNIT_RATIO = 1.1;

/** The bulk call's write units and latency against its operations' single rows, BULK_MIX / 4 of each. */
const bulkComparison = (operations: OperationResult[]) => {
  const bulk = operations.find((o) => o.name === BULK_OPERATION);
  const singles = BULK_SINGLES.map((name) => operations.find((o) => o.name === name));
  if (!bulk || singles.some((o) => !o)) return undefined;
  const each = BULK_MIX / BULK_SINGLES.length;
  const singleUnits = each * singles.reduce((a, o) => a + (o?.aws.writeUnits ?? 0), 0);
  const singleMs = each * singles.reduce((a, o) => a + (o?.medianMs ?? 0), 0);
  return {
    bulkUnits: bulk.aws.writeUnits,
    singleUnits,
    unitRatio: bulk.aws.writeUnits / singleUnits,
    bulkMs: bulk.medianMs,
    singleMs,
  };
};

export const evaluateGoals = (r: Omit<Results, 'goals'>): Goal[] => {
  const goals: Goal[] = [];
  for (const o of r.operations ?? []) {
    for (const c of operationChecks(o))
      goals.push({ name: `${o.name}: ${c.what}`, target: c.target, actual: c.actual, pass: c.pass });
  }
  const bulk = bulkComparison(r.operations ?? []);
  if (bulk) {
    goals.push({
      name: `bulk: write units per operation / the single routes'`,
      target: `≤ ${BULK_UNIT_RATIO}`,
      actual: x(bulk.unitRatio),
      pass: bulk.unitRatio <= BULK_UNIT_RATIO,
    });
  }
  if (r.deepPages) {
    goals.push({
      name: `deep page ${r.deepPages.page} (nextQuery) / page 1, median latency`,
      target: '≤ 1.3',
      actual: x(r.deepPages.ratio),
      pass: r.deepPages.ratio <= 1.3,
    });
  }
  if (r.coldStart) {
    const fns = r.coldStart.bundles.filter((b) => b.kind === 'function');
    const slow = fns.filter((b) => b.ratio > COLD_START_RATIO);
    const big = fns.filter((b) => b.bytes > BUNDLE_LIMIT_BYTES);
    const worst = fns.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    const biggest = fns.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    goals.push({
      name: 'cold start / baseline, every function',
      target: `≤ ${COLD_START_RATIO}`,
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
  for (const t of r.throughput?.targets ?? []) {
    goals.push({
      name: `${t.name} req/s: local server / bare handler`,
      target: `≥ ${THROUGHPUT_RATIO}`,
      actual: x(t.ratio),
      pass: t.ratio >= THROUGHPUT_RATIO,
    });
    goals.push({
      name: `${t.name} control: second bare server / first (the run's noise)`,
      target: CONTROL_TARGET,
      actual: x(t.control),
      pass: controlHolds(t),
    });
    goals.push({
      name: `${t.name} p99 latency: local server / bare handler`,
      target: `≤ ${P99_RATIO}`,
      actual: `${x(p99Ratio(t))} (${round(t.productP99, 1)} ms vs ${round(t.bareP99, 1)} ms)`,
      pass: p99Ratio(t) <= P99_RATIO,
    });
  }
  if (r.signing) {
    goals.push({
      name: "a store call's CPU: our SHA-256 / the SDK's own (shared/aws/sha256.ts)",
      target: '< 1',
      actual: `${x(r.signing.ratio)} (${round(r.signing.oursMedianUs, 1)} vs ${round(r.signing.sdkMedianUs, 1)} µs)`,
      pass: r.signing.ratio < 1,
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
  if (r.import) {
    const i = r.import;
    goals.push({
      name: `import: write units per ticket / POST /ticket/insert's (AWS units, ${i.repliesPerTicket} replies)`,
      target: `≤ ${IMPORT_UNIT_RATIO}`,
      actual: `${x(i.unitRatio)} (${i.units.writeUnitsPerTicket} vs ${i.api.units.writeUnits} WCU)`,
      pass: i.unitRatio <= IMPORT_UNIT_RATIO,
    });
    goals.push({
      name: `import of ${i.tickets} tickets: DynamoDB Local's share of the CPU (it + this process)`,
      target: `≥ ${pct(IMPORT_STORE_SHARE)}`,
      actual: pct(i.cpu.storeShare),
      pass: i.cpu.storeShare >= IMPORT_STORE_SHARE,
    });
  }
  for (const f of r.search?.freshness ?? [])
    goals.push({
      name: `search freshness on ${f.engine}: commit → searchable, p99 at ${f.writesPerSecond} writes/s`,
      target: `≤ ${SEARCH_FRESHNESS_P99_MS} ms`,
      actual: `${f.p99Ms} ms`,
      pass: f.p99Ms <= SEARCH_FRESHNESS_P99_MS,
    });
  for (const q of r.search?.scale?.queries ?? [])
    goals.push({
      name: `search at ${r.search?.scale?.tickets} tickets, ${q.tenant} tenant: ${q.shape}, p95`,
      target: `≤ ${SEARCH_P95_MS} ms`,
      actual: `${q.p95Ms} ms`,
      pass: q.p95Ms <= SEARCH_P95_MS,
    });
  return goals;
};

/** Issue 24: an imported ticket may cost at most this much more in write units than the same ticket through the API. */
export const IMPORT_UNIT_RATIO = 1.1;
/** Issue 24: the local import's CPU profile dominated by the store (DynamoDB Local's share of both processes' CPU). */
export const IMPORT_STORE_SHARE = 0.5;

/** Issue 23: a write is searchable within 2 s (p99) under a steady load. */
export const SEARCH_FRESHNESS_P99_MS = 2000;
/** Issue 23: a search answers within 100 ms (p95) at a million tickets, on native PostgreSQL. */
export const SEARCH_P95_MS = 100;

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;

const units = (value: number) => String(round(value, 1));
const bytes = (value: number) => (value < 1024 ? `${value} B` : `${round(value / 1024, 1)} KB`);

/** The upper bound, when it differs: a transaction's index writes doubled like its item writes. */
const doubledText = (o: OperationResult): string =>
  o.aws.conservativeWriteUnits > o.aws.writeUnits
    ? ` [${units(o.aws.conservativeWriteUnits)} WCU were index writes of transactions doubled]`
    : '';

/** `3.5 RCU (table 0.5, list 3), 0 WCU`: where the units went, when any went to an index. */
const capacityText = (c: CapacitySummary): string => {
  const where = (kind: 'read' | 'write') => {
    const parts = [
      ['table', c.split.table[kind]] as const,
      ...Object.entries(c.split.indexes)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, u]) => [name, u[kind]] as const),
    ].filter(([, n]) => n > 0);
    return parts.length > 1 || (parts.length === 1 && parts[0]?.[0] !== 'table')
      ? ` (${parts.map(([name, n]) => `${name} ${units(n)}`).join(', ')})`
      : '';
  };
  return `${units(c.readUnits)} RCU${where('read')}, ${units(c.writeUnits)} WCU${where('write')}`;
};

/** `table 2 WCU, all 2 WCU, inc 1 WCU`: every place a request spent units on. */
const splitText = (split: UnitSplit): string => {
  const parts = [
    ['table', split.table] as const,
    ...Object.entries(split.indexes).sort(([a], [b]) => a.localeCompare(b)),
  ].flatMap(([name, u]) => [
    ...(u.read > 0 ? [`${name} ${units(u.read)} RCU`] : []),
    ...(u.write > 0 ? [`${name} ${units(u.write)} WCU`] : []),
  ]);
  return parts.join(', ') || 'nothing';
};

/** The items one call wrote (by kind, largest image) or read (by command and index), on AWS's units. */
const itemsText = (o: OperationResult): string => {
  const written = o.aws.written
    .slice(0, 4)
    .map(
      (w) =>
        `${w.entity}${w.items > 1 ? ` ×${w.items}` : ''} ≤ ${bytes(w.largestBytes)} = ${units(w.units)} WCU`,
    );
  const read = o.aws.read.map((r) => {
    const page = r.command === 'Query' || r.command === 'Scan';
    const noun = page ? (r.items === 1 ? 'entry' : 'entries') : r.items === 1 ? 'item' : 'items';
    return `${r.command}${r.index ? ` ${r.index}` : ''} ${r.items} ${noun} ${bytes(r.bytes)} = ${units(r.units)} RCU`;
  });
  const more = o.aws.written.length > 4 ? ` and ${o.aws.written.length - 4} more kinds` : '';
  return (
    [
      ...(written.length ? [`wrote ${written.join(', ')}${more}`] : []),
      ...(read.length ? [`read ${read.join(', ')}`] : []),
    ].join('; ') || 'no items'
  );
};

const check = (pass: boolean) => (pass ? 'yes' : '**NO**');

const bundleRow = (b: BundleTiming): string[] => [
  'cold start',
  b.name,
  `${kb(b.bytes)}; start ${ms(b.processMedianMs)} (${x(b.ratio)}); import ${ms(b.importMedianMs)} (${x(b.importRatio)})`,
  b.kind === 'function' ? `≤ ×${COLD_START_RATIO}, ≤ 500 KB` : '',
  b.kind === 'function' ? check(b.ratio <= COLD_START_RATIO && b.bytes <= BUNDLE_LIMIT_BYTES) : '',
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
    const checks = operationChecks(o);
    add([
      'requests',
      o.name,
      `${requests} = **${o.totalRequests}**; AWS ${capacityText(o.aws)}${doubledText(o)}; Local ${capacityText(o.local)}; ` +
        `${itemsText(o)}; ${ms(o.medianMs)}${o.stable ? '' : ' (varies)'}; ` +
        `≈ $${o.costPerMillion.total.toFixed(2)} per million`,
      checks.map((c) => `${c.target} ${c.unit}`).join(', '),
      checks.length ? check(checks.every((c) => c.pass)) : '',
    ]);
  }
  if (r.operations?.length) {
    add([
      'requests',
      'note',
      "AWS: units by AWS's rules from the items' actual sizes (a transaction's item writes doubled, its index writes " +
        'not; [brackets]: the upper bound were they doubled too); Local: what DynamoDB Local reported (docs/performance.md ' +
        'says how it differs). A related record (customer, agent, lookup) of a page costs 0.5 RCU on AWS, as BatchGetItem ' +
        'rounds every item up to 4 KB: a page of 25 tickets pointing at 20 customers pays ~10 RCU for them whatever the ' +
        'index design, so the read-unit goals are held on pages of tickets that share their references.',
      '',
      '',
    ]);
  }
  const bulk = bulkComparison(r.operations ?? []);
  if (bulk) {
    add([
      'requests',
      `bulk: ${BULK_MIX} operations in one call vs as ${BULK_MIX} single requests`,
      `AWS ${round(bulk.bulkUnits / BULK_MIX, 2)} vs ${round(bulk.singleUnits / BULK_MIX, 2)} WCU an operation ` +
        `(${x(bulk.unitRatio)}); median ${ms(bulk.bulkMs)} a call, ${ms(bulk.bulkMs / BULK_MIX)} an operation, ` +
        `vs ${ms(bulk.singleMs / BULK_MIX)} a single request (in process, no HTTP)`,
      `≤ ×${BULK_UNIT_RATIO} WCU`,
      check(bulk.unitRatio <= BULK_UNIT_RATIO),
    ]);
  }
  for (const c of r.localAccounting ?? []) {
    add(['accounting', c.name, `AWS ${splitText(c.aws)}; Local ${splitText(c.local)}`, '', '']);
  }
  if (r.deepPages) {
    const d = r.deepPages;
    const cost = (c: DeepPagesResult['page1Cost']) =>
      `${c.requests}; AWS ${round(c.awsReadUnits, 1)} RCU, Local ${round(c.readUnits, 1)} RCU`;
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
    const order = { baseline: 0, function: 1, variant: 2, library: 3 } as const;
    const bundles = [...r.coldStart.bundles].sort(
      (a, b) => order[a.kind] - order[b.kind] || a.name.localeCompare(b.name),
    );
    for (const b of bundles) add(bundleRow(b));
  }
  for (const t of r.throughput?.targets ?? []) {
    const { concurrency, rounds, secondsPerRound } = r.throughput as ThroughputResult;
    add([
      'overhead',
      `${t.name}, concurrency ${concurrency}, ${rounds}×${secondsPerRound} s`,
      `local server ${round(t.productMedianRps, 0)} req/s, bare ${round(t.bareMedianRps, 0)} req/s (${x(t.ratio)}); server CPU ${round(t.productCpuMs, 2)} vs ${round(t.bareCpuMs, 2)} ms a request`,
      `≥ ×${THROUGHPUT_RATIO}`,
      check(t.ratio >= THROUGHPUT_RATIO),
    ]);
    add([
      'overhead',
      `${t.name}, control: the second bare server against the first`,
      x(t.control),
      CONTROL_TARGET,
      check(controlHolds(t)),
    ]);
    add([
      'overhead',
      `${t.name}, latency p50 / p99`,
      `local server ${round(t.productP50, 1)} / ${round(t.productP99, 1)} ms, bare ${round(t.bareP50, 1)} / ${round(t.bareP99, 1)} ms (p99 ${x(p99Ratio(t))})`,
      `p99 ≤ ×${P99_RATIO}`,
      check(p99Ratio(t) <= P99_RATIO),
    ]);
    const { replay } = t;
    add([
      'overhead',
      `${t.name}, CPU a request in one process, the store's answers replayed, ${replay.rounds}×${replay.perRound}`,
      `product ${round(replay.productMedianUs, 0)} µs, bare ${round(replay.bareMedianUs, 0)} µs (${x(replay.ratio)})`,
      '',
      '',
    ]);
  }
  if (r.signing) {
    const g = r.signing;
    add([
      'overhead',
      `a store call (GetItem answered from memory), signed with our SHA-256 / the SDK's own, ${g.rounds}×${g.calls}`,
      `${round(g.oursMedianUs, 1)} vs ${round(g.sdkMedianUs, 1)} µs a call (${x(g.ratio)})`,
      '< ×1',
      check(g.ratio < 1),
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
  const s = r.search;
  if (s?.scale) {
    add([
      'search',
      `corpus: ${s.scale.tickets} tickets (5 replies each) in ${s.scale.tenants} tenants, one of ${s.scale.bigTenant}`,
      `loaded in ${s.scale.loadSeconds} s; ${Math.round(s.scale.bytesPerTicket)} bytes a ticket (table, TOAST, indexes)`,
      '',
      '',
    ]);
    for (const q of s.scale.queries)
      add([
        'search',
        `${q.shape} (${q.tenant} tenant, ~${q.matches} matches)`,
        `p50 ${q.p50Ms} ms, p95 ${q.p95Ms} ms`,
        `p95 ≤ ${SEARCH_P95_MS} ms`,
        check(q.p95Ms <= SEARCH_P95_MS),
      ]);
  }
  for (const i of s?.indexing ?? [])
    add([
      'search',
      `indexing on ${i.engine} (${i.tickets} tickets, 4 at a time)`,
      `${i.perSecond} tickets/s`,
      '',
      '',
    ]);
  for (const f of s?.freshness ?? [])
    add([
      'search',
      `freshness on ${f.engine}, ${f.writesPerSecond} writes/s`,
      `p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms (max ${f.maxMs})`,
      `p99 ≤ ${SEARCH_FRESHNESS_P99_MS} ms`,
      check(f.p99Ms <= SEARCH_FRESHNESS_P99_MS),
    ]);
  if (r.import) for (const cells of importRows(r.import)) add(cells);
  return lines.join('\n');
};

/** `TICKET 1 = 12 WCU, TICKET_REPLY 5 = 10 WCU, …`: a ticket's items by kind, the largest first. */
const writtenText = (u: UnitsPerTicket, top = 5): string => {
  const shown = u.written
    .slice(0, top)
    .map((w) => `${w.entity}${w.items === 1 ? '' : ` ×${round(w.items, 2)}`} = ${units(w.units)}`);
  const rest = u.written.slice(top).reduce((sum, w) => sum + w.units, 0);
  return `${shown.join(', ')}${rest > 0 ? `, others ${units(rest)}` : ''}`;
};

const requestsText = (requests: Record<string, number>): string =>
  Object.entries(requests)
    .map(([command, n]) => `${command} ${round(n, 2)}`)
    .join(', ');

const importRows = (i: ImportBench): string[][] => {
  const share = check(i.cpu.storeShare >= IMPORT_STORE_SHARE);
  return [
    [
      'import',
      `${i.tickets} tickets (${i.repliesPerTicket} replies each), ${i.agents} agents, ${i.customers} customers: ` +
        `${i.lines} lines, ${mb(i.fileBytes)}`,
      `${round(i.ticketsPerSecond, 0)} tickets/s, ${round(i.linesPerSecond, 0)} lines/s ` +
        `(${round(i.importMs / 1000, 1)} s from start to completed, ${i.steps} worker steps, one consumer; ` +
        `upload ${round(i.uploadMs / 1000, 1)} s); DynamoDB requests a ticket: ${requestsText(i.requestsPerTicket)} ` +
        `= **${i.totalRequestsPerTicket}**${i.cpu.profiled ? ' (profiled)' : ''}`,
      '',
      '',
    ],
    [
      'import',
      `write units a ticket, import vs POST /ticket/insert (${i.units.tickets} and ${i.api.tickets} tickets metered)`,
      `AWS import **${units(i.units.writeUnitsPerTicket)} WCU** (ticket lines ${units(i.units.ticketLines.writeUnits)}, ` +
        `agents and customers ${units(i.units.records.writeUnits)}) vs API **${units(i.api.units.writeUnits)} WCU** ` +
        `(${x(i.unitRatio)}; ticket lines alone ${x(i.ticketLineUnitRatio)}); ` +
        `import wrote ${writtenText(i.units.ticketLines)}; API wrote ${writtenText(i.api.units)}; ` +
        `read units a ticket: import ${units(i.units.records.readUnits + i.units.ticketLines.readUnits)}, API ${units(i.api.units.readUnits)}`,
      `≤ ×${IMPORT_UNIT_RATIO}`,
      check(i.unitRatio <= IMPORT_UNIT_RATIO),
    ],
    [
      'import',
      'CPU over the import: this process vs DynamoDB Local',
      `node ${round(i.cpu.nodeMsPerTicket, 2)} ms a ticket (${round(i.cpu.nodeMs / 1000, 1)} s), DynamoDB Local ` +
        `${round(i.cpu.storeMsPerTicket, 2)} ms a ticket (${round(i.cpu.storeMs / 1000, 1)} s): the store's share ` +
        `${pct(i.cpu.storeShare)}; ${round(i.cpu.coresBusy, 2)} cores busy`,
      `store ≥ ${pct(IMPORT_STORE_SHARE)}`,
      share,
    ],
    [
      'import',
      `the same tickets through POST /ticket/insert, ${i.api.concurrency} at once`,
      `${round(i.api.ticketsPerSecond, 0)} tickets/s (in process, no HTTP); CPU a ticket: node ` +
        `${round(i.api.nodeMsPerTicket, 2)} ms, DynamoDB Local ${round(i.api.storeMsPerTicket, 2)} ms; ` +
        `DynamoDB requests a ticket: ${requestsText(i.api.units.requests)}`,
      '',
      '',
    ],
  ];
};
