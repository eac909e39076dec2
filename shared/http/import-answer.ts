import { IMPORT_KINDS } from '../schemas/import';
import type { ImportErrorView, ImportJobView, ImportSummaryView } from '../schemas/views';
import { type ImportError, type ImportJob, importSummary, type LineCounts, NO_LINES } from '../store/imports';

/**
 * An import job as the API shows it (`GET /import/{id}`, its `import.completed` event) and its
 * failed lines. Every kind has its counts (zeros for kinds the file had none of). Here, not among
 * the views, so the functions that write a job answer it without carrying the read path
 * (test/infra/bundles.test.ts), as shared/http/job-answer.ts does for exports and erasures.
 */
const KINDS = [...IMPORT_KINDS, 'unreadable'] as const;

/** The largest import file: what one presigned PUT to S3 takes. */
const IMPORT_FILE_BYTES = 5 * 1024 ** 3;

export const importSummaryView = (summary: ReturnType<typeof importSummary>): ImportSummaryView => ({
  ...summary,
  counts: Object.fromEntries(
    KINDS.map((k) => [k, { ...NO_LINES, ...(summary.counts as Record<string, LineCounts>)[k] }]),
  ) as ImportSummaryView['counts'],
});

/** Seconds left at the pace so far (bytes per busy millisecond); null without a pace or once ended. */
const etaOf = (job: ImportJob): number | null => {
  if (job.status !== 'running' || !job.size || job.offset === 0 || job.busyMs === 0) return null;
  return Math.ceil(((job.size - job.offset) * job.busyMs) / job.offset / 1000);
};

export const importJobView = (
  job: ImportJob,
  baseUrl: string,
  upload?: { url: string; expiresIn: number },
): ImportJobView => ({
  ...importSummaryView(importSummary(job)),
  progress: job.size ? Math.min(1, job.offset / job.size) : job.status === 'completed' ? 1 : 0,
  etaSeconds: etaOf(job),
  reason: job.reason ?? null,
  uploadUrl: job.status === 'created' && upload ? upload.url : null,
  expiresIn: job.status === 'created' && upload ? upload.expiresIn : null,
  maxBytes: IMPORT_FILE_BYTES,
  statusUrl: `${baseUrl}/import/${job.id}`,
  errorsUrl: `${baseUrl}/import/${job.id}/errors`,
});

export const importErrorView = (e: ImportError): ImportErrorView => ({
  line: e.line,
  kind: (e.kind as ImportErrorView['kind']) ?? null,
  externalId: e.externalId ?? null,
  problem: e.problem as ImportErrorView['problem'],
});

/** The media type an import file is uploaded with (its presigned address is signed for it). */
export const IMPORT_MEDIA_TYPE = 'application/x-ndjson';
