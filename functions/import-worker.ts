import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { runImportStep } from '../shared/domain/import-run';
import { errorFields, logContext, logger } from '../shared/http/logger';
import { problemBody, toHttpError } from '../shared/http/problem-response';
import { tracing } from '../shared/observability/tracing';
import { parseImportStep } from '../shared/queue/import-queue';
import { db } from '../shared/store/dynamo';

/**
 * The import worker: the import queue's consumer (infra/import-pipeline.ts: batches of one;
 * locally local/event-pipeline.ts). Each message is one step of one job (domain/import-run.ts):
 * lines applied from the job's offset until the function's deadline is near, then the job moved
 * past them and the next step queued. A step that fails (the store or S3 away) is reported failed
 * and comes back after the queue's visibility timeout; after IMPORT_MAX_RECEIVES it goes to the
 * dead-letter queue (an alarm; docs/operations.md "Importing a help desk").
 */
const runBatch = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  const failed: string[] = [];
  for (const record of event.Records) {
    const step = parseImportStep(record.body);
    if (!step) {
      logger.error('dropped an import message that is not a step', { messageId: record.messageId });
      continue;
    }
    try {
      await runImportStep(step, {
        timeLeft: () => context.getRemainingTimeInMillis(),
        // A failed line's problem, as its API request would have answered it.
        problemOf: (error) => problemBody(toHttpError(error)),
      });
    } catch (error) {
      logger.error('import step failed; the queue runs it again', {
        tenantId: step.tenantId,
        jobId: step.jobId,
        error: errorFields(error),
      });
      failed.push(record.messageId);
    }
  }
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
};

export const handler = middy<SQSEvent, SQSBatchResponse, Error, Context>({ timeoutEarlyInMillis: 0 })
  .use(tracing({ awsClients: () => [db()] }))
  .use(logContext())
  .handler(runBatch);
