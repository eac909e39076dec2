import type { ErasureJobView, ExportJobView } from '../schemas/views';
import type { StoredJob } from '../store/jobs';

/**
 * A job as the API shows it, but for what only a finished export adds (its signed download
 * address: views/jobs.ts). Here, not among the views, so the functions that ask for a job answer
 * it without carrying the read path (test/infra/bundles.test.ts).
 */
export const jobFields = (job: StoredJob, route: 'export' | 'erase') => ({
  id: job.id,
  customerId: job.customerId,
  requestedAt: job.createdAt,
  finishedAt: job.finishedAt ?? null,
  statusUrl: `${job.baseUrl}/customer/${route}/${job.id}`,
});

/** An export not done yet (its POST's answer, and its state until the worker finished it). */
export const pendingExport = (job: StoredJob): ExportJobView => ({
  ...jobFields(job, 'export'),
  status: 'pending',
  downloadUrl: null,
  expiresAt: null,
});

/** An erasure job, pending or done (with its receipt). */
export const erasureJobView = (job: StoredJob & { kind: 'erasure' }): ErasureJobView => ({
  ...jobFields(job, 'erase'),
  status: job.done ? 'done' : 'pending',
  mode: job.mode,
  dryRun: job.dryRun,
  receipt: job.done && job.receipt ? (job.receipt as ErasureJobView['receipt']) : null,
});

/** What a POST asking for a job answers (and a retry of it with the same Idempotency-Key). */
export const pendingJobView = (job: StoredJob): ExportJobView | ErasureJobView =>
  job.kind === 'export' ? pendingExport(job) : erasureJobView(job);
