import { downloadUrl } from '../../blobs/s3';
import type { ExportJobView } from '../../schemas/views';
import type { StoredJob } from '../../store/jobs';
import { jobFields, pendingExport } from '../job-answer';

/**
 * An export job as `GET /customer/export/{jobId}` shows it: once done, its download address,
 * signed as it is read, valid until the job's `expiresAt` (when the links inside the document stop
 * working too), never longer. (A pending job, and erasures: http/job-answer.ts.)
 */
export const exportJobView = async (
  job: StoredJob & { kind: 'export' },
  now = Date.now(),
): Promise<ExportJobView> => {
  if (!job.done) return pendingExport(job);
  const base = jobFields(job, 'export');
  if (!job.document || job.expiresAt === undefined)
    return { ...base, status: 'gone', downloadUrl: null, expiresAt: null };
  const seconds = Math.floor((job.expiresAt - now) / 1000);
  if (seconds < 1) return { ...base, status: 'expired', downloadUrl: null, expiresAt: job.expiresAt };
  const url = await downloadUrl(job.document, `customer-${job.customerId}.json`, 'application/json', seconds);
  return { ...base, status: 'done', downloadUrl: url, expiresAt: job.expiresAt };
};
