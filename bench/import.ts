import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import {
  createWriteStream,
  mkdtempSync,
  openAsBlob,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { findSourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { sqsRecord } from '../local/event-pipeline';
import { invoke } from '../local/invoke';
import { lambdaContext, loadHandler } from '../local/lambda-runtime';
import { startS3Local } from '../local/s3-local';
import { startSqsLocal } from '../local/sqs-local';
import { clientFor, newTenant, type Tenant, type TenantClient } from '../local/tenant';
import { resetConfig } from '../shared/config';
import { IMPORT_MEDIA_TYPE } from '../shared/http/import-answer';
import { resetSqs } from '../shared/queue/sqs';
import { readImportJob } from '../shared/store/imports';
import { IMPORT_STEP_TIMEOUT_MS } from '../shared/workers';
import type { Meter, Usage } from './meter';
import { pool, progress, round } from './stats';
import { totalUnits, type UnitSplit } from './unit-split';

/**
 * Section 7 (`--only=import`): an import job (docs/import.md) of a generated help desk, through the
 * real routes (`POST /import`, the file PUT to its presigned address on the local S3 server,
 * `PUT /import/{id}/start`) and the real worker (functions/import-worker.ts), driven here by one
 * consumer loop of the local SQS server as Lambda's event source would (batches of one, the step
 * timeout of shared/workers.ts), without the rest of the event pipeline (no search indexer, no
 * webhook fan-out: their CPU is not the import's).
 *
 * Three runs:
 * - timed: `tickets` tickets (5 replies each, alternating agent and customer; 10 agents; one
 *   customer per 10 tickets) in one file: wall time from the start to the job's completion,
 *   DynamoDB requests, and the CPU time of this process and of DynamoDB Local's JVM over it
 *   (with `--profile`, a CPU profile of this process over the same stretch);
 * - metered: the same generator, `metered` tickets, in two jobs (the agents and customers, then
 *   the tickets), with AWS units computed for every write (bench/aws-metering.ts): its extra reads
 *   would skew the timed run, and a ticket's units do not depend on how many there are;
 * - the API: the same tickets through `POST /ticket/insert` (their replies inline, an
 *   Idempotency-Key each) in a tenant of their own, metered the same way, then timed 8 at a time.
 */

const AGENTS = 10;
const TICKETS_PER_CUSTOMER = 10;
const REPLIES = 5;
/** The tickets' insert dates start here, a minute apart; their replies an hour apart. */
const T0 = Date.UTC(2024, 0, 1, 8);
const MINUTE = 60_000;
const HOUR = 3_600_000;
/** Tickets inserted through the API at once in its timed pass (as the worker applies 8 lines at once). */
const API_CONCURRENCY = 8;

// ---------------------------------------------------------------------------------------------
// The generated help desk

/** A small deterministic PRNG (mulberry32): the same file for the same ticket numbers. */
const random = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const WORDS = (
  'invoice order payment refund account password login error page browser update version install ' +
  'printer network connection email address delivery shipping package tracking number customer ' +
  'support team request issue problem screen button settings profile subscription plan upgrade ' +
  'cancel renewal charge card bank transfer report export import file attachment upload download ' +
  'mobile app crash slow fast working broken again yesterday today morning please thanks help ' +
  'still waiting answer reply soon check confirm resolved closed opened week month quarter'
).split(' ');

/** Words until about `target` characters (within a word of it), the first capitalised, with a full stop. */
const text = (next: () => number, target: number): string => {
  const words: string[] = [];
  let length = 0;
  while (length < target - 1) {
    const word = WORDS[Math.floor(next() * WORDS.length)] as string;
    words.push(word);
    length += word.length + 1;
  }
  const sentence = words.join(' ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
};

/** The i-th ticket's texts: subject ~40 characters, description ~400, replies ~300. */
const ticketTexts = (i: number) => {
  const next = random(i + 1);
  return {
    subject: text(next, 40),
    description: text(next, 400),
    replies: Array.from({ length: REPLIES }, () => text(next, 300)),
  };
};

const agentOf = (i: number) => i % AGENTS;
const customerOf = (i: number) => Math.floor(i / TICKETS_PER_CUSTOMER);
/** Replies alternate: the agent first (the 1st, 3rd, 5th), then the customer. */
const fromAgent = (r: number) => r % 2 === 0;

const agentLine = (k: number) => ({
  kind: 'agent',
  externalId: `a${k}`,
  name: `Agent ${k}`,
  email: `agent${k}@import.example.com`,
});
const customerLine = (k: number) => ({
  kind: 'customer',
  externalId: `c${k}`,
  name: `Customer ${k}`,
  email: `customer${k}@import.example.com`,
});

const ticketLine = (i: number) => {
  const t = ticketTexts(i);
  const insertDate = T0 + i * MINUTE;
  const agent = { externalId: `a${agentOf(i)}` };
  return {
    kind: 'ticket',
    externalId: `t${i}`,
    subject: t.subject,
    description: t.description,
    insertDate,
    openedBy: { externalId: `c${customerOf(i)}` },
    assignedTo: agent,
    replies: t.replies.map((reply, r) => ({
      text: reply,
      replyDate: insertDate + (r + 1) * HOUR,
      replyFromOperator: fromAgent(r) ? agent : null,
    })),
  };
};

/** The same ticket as a POST /ticket/insert body, its references the API's ids. */
const apiTicket = (i: number, ids: { agents: string[]; customers: string[] }) => {
  const t = ticketTexts(i);
  const insertDate = T0 + i * MINUTE;
  const agent = { id: ids.agents[agentOf(i)] as string };
  return {
    subject: t.subject,
    description: t.description,
    openedBy: { id: ids.customers[customerOf(i)] as string },
    assignedTo: agent,
    replies: t.replies.map((reply, r) => ({
      text: reply,
      replyDate: insertDate + (r + 1) * HOUR,
      replyFromOperator: fromAgent(r) ? agent : null,
    })),
  };
};

const customersFor = (tickets: number) => Math.ceil(tickets / TICKETS_PER_CUSTOMER);

/** Writes an NDJSON file of the lines `parts` name, in order; answers its lines and bytes. */
const writeNdjson = async (
  file: string,
  parts: { agents?: boolean; customers?: number; tickets?: number },
): Promise<{ lines: number; bytes: number }> => {
  const out = createWriteStream(file);
  let lines = 0;
  const put = async (line: unknown) => {
    lines++;
    if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
  };
  if (parts.agents) for (let k = 0; k < AGENTS; k++) await put(agentLine(k));
  for (let k = 0; k < (parts.customers ?? 0); k++) await put(customerLine(k));
  for (let i = 0; i < (parts.tickets ?? 0); i++) await put(ticketLine(i));
  out.end();
  await once(out, 'close');
  return { lines, bytes: statSync(file).size };
};

// ---------------------------------------------------------------------------------------------
// The job, through the routes and the worker

interface JobEnd {
  status: string;
  totals: { read: number; created: number; skipped: number; failed: number };
  counts: Record<string, { read: number; created: number; skipped: number; failed: number }>;
  busyMs: number;
}

/** `POST /import` and the file PUT to its address: the job's id, and how long the upload took. */
const createAndUpload = async (
  api: TenantClient,
  file: string,
): Promise<{ jobId: string; uploadMs: number }> => {
  const created = await api.post('/import', undefined);
  if (created.status !== 201)
    throw new Error(`POST /import: ${created.status} ${JSON.stringify(created.body)}`);
  const began = performance.now();
  const put = await fetch(created.body.uploadUrl as string, {
    method: 'PUT',
    body: await openAsBlob(file),
    headers: { 'content-type': IMPORT_MEDIA_TYPE },
  });
  if (put.status !== 200) throw new Error(`upload: ${put.status} ${await put.text()}`);
  return { jobId: created.body.id as string, uploadMs: performance.now() - began };
};

type WorkerHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

interface Queue {
  sqs: SQSClient;
  url: string;
}

/**
 * `PUT /import/{id}/start`, then one consumer of the import queue (as local/event-pipeline.ts's:
 * batches of one, deleted unless reported failed) running the worker until the job has ended.
 * A failed step fails the bench (the queue would run it again after 15 minutes).
 */
const startAndRun = async (
  api: TenantClient,
  tenantId: string,
  jobId: string,
  queue: Queue,
  worker: WorkerHandler,
): Promise<{ steps: number; end: JobEnd }> => {
  const started = await api.put(`/import/${jobId}/start`);
  if (started.status !== 200)
    throw new Error(`PUT /import/${jobId}/start: ${started.status} ${JSON.stringify(started.body)}`);
  let steps = 0;
  const ended = async () => (await readImportJob(tenantId, jobId)).status !== 'running';
  for (;;) {
    const out = await queue.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queue.url,
        MaxNumberOfMessages: 1,
        WaitTimeSeconds: 1,
        MessageSystemAttributeNames: ['All'],
      }),
    );
    const message = out.Messages?.[0];
    if (message) {
      const response = await worker(
        { Records: [sqsRecord(message, queue.url)] },
        lambdaContext('import-worker', randomUUID(), IMPORT_STEP_TIMEOUT_MS),
      );
      steps++;
      if ((response?.batchItemFailures ?? []).length > 0)
        throw new Error(`import ${jobId}: step ${steps} failed (see the worker's log)`);
      await queue.sqs.send(
        new DeleteMessageCommand({ QueueUrl: queue.url, ReceiptHandle: message.ReceiptHandle }),
      );
    }
    if (await ended()) break;
  }
  const res = await api.get(`/import/${jobId}`);
  if (res.status !== 200) throw new Error(`GET /import/${jobId}: ${res.status}`);
  const job = res.body as JobEnd & { status: string };
  if (job.status !== 'completed' || job.totals.failed > 0)
    throw new Error(`import ${jobId} ended ${job.status} with ${job.totals.failed} failed lines`);
  const busyMs = (await readImportJob(tenantId, jobId)).busyMs;
  return { steps, end: { status: job.status, totals: job.totals, counts: job.counts, busyMs } };
};

// ---------------------------------------------------------------------------------------------
// CPU: this process and DynamoDB Local's JVM

/** DynamoDB Local's java process (the one listening on the endpoint's port), from /proc. */
const dynamoPid = (endpoint: string): number | undefined => {
  const port = new URL(endpoint).port;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const at = args.indexOf('-port');
      if (
        args[0]?.endsWith('java') &&
        args.some((a) => a.endsWith('DynamoDBLocal.jar')) &&
        args[at + 1] === port
      )
        return Number(entry);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return undefined;
};

/** Kernel clock ticks a second (`getconf CLK_TCK`: 100 on Linux x86-64 and arm64). */
const CLOCK_TICKS = 100;

/** CPU milliseconds (user + system, every thread) a process has used, from /proc/<pid>/stat. */
const processCpuMs = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from field 3 (state) on.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / CLOCK_TICKS;
};

const ownCpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

// ---------------------------------------------------------------------------------------------
// The profile

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

interface SelfTime {
  name: string;
  /** The file (relative to the repository, or the npm package's path), and line (1-based). */
  file: string;
  selfMs: number;
  /** Of all busy samples (idle left out). */
  share: number;
}

const root = fileURLToPath(new URL('..', import.meta.url));

const sourceLines = new Map<string, string[]>();

/** The name declared on a source line, or on the nearest line above that declares one. */
const declaredAt = (path: string, line: number): string | undefined => {
  let lines = sourceLines.get(path);
  if (!lines) {
    lines = readFileSync(path, 'utf8').split('\n');
    sourceLines.set(path, lines);
  }
  const declaration =
    /^\s*(?:export\s+)?(?:(?:async\s+)?function\*?\s+([\w$]+)|(?:const|let)\s+([\w$]+)\s*[=:]|(?:(?:private|public|static|async|get|set)\s+)*([\w$]+)\s*(?:<[^>]*>)?\()/;
  for (let at = line; at >= 0 && at > line - 40; at--) {
    const m = declaration.exec(lines[at] ?? '');
    const name = m?.[1] ?? m?.[2] ?? m?.[3];
    if (name && !['if', 'for', 'while', 'switch', 'catch', 'return'].includes(name)) return name;
  }
  return undefined;
};

/**
 * Where a profiled function is, as a name and `file:line`: our TypeScript through the source map
 * tsx gave its module (tsx compiles each module onto one line and drops arrow functions' names,
 * so the name is the declaration at that line of the source: a heuristic), a package's file as is.
 */
const frameOf = (frame: ProfileNode['callFrame']): { name: string; file: string } => {
  const { url, lineNumber, columnNumber } = frame;
  const given = frame.functionName || '(anonymous)';
  if (!url) return { name: given, file: '(native)' };
  if (!url.startsWith('file://')) return { name: given, file: `${url}:${lineNumber + 1}` };
  const path = fileURLToPath(url);
  const pkg = /node_modules\/(.*)$/.exec(path)?.[1];
  if (pkg) return { name: given, file: `${pkg}:${lineNumber + 1}` };
  const entry = findSourceMap(url)?.findEntry(lineNumber, columnNumber ?? 0);
  if (!entry || !('originalLine' in entry))
    return { name: given, file: `${relative(root, path)}:${lineNumber + 1}` };
  const source = entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : path;
  const name = frame.functionName || declaredAt(source, entry.originalLine) || '(anonymous)';
  return { name, file: `${relative(root, source)}:${entry.originalLine + 1}` };
};

/** Self time by function (name, file and line), the largest first; `(idle)` left out. */
const topSelfTime = (profile: CpuProfile, top = 15): SelfTime[] => {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map<string, { name: string; file: string; ms: number }>();
  const frames = new Map<number, { name: string; file: string }>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const node = nodes.get(id);
    if (!node || node.callFrame.functionName === '(idle)') return;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    busy += ms;
    let where = frames.get(id);
    if (!where) {
      where = frameOf(node.callFrame);
      frames.set(id, where);
    }
    const key = `${where.name}\n${where.file}`;
    const seen = byFunction.get(key) ?? { ...where, ms: 0 };
    seen.ms += ms;
    byFunction.set(key, seen);
  });
  return [...byFunction.values()]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top)
    .map((f) => ({
      name: f.name,
      file: f.file,
      selfMs: round(f.ms, 0),
      share: round(f.ms / (busy || 1), 4),
    }));
};

/** Self time summed by owner: our files (shared/, functions/, local/, bench/), each npm package, node's own. */
const selfTimeByOwner = (
  profile: CpuProfile,
  top = 12,
): { owner: string; selfMs: number; share: number }[] => {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byOwner = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)') return;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    busy += ms;
    let owner: string;
    if (frame.url.startsWith('file://')) {
      const path = fileURLToPath(frame.url);
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
      owner = pkg ?? (relative(root, path).split('/').slice(0, 2).join('/') || path);
    } else if (frame.url.startsWith('node:')) owner = 'node (built-in modules)';
    else owner = frame.functionName.startsWith('(') ? frame.functionName : '(native: V8, JSON, crypto, …)';
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + ms);
  });
  return [...byOwner]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([owner, ms]) => ({ owner, selfMs: round(ms, 0), share: round(ms / (busy || 1), 4) }));
};

// ---------------------------------------------------------------------------------------------
// Units

/** Items of one kind written, per ticket: how many and their units (AWS rules). */
interface WrittenPerTicket {
  entity: string;
  items: number;
  units: number;
}

export interface UnitsPerTicket {
  /** AWS write and read units, divided by the tickets. */
  writeUnits: number;
  readUnits: number;
  /** DynamoDB requests by command, divided by the tickets. */
  requests: Record<string, number>;
  written: WrittenPerTicket[];
}

const perTicket = (usage: Usage, tickets: number): UnitsPerTicket => {
  const units: UnitSplit | undefined = usage.aws?.units;
  const total = units ? totalUnits(units) : { read: 0, write: 0 };
  const written = new Map<string, WrittenPerTicket>();
  for (const w of usage.aws?.writes ?? []) {
    const seen = written.get(w.entity) ?? { entity: w.entity, items: 0, units: 0 };
    seen.items += 1;
    seen.units += w.table + Object.values(w.indexes).reduce((sum, u) => sum + u, 0);
    written.set(w.entity, seen);
  }
  return {
    writeUnits: round(total.write / tickets, 2),
    readUnits: round(total.read / tickets, 2),
    requests: Object.fromEntries(
      Object.entries(usage.requests)
        .sort((a, b) => b[1] - a[1])
        .map(([command, n]) => [command, round(n / tickets, 3)]),
    ),
    written: [...written.values()]
      .map((w) => ({
        entity: w.entity,
        items: round(w.items / tickets, 3),
        units: round(w.units / tickets, 2),
      }))
      .sort((a, b) => b.units - a.units),
  };
};

// ---------------------------------------------------------------------------------------------
// The section

export interface ImportBench {
  /** The timed run. */
  tickets: number;
  agents: number;
  customers: number;
  repliesPerTicket: number;
  lines: number;
  fileBytes: number;
  uploadMs: number;
  /** `PUT /import/{id}/start` to the job's completion, the worker run by one consumer. */
  importMs: number;
  ticketsPerSecond: number;
  linesPerSecond: number;
  /** Worker invocations (queue messages) the job took. */
  steps: number;
  /** The job's own `busyMs` (time spent applying lines). */
  busyMs: number;
  /** DynamoDB requests of the timed run (everything this process sent), by command, per ticket. */
  requestsPerTicket: Record<string, number>;
  totalRequestsPerTicket: number;
  cpu: {
    /** This process over the import (the worker, the routes, the local S3 and SQS servers, the bench's meter). */
    nodeMs: number;
    /** DynamoDB Local's JVM over the same interval (/proc/<pid>/stat). */
    storeMs: number;
    nodeMsPerTicket: number;
    storeMsPerTicket: number;
    /** storeMs / (nodeMs + storeMs); the goal: >= 0.5. */
    storeShare: number;
    /** Cores busy on average (both processes): (nodeMs + storeMs) / importMs. */
    coresBusy: number;
    /** The timed run was profiled (--profile): its timings include the profiler's own cost. */
    profiled: boolean;
  };
  /** The metered runs (AWS units from the items' actual sizes). */
  units: {
    tickets: number;
    /** The agents and customers job, and the tickets job, each divided by the tickets. */
    records: UnitsPerTicket;
    ticketLines: UnitsPerTicket;
    /** Everything the import wrote, per ticket (records + tickets). */
    writeUnitsPerTicket: number;
  };
  api: {
    tickets: number;
    units: UnitsPerTicket;
    /** Tickets a second through POST /ticket/insert, API_CONCURRENCY at once, in process (no HTTP). */
    ticketsPerSecond: number;
    concurrency: number;
    /** CPU of this process and of DynamoDB Local over the timed pass, per ticket. */
    nodeMsPerTicket: number;
    storeMsPerTicket: number;
  };
  /** units.writeUnitsPerTicket / api.units.writeUnits; the goal: <= 1.10. */
  unitRatio: number;
  /** Ticket lines alone against the API. */
  ticketLineUnitRatio: number;
  profile?: { file: string; top: SelfTime[]; owners: { owner: string; selfMs: number; share: number }[] };
  /**
   * Every TIMELINE_MS of the timed run: lines the job has recorded as read (its progress, written
   * every 2 s), and the CPU both processes spent so far: whether the pace holds as the table grows.
   */
  timeline: { seconds: number; lines: number; nodeMs: number; storeMs: number }[];
}

/** How often the timed run's pace is sampled. */
const TIMELINE_MS = 10_000;

interface ImportPlan {
  tickets: number;
  metered: number;
  apiTickets: number;
  dynamoEndpoint: string;
  /** Write a CPU profile of the timed import here (import.cpuprofile). */
  profileDir?: string;
}

/** Runs the section; the local S3 and SQS servers it needs are started and stopped here. */
export const runImportBench = async (meter: Meter, plan: ImportPlan): Promise<ImportBench> => {
  const log = (m: string) => process.stderr.write(`  ${m}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'helpdesk-bench-import-'));
  const saved = {
    S3_ENDPOINT: process.env.S3_ENDPOINT,
    BUCKET_NAME: process.env.BUCKET_NAME,
    SQS_ENDPOINT: process.env.SQS_ENDPOINT,
    IMPORT_QUEUE_URL: process.env.IMPORT_QUEUE_URL,
  };
  const s3 = await startS3Local({ bucket: 'helpdesk-bench-import' });
  const queueName = 'bench-imports.fifo';
  const sqsLocal = await startSqsLocal({ queues: [{ name: queueName, visibilityTimeoutSeconds: 900 }] });
  const sqs = new SQSClient({
    endpoint: sqsLocal.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const queue: Queue = { sqs, url: sqsLocal.queueUrl(queueName) };
  Object.assign(process.env, {
    S3_ENDPOINT: s3.endpoint,
    BUCKET_NAME: s3.bucket,
    SQS_ENDPOINT: sqsLocal.endpoint,
    IMPORT_QUEUE_URL: queue.url,
  });
  // The configuration is read again; the S3 client (shared/blobs/s3.ts) reads the endpoint and
  // bucket from it on every call (it caches only the signing keys, local ones already: the bench
  // set S3_ENDPOINT before it was made), the SQS client is made again.
  resetConfig();
  resetSqs();
  try {
    const worker = (await loadHandler('import-worker')) as unknown as WorkerHandler;
    const pid = dynamoPid(plan.dynamoEndpoint);
    if (!pid) throw new Error(`no DynamoDB Local java process found for ${plan.dynamoEndpoint}`);
    const { tickets } = plan;

    // 1. The metered run: the agents and customers, then the tickets, each a job of its own. It
    // comes first: with the API's metered inserts it also warms DynamoDB Local's JVM, whose CPU
    // per ticket falls by half over the first ~1 200 tickets written (its JIT compiling), so the
    // timed run measures the store at its pace, not its warm-up.
    const metered = Math.min(plan.metered, tickets);
    log(`metered import of ${metered} tickets (AWS units)…`);
    const meteredTenant = await newTenant('bench-import-metered');
    const meteredApi = clientFor(meteredTenant);
    const recordsFile = join(dir, 'records.ndjson');
    const ticketsFile = join(dir, 'tickets.ndjson');
    await writeNdjson(recordsFile, { agents: true, customers: customersFor(metered) });
    await writeNdjson(ticketsFile, { tickets: metered });
    const meteredJob = async (path: string): Promise<Usage> => {
      meter.reset();
      meter.askCapacity = true;
      meter.measureAws = true;
      try {
        const { jobId: id } = await createAndUpload(meteredApi, path);
        await startAndRun(meteredApi, meteredTenant.clientId, id, queue, worker);
        return meter.take();
      } finally {
        meter.askCapacity = false;
        meter.measureAws = false;
      }
    };
    const records = perTicket(await meteredJob(recordsFile), metered);
    const ticketLines = perTicket(await meteredJob(ticketsFile), metered);
    const writeUnitsPerTicket = round(records.writeUnits + ticketLines.writeUnits, 2);

    // 2. The same tickets through the API, metered.
    const apiRun = await meteredApiInserts(meter, plan.apiTickets);
    log(
      `WCU a ticket: import ${writeUnitsPerTicket} (tickets ${ticketLines.writeUnits}, agents and customers ${records.writeUnits}), ` +
        `API ${apiRun.units.writeUnits}`,
    );

    // 3. The timed run.
    const customers = customersFor(tickets);
    const file = join(dir, 'help-desk.ndjson');
    const generated = await writeNdjson(file, { agents: true, customers, tickets });
    log(
      `generated ${generated.lines} lines (${AGENTS} agents, ${customers} customers, ${tickets} tickets of ${REPLIES} replies), ` +
        `${round(generated.bytes / 1e6, 1)} MB`,
    );
    const tenant = await newTenant('bench-import');
    const api = clientFor(tenant);
    const { jobId, uploadMs } = await createAndUpload(api, file);
    const session = plan.profileDir ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    log(`import of ${tickets} tickets running (one worker consumer)…`);
    meter.askCapacity = false;
    meter.reset();
    const node0 = ownCpuMs();
    const store0 = processCpuMs(pid);
    const began = performance.now();
    const timeline: ImportBench['timeline'] = [];
    const sample = async () => {
      const job = await readImportJob(tenant.clientId, jobId).catch(() => undefined);
      timeline.push({
        seconds: round((performance.now() - began) / 1000, 1),
        lines: job?.lines ?? 0,
        nodeMs: round(ownCpuMs() - node0, 0),
        storeMs: round(processCpuMs(pid) - store0, 0),
      });
    };
    const sampler = setInterval(() => void sample(), TIMELINE_MS);
    let run: Awaited<ReturnType<typeof startAndRun>>;
    try {
      run = await startAndRun(api, tenant.clientId, jobId, queue, worker);
    } finally {
      clearInterval(sampler);
    }
    const importMs = performance.now() - began;
    const nodeMs = ownCpuMs() - node0;
    const storeMs = processCpuMs(pid) - store0;
    const timedUsage = meter.take();
    let profile: ImportBench['profile'];
    if (session && plan.profileDir) {
      const { profile: taken } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
      session.disconnect();
      await mkdir(plan.profileDir, { recursive: true });
      const profileFile = join(plan.profileDir, 'import.cpuprofile');
      await writeFile(profileFile, JSON.stringify(taken));
      profile = {
        file: relative(root, profileFile),
        top: topSelfTime(taken),
        owners: selfTimeByOwner(taken),
      };
    }
    const ticketsCreated = run.end.counts.ticket?.created ?? 0;
    if (ticketsCreated !== tickets) throw new Error(`import created ${ticketsCreated} tickets of ${tickets}`);
    log(
      `${tickets} tickets in ${round(importMs / 1000, 1)} s (${round((tickets * 1000) / importMs, 0)}/s), ${run.steps} steps; ` +
        `CPU: node ${round(nodeMs / 1000, 1)} s, DynamoDB Local ${round(storeMs / 1000, 1)} s`,
    );
    rmSync(file, { force: true });

    // 4. The API's pace on the same warm store.
    const apiTimed = await apiRun.timed(pid);

    const totalRequests = Object.values(timedUsage.requests).reduce((a, n) => a + n, 0);
    return {
      tickets,
      agents: AGENTS,
      customers,
      repliesPerTicket: REPLIES,
      lines: generated.lines,
      fileBytes: generated.bytes,
      uploadMs: round(uploadMs, 0),
      importMs: round(importMs, 0),
      ticketsPerSecond: round((tickets * 1000) / importMs, 1),
      linesPerSecond: round((generated.lines * 1000) / importMs, 1),
      steps: run.steps,
      busyMs: run.end.busyMs,
      requestsPerTicket: perTicket(timedUsage, tickets).requests,
      totalRequestsPerTicket: round(totalRequests / tickets, 2),
      cpu: {
        nodeMs: round(nodeMs, 0),
        storeMs: round(storeMs, 0),
        nodeMsPerTicket: round(nodeMs / tickets, 2),
        storeMsPerTicket: round(storeMs / tickets, 2),
        storeShare: round(storeMs / (nodeMs + storeMs), 4),
        coresBusy: round((nodeMs + storeMs) / importMs, 2),
        profiled: Boolean(session),
      },
      units: { tickets: metered, records, ticketLines, writeUnitsPerTicket },
      api: { tickets: plan.apiTickets, units: apiRun.units, ...apiTimed },
      unitRatio: round(writeUnitsPerTicket / apiRun.units.writeUnits, 3),
      ticketLineUnitRatio: round(ticketLines.writeUnits / apiRun.units.writeUnits, 3),
      timeline,
      ...(profile ? { profile } : {}),
    };
  } finally {
    sqs.destroy();
    await sqsLocal.stop();
    await s3.stop();
    rmSync(dir, { recursive: true, force: true });
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfig();
    resetSqs();
  }
};

/**
 * The tickets through `POST /ticket/insert` in a tenant of their own (its 10 agents and its
 * customers inserted through the API first): one warm-up, then `count` metered on AWS's rules one
 * after another; `timed` inserts `count` more, API_CONCURRENCY at once, with the CPU both
 * processes spent on them.
 */
const meteredApiInserts = async (
  meter: Meter,
  count: number,
): Promise<{
  units: UnitsPerTicket;
  timed: (pid: number) => Promise<Omit<ImportBench['api'], 'tickets' | 'units'>>;
}> => {
  const tenant: Tenant = await newTenant('bench-import-api');
  const api = clientFor(tenant);
  const strip = ({ kind: _k, externalId: _e, ...body }: Record<string, unknown>) => body;
  const ids = {
    agents: [] as string[],
    customers: [] as string[],
  };
  for (let k = 0; k < AGENTS; k++) ids.agents.push(await api.create('/agent/insert', strip(agentLine(k))));
  // Enough customers for the warm-up, the metered and the timed tickets.
  for (let k = 0; k < customersFor(2 * count + 1); k++)
    ids.customers.push(await api.create('/customer/insert', strip(customerLine(k))));
  const insert = async (i: number) => {
    const res = await invoke('POST', '/ticket/insert', {
      headers: {
        ...tenant.headers,
        'content-type': 'application/json',
        'idempotency-key': `bench-import-${i}`,
      },
      body: apiTicket(i, ids),
    });
    if (res.status !== 201) throw new Error(`POST /ticket/insert: ${res.status} ${JSON.stringify(res.body)}`);
  };
  await insert(0); // warm-up: the handler's first use
  const bar = progress('API inserts, metered');
  meter.reset();
  meter.askCapacity = true;
  meter.measureAws = true;
  let usage: Usage;
  try {
    for (let i = 1; i <= count; i++) {
      bar.update(i, count);
      await insert(i);
    }
    usage = meter.take();
  } finally {
    meter.askCapacity = false;
    meter.measureAws = false;
  }
  bar.done(`${count} tickets`);
  const timed = async (pid: number) => {
    const node0 = ownCpuMs();
    const store0 = processCpuMs(pid);
    const began = performance.now();
    await pool(count, API_CONCURRENCY, (k) => insert(count + 1 + k));
    const ms = performance.now() - began;
    const nodeMs = ownCpuMs() - node0;
    const storeMs = processCpuMs(pid) - store0;
    return {
      ticketsPerSecond: round((count * 1000) / ms, 1),
      concurrency: API_CONCURRENCY,
      nodeMsPerTicket: round(nodeMs / count, 2),
      storeMsPerTicket: round(storeMs / count, 2),
    };
  };
  return { units: perTicket(usage, count), timed };
};
