import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { getBlobRange } from '../blobs/s3';
import { config } from '../config';
import { enqueueImportStep, type ImportStep } from '../queue/import-queue';
import { IMPORT_KINDS, importLine } from '../schemas/import';
import { sleep } from '../store/attempt-budget';
import { db, tableName } from '../store/dynamo';
import {
  Contended,
  DeadlineExceeded,
  DomainError,
  HomeMoving,
  InvalidInput,
  OutcomeUnknown,
} from '../store/errors';
import {
  type ImportError,
  type ImportJob,
  importErrorItem,
  importJobUpdate,
  type LineCounts,
  NO_LINES,
  readImportJob,
} from '../store/imports';
import { inParallel } from '../store/in-parallel';
import { blobKeys } from '../store/keys';
import { useHome, useRegion, withRegionScope } from '../store/store-region';
import { commit, type WriteContext } from './commit';
import { importCompleted } from './events';
import { type FileLine, MAX_LINE_BYTES, readLines } from './import-file';
import { applyLine, type LineOutcome, SourceIds } from './import-lines';

/**
 * The run of an import job (docs/import.md; made, started and cancelled by domain/import-jobs.ts):
 * step by step, by the import worker from the import queue (functions/import-worker.ts). A step reads the file from the job's offset, a chunk at a
 * time, applies its lines (domain/import-lines.ts), records the failed ones, then moves the job
 * past them with their counts in one conditional write, and queues the next step. A step run
 * twice (a crash, a redelivery) finds the job already past it, or applies its lines again: each
 * skips what its source item says is written, so nothing is created twice and counts stay exact.
 */

/** Bytes of the file read at a time (IMPORT_CHUNK_BYTES: tests make steps small). */
const chunkBytes = () => config().IMPORT_CHUNK_BYTES;
/** Lines of one kind applied at once (lines of one kind never refer to each other). */
const LINE_CONCURRENCY = 8;
/** A step starts no more lines with less than this left before its function's deadline. */
const STEP_MARGIN_MS = 60_000;
/** The most lines one batch starts (between two looks at the deadline). */
const BATCH_LINES = 64;
/** How often a running job's progress (its offset and counts) is written: what its readers see move. */
const PROGRESS_MS = 2000;

/** A new job, waiting for its file (`jobId`: its upload address is signed before); answered as `view` makes it. */
/** The import's file is gone (deleted, expired) or was replaced since the job started: the job fails. */
class FileGone extends Error {
  constructor() {
    super('the import file is gone');
  }
}

/** Errors a retry of the step may not meet again: the step fails and is run again (the queue redelivers it). */
const isTransient = (error: unknown): boolean =>
  !(error instanceof DomainError) ||
  error instanceof Contended ||
  error instanceof OutcomeUnknown ||
  error instanceof DeadlineExceeded ||
  error instanceof HomeMoving;

type Outcome = { kind: string; outcome: LineOutcome } | { kind: string; error: ImportError } | undefined;

/** A line read as JSON (blank lines are dropped): its value, or why it has none. */
interface ReadLine {
  line: FileLine;
  kind: string;
  externalId: string | null;
  value?: unknown;
  unreadable?: InvalidInput;
}

/** Lines whose kind could not be read count here. */
export const UNREADABLE = 'unreadable';

const readLine = (line: FileLine): ReadLine | undefined => {
  const unreadable = (error: InvalidInput): ReadLine => ({
    line,
    kind: UNREADABLE,
    externalId: null,
    unreadable: error,
  });
  if (line.text === undefined)
    return unreadable(
      new InvalidInput(
        `Line ${line.number} is longer than ${MAX_LINE_BYTES} bytes.`,
        undefined,
        'line-too-long',
      ),
    );
  if (line.text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch {
    return unreadable(
      new InvalidInput(`Line ${line.number} is not valid JSON.`, undefined, 'malformed-json'),
    );
  }
  const given = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return {
    line,
    kind: IMPORT_KINDS.includes(given.kind as never) ? String(given.kind) : UNREADABLE,
    externalId: typeof given.externalId === 'string' ? given.externalId : null,
    value,
  };
};

/** Applies one line read; a failure is returned, an outage thrown. */
const lineOutcome = async (
  ctx: WriteContext,
  jobId: string,
  read: ReadLine,
  ids: SourceIds,
  problemOf: (error: unknown) => Record<string, unknown>,
): Promise<Outcome> => {
  const { line, kind, externalId } = read;
  const failed = (error: unknown): Outcome => ({
    kind,
    error: {
      line: line.number,
      kind: kind === UNREADABLE ? null : kind,
      externalId,
      problem: problemOf(error),
    },
  });
  if (read.unreadable) return failed(read.unreadable);
  const parsed = importLine.safeParse(read.value);
  if (!parsed.success)
    return failed(
      new InvalidInput(
        `Line ${line.number} is not a valid import line.`,
        parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
      ),
    );
  try {
    return { kind, outcome: await applyLine(ctx, jobId, parsed.data, ids) };
  } catch (error) {
    if (isTransient(error)) throw error;
    return failed(error);
  }
};

/** Puts the failed lines' items (25 a call, unprocessed ones again). */
const recordErrors = async (tenantId: string, jobId: string, errors: ImportError[]): Promise<void> => {
  const now = Date.now();
  for (let i = 0; i < errors.length; i += 25) {
    let pending = errors
      .slice(i, i + 25)
      .map((e) => ({ PutRequest: { Item: importErrorItem(tenantId, jobId, e, now) } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await sleep(Math.min(1000, 20 * 2 ** attempt));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (out.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
    }
  }
};

const addCounts = (counts: Record<string, LineCounts>, outcome: NonNullable<Outcome>) => {
  const c = { ...(counts[outcome.kind] ?? NO_LINES) };
  c.read += 1;
  if ('error' in outcome) c.failed += 1;
  else c[outcome.outcome] += 1;
  counts[outcome.kind] = c;
};

/** The job moved on while a step ran (cancelled, or the step ran twice): this one stops. */
class JobMoved extends Error {}

export interface StepEnv {
  /** Milliseconds left before the function's deadline. */
  timeLeft: () => number;
  /** A failed line's problem+json, as the API would answer it (the worker maps through shared/http). */
  problemOf: (error: unknown) => Record<string, unknown>;
}

/**
 * Runs one step of a job: applies lines from the step's offset while time allows, records them,
 * and queues the next step (or finishes the job). Throws on an outage (the queue runs it again).
 */
export const runImportStep = (step: ImportStep, env: StepEnv): Promise<void> =>
  // Several regions: the tenant's home replica and bucket, as its API requests use (docs/regions.md).
  withRegionScope(async () => {
    if (step.home) {
      useRegion(step.home);
      useHome(step.home, step.tenantId);
    }
    await runSteps(step, env);
  });

const runSteps = async (step: ImportStep, env: StepEnv): Promise<void> => {
  const { tenantId, jobId } = step;
  let job: ImportJob;
  try {
    job = await readImportJob(tenantId, jobId);
  } catch {
    return; // Gone (kept 30 days) or never this tenant's: nothing to do.
  }
  if (job.status !== 'running') return;
  // A step already done (a redelivery after its job moved on): the job's current step is queued.
  if (job.offset !== step.offset) {
    if (job.offset > step.offset) await enqueueImportStep({ ...step, offset: job.offset });
    return;
  }
  const ids = new SourceIds(tenantId);
  // Lines read and not yet applied (a chunk is applied in stretches of PROGRESS_MS).
  const unread: FileLine[] = [];
  while (env.timeLeft() > STEP_MARGIN_MS) {
    const next = await runChunk(job, ids, unread, env);
    if (!next) return; // Completed, cancelled or failed.
    job = next;
  }
  await enqueueImportStep({ ...step, offset: job.offset });
};

/**
 * A stretch of the job's file: lines applied (those of one kind in a row together) for about
 * PROGRESS_MS, from `unread` (a chunk read before) or a chunk read now, the failed ones recorded,
 * then the job moved past them with their counts (lines applied again after a crash before that
 * skip what they wrote). Answers the job as moved, or undefined once it completed, was cancelled
 * or failed.
 */
const runChunk = async (
  job: ImportJob,
  ids: SourceIds,
  unread: FileLine[],
  env: StepEnv,
): Promise<ImportJob | undefined> => {
  const { tenantId, id: jobId } = job;
  const size = job.size ?? 0;
  // The lines' writes are the job's (their events marked with it); the job's own progress is not.
  const ctx: WriteContext = { tenantId, importId: jobId, actor: { clientId: tenantId, importId: jobId } };
  const own: WriteContext = { tenantId, actor: { clientId: tenantId, importId: jobId } };
  const began = Date.now();
  const counts = { ...job.counts };
  const errors: ImportError[] = [];
  let offset = job.offset;
  let lines = job.lines;
  const settle = (set: Partial<ImportJob>, events = [] as ReturnType<typeof importCompleted>[], on = job) =>
    commit(own, () => ({ result: undefined, ops: [importJobUpdate(on, set, () => new JobMoved())], events }));
  if (offset < size && unread.length === 0) {
    try {
      const key = blobKeys.importFile(tenantId, jobId);
      const read = async (from: number, to: number) => {
        const bytes = await getBlobRange(key, from, to, job.etag);
        if (!bytes) throw new FileGone();
        return bytes;
      };
      unread.push(
        ...(await readLines(read, { size, offset, firstNumber: lines + 1, chunkBytes: chunkBytes() })),
      );
    } catch (error) {
      if (!(error instanceof FileGone)) throw error;
      await settle({
        status: 'failed',
        finishedAt: Date.now(),
        reason: 'The import file is gone, or was replaced after the job started.',
      }).catch(ignoreMoved);
      return undefined;
    }
  }
  while (unread.length > 0 && env.timeLeft() > STEP_MARGIN_MS && Date.now() - began < PROGRESS_MS) {
    const read = unread.slice(0, BATCH_LINES).map(readLine);
    const kind = read[0]?.kind;
    let j = 1;
    while (j < read.length && (read[j] === undefined || read[j]?.kind === kind)) j++;
    const batch = read.slice(0, j);
    const outcomes: Outcome[] = new Array(batch.length);
    await inParallel(batch, LINE_CONCURRENCY, async (line, k) => {
      outcomes[k] = line && (await lineOutcome(ctx, jobId, line, ids, env.problemOf));
    });
    for (const outcome of outcomes) {
      if (!outcome) continue;
      addCounts(counts, outcome);
      if ('error' in outcome) errors.push(outcome.error);
    }
    const lastLine = unread[j - 1] as FileLine;
    unread.splice(0, j);
    offset = lastLine.end;
    lines = lastLine.number;
  }
  await recordErrors(tenantId, jobId, errors);
  const progress = { offset, lines, counts, busyMs: job.busyMs + (Date.now() - began) };
  const done = offset >= size;
  const set: Partial<ImportJob> = done
    ? { ...progress, status: 'completed', finishedAt: Date.now() }
    : progress;
  try {
    await settle(set, done ? [importCompleted({ ...job, ...set })] : []);
  } catch (error) {
    if (!(error instanceof JobMoved)) throw error;
    // Cancelled meanwhile: what this chunk wrote is still counted (the job stays cancelled).
    const now = await readImportJob(tenantId, jobId);
    if (now.status === 'cancelled' && now.offset === job.offset)
      await settle(progress, [], now).catch(ignoreMoved);
    return undefined;
  }
  return done ? undefined : { ...job, ...progress };
};

const ignoreMoved = (error: unknown) => {
  if (!(error instanceof JobMoved)) throw error;
};
