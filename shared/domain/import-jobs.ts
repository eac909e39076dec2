import { headBlob } from '../blobs/s3';
import { enqueueImportStep } from '../queue/import-queue';
import { Conflict } from '../store/errors';
import {
  type ImportJob,
  importCancelWrite,
  importJobUpdate,
  importJobWrite,
  readImportJob,
  runningImportJobs,
} from '../store/imports';
import { blobKeys } from '../store/keys';
import { homeRegionOfRequest } from '../store/store-region';
import { commit, type WriteContext } from './commit';

/**
 * What a client does to an import job (docs/import.md): make one (its file goes to a presigned
 * address), start it, cancel it. Apart from the run (domain/import-run.ts, the worker's), so the
 * functions of these routes carry none of it (test/infra/bundles.test.ts).
 */
export const createImport = <V>(ctx: WriteContext, jobId: string, view: (job: ImportJob) => V): Promise<V> =>
  commit(ctx, () => {
    const { job, op } = importJobWrite(ctx.tenantId, jobId);
    return { result: view(job), ops: [op] };
  });

const finished = (job: ImportJob) =>
  new Conflict('import-finished', `Import ${job.id} is ${job.status}: start a new one.`);

const moved = (jobId: string) => () =>
  new Conflict('import-moved', `Import ${jobId} changed meanwhile; read it again.`);

/**
 * Starts the job once its file is uploaded; a running job's current step is queued again (a
 * start is safe to repeat: a step already queued is not queued twice). 409 without a file, or
 * for a job that ended.
 */
export const startImport = async <V>(
  ctx: WriteContext,
  jobId: string,
  view: (job: ImportJob) => V,
): Promise<V> => {
  const job = await readImportJob(ctx.tenantId, jobId);
  // Its steps run where the tenant's data is (several regions: its home, docs/regions.md).
  const home = homeRegionOfRequest();
  if (job.status === 'running') {
    await enqueueImportStep({ tenantId: job.tenantId, jobId, offset: job.offset, home });
    return view(job);
  }
  if (job.status !== 'created') throw finished(job);
  const file = await headBlob(blobKeys.importFile(ctx.tenantId, jobId));
  if (!file)
    throw new Conflict(
      'import-file-missing',
      `Import ${jobId} has no file yet: PUT it to the uploadUrl that POST /import answered, then start it.`,
    );
  const set = { status: 'running' as const, size: file.size, etag: file.etag, home, startedAt: Date.now() };
  const started = await commit(ctx, () => ({
    result: view({ ...job, ...set }),
    ops: [importJobUpdate(job, set, moved(jobId))],
  }));
  // Not queued (SQS away): the job is running without a step; a start again queues it (docs/errors.md).
  await enqueueImportStep({ tenantId: job.tenantId, jobId, offset: 0, home });
  return started;
};

/** Stops the job: no line after the ones in progress is applied; what was written stays. */
export const cancelImport = async <V>(
  ctx: WriteContext,
  jobId: string,
  view: (job: ImportJob) => V,
): Promise<V> => {
  const job = await readImportJob(ctx.tenantId, jobId);
  if (job.status === 'cancelled') return view(job);
  if (job.status !== 'created' && job.status !== 'running') throw finished(job);
  const finishedAt = Date.now();
  return commit(ctx, () => ({
    result: view({ ...job, status: 'cancelled', finishedAt }),
    ops: [importCancelWrite(job, finishedAt, moved(jobId))],
  }));
};

/** Queues the current step of every running job (`npm start`: its in-memory queue lost them). */
export const resumeImports = async (): Promise<number> => {
  const jobs = await runningImportJobs();
  for (const job of jobs)
    await enqueueImportStep({
      tenantId: job.tenantId,
      jobId: job.id,
      offset: job.offset,
      // Where it was started: its steps run there (as startImport queued the first).
      ...(job.home ? { home: job.home } : {}),
    });
  return jobs.length;
};
