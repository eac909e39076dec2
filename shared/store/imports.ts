import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';
import { NotFound } from './errors';
import { conditionOf, queryOf, updateOf } from './expression';
import { isId } from './ids';
import { IMPORT_JOB, type ItemKey, keys } from './keys';
import type { Item } from './pages';
import { queryAll } from './query-all';
import { LIST_INDEX, TTL_ATTRIBUTE } from './table-schema';
import { ABSENT, type WriteOp } from './write-ops';

/**
 * Import jobs (docs/import.md): a job item per import (its state, how far it read its file, its
 * counts), the failed lines' items beside it, and one source item per imported record
 * (`keys.importSource`: the record a source id became), written in the record's own transaction.
 * A job, its errors and its file are kept IMPORT_KEPT_DAYS after it was made (TTL, a lifecycle
 * rule); the source items stay as long as the records (a later import of the same ids skips them).
 */
export const IMPORT_KEPT_DAYS = 30;
const KEPT_S = IMPORT_KEPT_DAYS * 86_400;

export type ImportStatus = 'created' | 'running' | 'completed' | 'cancelled' | 'failed';

/** What happened to the lines of one kind: read = created + skipped + failed. */
export interface LineCounts {
  read: number;
  created: number;
  skipped: number;
  failed: number;
}
export const NO_LINES: LineCounts = { read: 0, created: 0, skipped: 0, failed: 0 };

export interface ImportJob {
  id: string;
  tenantId: string;
  status: ImportStatus;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** The file's size in bytes, known once started. */
  size: number | null;
  /** The file's version once started: a file replaced afterwards is not read (the job fails). */
  etag?: string;
  /** The tenant's home region when it was started: where its steps run (docs/regions.md). */
  home?: string;
  /** Bytes of the file done (every line before it settled). */
  offset: number;
  /** Lines done. */
  lines: number;
  /** Per kind (`unreadable`: lines whose kind could not be read). */
  counts: Record<string, LineCounts>;
  /** Time spent reading and writing (ms), for the estimate of what is left. */
  busyMs: number;
  /** Why a job failed (its file unreadable). */
  reason: string | null;
}

/** Every kind's counts added up. */
export const totalsOf = (counts: Record<string, LineCounts>): LineCounts =>
  Object.values(counts).reduce(
    (t, c) => ({
      read: t.read + c.read,
      created: t.created + c.created,
      skipped: t.skipped + c.skipped,
      failed: t.failed + c.failed,
    }),
    NO_LINES,
  );

/** What a job's `import.completed` event carries (and its view starts from). */
export const importSummary = (job: ImportJob) => ({
  id: job.id,
  status: job.status,
  createdAt: job.createdAt,
  startedAt: job.startedAt,
  finishedAt: job.finishedAt,
  size: job.size,
  bytesRead: job.offset,
  linesRead: job.lines,
  counts: job.counts,
  totals: totalsOf(job.counts),
});

const jobOf = (item: Item | undefined): ImportJob | undefined =>
  item?.entity === IMPORT_JOB ? (item as unknown as ImportJob) : undefined;

/** A new job, waiting for its file. */
export const importJobWrite = (
  tenantId: string,
  jobId: string,
  now = Date.now(),
): { job: ImportJob; op: WriteOp } => {
  const job: ImportJob = {
    id: jobId,
    tenantId,
    status: 'created',
    createdAt: now,
    startedAt: null,
    finishedAt: null,
    size: null,
    offset: 0,
    lines: 0,
    counts: {},
    busyMs: 0,
    reason: null,
  };
  return {
    job,
    op: {
      item: {
        Put: {
          Item: {
            ...keys.importJob(tenantId, job.id),
            entity: IMPORT_JOB,
            ...job,
            [TTL_ATTRIBUTE]: Math.floor(now / 1000) + KEPT_S,
          },
          ...conditionOf(ABSENT),
        },
      },
    },
  };
};

/** The tenant's job, read consistently; 404 otherwise (another tenant's job is no job). */
export const readImportJob = async (tenantId: string, jobId: string): Promise<ImportJob> => {
  const missing = new NotFound(`Import ${jobId}`);
  if (!isId(jobId)) throw missing;
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.importJob(tenantId, jobId), ConsistentRead: true }),
  );
  const job = jobOf(out.Item);
  if (!job) throw missing;
  return job;
};

/**
 * Running jobs are listed in one partition of the `list` index (while running only), where
 * `npm start` finds them to queue their steps again (`runningImportJobs`).
 */
const UNLISTED = [LIST_INDEX.partition, LIST_INDEX.sort];
/** A change to running lists the job; any other status change (it only ever ends) unlists it. */
const listing = (set: Partial<ImportJob>, jobId: string) => {
  if (!set.status) return {};
  if (set.status === 'running')
    return { set: { [LIST_INDEX.partition]: keys.runningImports(), [LIST_INDEX.sort]: jobId } };
  return { remove: UNLISTED };
};

/** The job's change from `from` (its status then) to the fields given; refused when it moved on meanwhile. */
export const importJobUpdate = (
  job: Pick<ImportJob, 'tenantId' | 'id' | 'status' | 'offset'>,
  set: Partial<ImportJob>,
  onMoved: () => Error,
): WriteOp => {
  const listed = listing(set, job.id);
  return {
    item: {
      Update: {
        Key: keys.importJob(job.tenantId, job.id),
        ...updateOf(
          { set: { ...set, ...listed.set }, ...(listed.remove ? { remove: listed.remove } : {}) },
          { and: [{ eq: ['status', job.status] }, { eq: ['offset', job.offset] }] },
        ),
      },
    },
    onConditionFailed: onMoved,
  };
};

/** Cancels the job while it is created or running (whatever step it is at). */
export const importCancelWrite = (
  job: Pick<ImportJob, 'tenantId' | 'id'>,
  finishedAt: number,
  onEnded: () => Error,
): WriteOp => ({
  item: {
    Update: {
      Key: keys.importJob(job.tenantId, job.id),
      ...updateOf(
        { set: { status: 'cancelled', finishedAt }, remove: UNLISTED },
        { in: ['status', ['created', 'running']] },
      ),
    },
  },
  onConditionFailed: onEnded,
});

/** One failed line: its number, what it was (when that could be read) and its problem. */
export interface ImportError {
  line: number;
  kind: string | null;
  externalId: string | null;
  problem: Record<string, unknown>;
}

/** A failed line's item (put again by a job resumed over it: the same key, so once). */
export const importErrorItem = (tenantId: string, jobId: string, error: ImportError, now: number) => ({
  pk: keys.importErrors(tenantId, jobId),
  sk: keys.importLine(error.line),
  ...error,
  [TTL_ATTRIBUTE]: Math.floor(now / 1000) + KEPT_S,
});

/** What a source record became: its kind, its id there, the record's id here, the job that made it. */
export interface ImportSource {
  kind: string;
  externalId: string;
  id: string;
  jobId: string;
  /** A ticket written in parts (a long conversation): how many of its parts are written, of how many. */
  parts?: { done: number; total: number };
}

export const sourceKey = (tenantId: string, kind: string, externalId: string): ItemKey =>
  keys.importSource(tenantId, kind, externalId);

export const readImportSource = async (
  tenantId: string,
  kind: string,
  externalId: string,
): Promise<ImportSource | undefined> => {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: sourceKey(tenantId, kind, externalId),
      ConsistentRead: true,
    }),
  );
  return out.Item?.entity === 'IMPORT_SOURCE' ? (out.Item as unknown as ImportSource) : undefined;
};

/** Another job wrote this source record first (two imports of one file at once): this line skips it. */
export class SourceTaken extends Error {
  constructor() {
    super('another import wrote this record first');
  }
}

/** Records what a source record became, in the transaction that creates it (refused if it exists). */
export const sourceWrite = (tenantId: string, source: ImportSource): WriteOp => ({
  item: {
    Put: {
      Item: { ...sourceKey(tenantId, source.kind, source.externalId), entity: 'IMPORT_SOURCE', ...source },
      ...conditionOf(ABSENT),
    },
  },
  onConditionFailed: () => new SourceTaken(),
});

/** Moves a ticket's parts from `done` to `done + 1`, in that part's transaction. */
export const sourcePartWrite = (tenantId: string, source: ImportSource, done: number): WriteOp => ({
  item: {
    Update: {
      Key: sourceKey(tenantId, source.kind, source.externalId),
      ...updateOf({ set: { 'parts.done': done + 1 } }, { eq: ['parts.done', done] }),
    },
  },
  onConditionFailed: () => new SourceTaken(),
});

/** Every running job, from the `list` index (`npm start` resumes them: its in-memory queue lost their steps). */
export const runningImportJobs = async (): Promise<ImportJob[]> =>
  (
    await queryAll({
      ...queryOf({ partition: [LIST_INDEX.partition, keys.runningImports()] }),
      IndexName: LIST_INDEX.name,
    })
  ).flatMap((item) => {
    const job = jobOf(item);
    return job?.status === 'running' ? [job] : [];
  });
