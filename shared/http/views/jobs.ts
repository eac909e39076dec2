import { downloadUrl } from '../../blobs/s3';
import type { ErasureJobView, ExportJobView } from '../../schemas/views';
import type { Job, StoredJob } from '../../store/jobs';

/**
 * Jobs as the API shows them (`POST`/`GET /customer/export/…`, `…/erase/…`). An export's download
 * address is signed as it is read, valid until the job's `expiresAt` (when the links inside the
 * document stop working too), never longer.
 */
const common = (job: Pick<StoredJob, 'id' | 'customerId' | 'createdAt' | 'finishedAt'>, statusUrl: string) => ({
  id: job.id,
  customerId: job.customerId,
  requestedAt: job.createdAt,
  finishedAt: job.finishedAt ?? null,
  statusUrl,
});

const pendingExport = (job: StoredJob, baseUrl: string): ExportJobView => ({
  ...common(job, `${baseUrl}/customer/export/${job.id}`),
  status: 'pending',
  downloadUrl: null,
  expiresAt: null,
});

export const exportJobView = async (
  job: StoredJob & { kind: 'export' },
  baseUrl: string,
  now = Date.now(),
): Promise<ExportJobView> => {
  if (!job.done) return pendingExport(job, baseUrl);
  const base = common(job, `${baseUrl}/customer/export/${job.id}`);
  if (!job.document || job.expiresAt === undefined)
    return { ...base, status: 'gone', downloadUrl: null, expiresAt: null };
  const seconds = Math.floor((job.expiresAt - now) / 1000);
  if (seconds < 1) return { ...base, status: 'expired', downloadUrl: null, expiresAt: job.expiresAt };
  const url = await downloadUrl(job.document, `customer-${job.customerId}.json`, 'application/json', seconds);
  return { ...base, status: 'done', downloadUrl: url, expiresAt: job.expiresAt };
};

export const erasureJobView = (job: StoredJob & { kind: 'erasure' }, baseUrl: string): ErasureJobView => ({
  ...common(job, `${baseUrl}/customer/erase/${job.id}`),
  status: job.done ? 'done' : 'pending',
  mode: job.mode,
  dryRun: job.dryRun,
  receipt: job.done && job.receipt ? (job.receipt as ErasureJobView['receipt']) : null,
});

/** A job just asked for (what its POST answers, and a retry of it with the same Idempotency-Key). */
export const pendingJobView = (job: Job): ExportJobView | ErasureJobView =>
  job.kind === 'export' ? pendingExport(job, job.baseUrl) : erasureJobView(job, job.baseUrl);
