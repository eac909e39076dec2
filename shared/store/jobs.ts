import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type Cascade, cascadeOf, cascadeWrite, type ErasureJob, type ExportJob } from './cascades';
import { db, tableName } from './dynamo';
import { NotFound } from './errors';
import { queryOf } from './expression';
import { isId, newId } from './ids';
import { CASCADE_ATTRIBUTE, keys } from './keys';
import { queryAll } from './query-all';
import type { WriteOp } from './write-ops';

/**
 * Jobs a client asks for and reads back (`POST /customer/export/{id}`, `POST /customer/erase/{id}`):
 * cascade items (store/cascades.ts) keyed by the job's id, written in the transaction that asks for
 * them, run by the cascade worker from the table's stream (retried, dead-lettered, drained like any
 * cascade), read by their status routes. A done job keeps its answer JOB_KEPT_DAYS (then TTL).
 */
const JOB_KEPT_DAYS = 30;
export const JOB_KEPT_S = JOB_KEPT_DAYS * 86_400;

export type Job = Cascade & (ExportJob | ErasureJob);

/** A job as read: what it is, and once done when it finished and what it answered. */
export type StoredJob = Job & {
  done?: boolean;
  finishedAt?: number;
  /** An erasure's counts per kind (domain/customer-erasure.ts `Receipt`). */
  receipt?: Record<string, number>;
  /** An export's document: its object key and until when its links work. */
  document?: string;
  expiresAt?: number;
};

const JOB = 'JOB#';

/** The sort key of a job in its tenant's cascade partition. */
export const jobSk = (jobId: string) => `${JOB}${jobId}`;

/** A new job and the write that records it (its arrival on the stream starts it). */
export const jobWrite = (
  tenantId: string,
  work: ExportJob | ErasureJob,
  now = Date.now(),
): { job: Job; op: WriteOp } => {
  const id = newId(now);
  const pk = keys.cascades(tenantId);
  return {
    job: { ...work, pk, sk: jobSk(id), id, tenantId, createdAt: now },
    op: cascadeWrite(tenantId, work, now, jobSk(id), id),
  };
};

/** The tenant's job `jobId` of `kind`, read consistently; 404 otherwise. */
export const readJob = async <K extends Job['kind']>(
  tenantId: string,
  kind: K,
  jobId: string,
): Promise<StoredJob & { kind: K }> => {
  const missing = new NotFound(`${kind === 'export' ? 'Export' : 'Erasure'} ${jobId}`);
  if (!isId(jobId)) throw missing;
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: { pk: keys.cascades(tenantId), sk: jobSk(jobId) },
      ConsistentRead: true,
    }),
  );
  const job = cascadeOf(out.Item);
  if (!job || job.kind !== kind) throw missing;
  return job as StoredJob & { kind: K };
};

/** The tenant's jobs of `kind` about one customer (done ones are kept JOB_KEPT_DAYS), read consistently. */
export const jobsAbout = async <K extends Job['kind']>(
  tenantId: string,
  kind: K,
  customerId: string,
): Promise<(StoredJob & { kind: K })[]> =>
  (
    await queryAll({
      ...queryOf(
        { partition: ['pk', keys.cascades(tenantId)], sort: { beginsWith: ['sk', JOB] } },
        { filter: { and: [{ eq: [CASCADE_ATTRIBUTE, kind] }, { eq: ['customerId', customerId] }] } },
      ),
      ConsistentRead: true,
    })
  ).flatMap((item) => {
    const job = cascadeOf(item);
    return job ? [job as StoredJob & { kind: K }] : [];
  });
