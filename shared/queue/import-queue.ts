import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { sqs } from './sqs';

/**
 * The import queue (infra/import-pipeline.ts; locally local/sqs-local.ts): one message per step
 * of a job, `{tenantId, jobId, offset}`: read the file from that byte on. FIFO, grouped by job, so
 * one job's steps run one after another (its lines in file order) while other jobs go on beside
 * it; deduplicated by job and offset, so a step sent twice (a retried send, a resumed job) runs once.
 */
export interface ImportStep {
  tenantId: string;
  jobId: string;
  offset: number;
  /** Several regions: the tenant's home, where the job's store calls and file go (docs/regions.md). */
  home?: string;
}

const queueUrl = (): string => {
  const url = config().IMPORT_QUEUE_URL;
  if (!url) throw new Error('IMPORT_QUEUE_URL is not set: there is no import queue');
  return url;
};

export const enqueueImportStep = async (step: ImportStep): Promise<void> => {
  await sqs().send(
    new SendMessageCommand({
      QueueUrl: queueUrl(),
      MessageBody: JSON.stringify(step),
      MessageGroupId: step.jobId,
      MessageDeduplicationId: `${step.jobId}:${step.offset}`,
    }),
  );
};

/** Reads a message body back; undefined when it is not a step. */
export const parseImportStep = (body: string): ImportStep | undefined => {
  try {
    const m = JSON.parse(body) as Partial<ImportStep>;
    const ok =
      typeof m.tenantId === 'string' &&
      typeof m.jobId === 'string' &&
      typeof m.offset === 'number' &&
      Number.isSafeInteger(m.offset) &&
      m.offset >= 0 &&
      (m.home === undefined || typeof m.home === 'string');
    return ok ? (m as ImportStep) : undefined;
  } catch {
    return undefined;
  }
};
