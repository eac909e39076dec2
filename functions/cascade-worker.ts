import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { runCascade } from '../shared/domain/cascades';
import { errorFields, logContext, logger } from '../shared/http/logger';
import { tracing } from '../shared/observability/tracing';
import { type Cascade, cascadeOf } from '../shared/store/cascades';
import { db } from '../shared/store/dynamo';
import { inParallel } from '../shared/store/in-parallel';

/** Cascades of one batch run at once (each is a few S3 and DynamoDB calls). */
const CONCURRENCY = 8;

/**
 * The cascade worker: the table stream's consumer of new cascade items (infra/cascade-worker.ts
 * filters the stream to them; locally local/event-pipeline.ts). Each finishes one committed
 * removal (domain/cascades.ts). Cascades are independent: a batch runs several at once, and on a
 * failure reports the first record not finished, so the stream hands the batch again from there
 * (the ones after it that did finish are skipped then: their items are gone).
 */
const runBatch = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const work: { sequenceNumber: string; cascade: Cascade }[] = [];
  for (const record of event.Records) {
    const sequenceNumber = record.dynamodb?.SequenceNumber;
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image || !sequenceNumber) continue;
    const cascade = cascadeOf(unmarshall(image as Record<string, AttributeValue>));
    if (cascade) work.push({ sequenceNumber, cascade });
  }
  const failed: number[] = [];
  await inParallel(work, CONCURRENCY, async ({ cascade }, index) => {
    try {
      await runCascade(cascade);
    } catch (error) {
      failed.push(index);
      logger.warn('cascade not finished; the stream retries it', {
        cascade: { tenantId: cascade.tenantId, kind: cascade.kind, id: cascade.id },
        error: errorFields(error),
      });
    }
  });
  const first = work[Math.min(...failed)];
  return { batchItemFailures: first ? [{ itemIdentifier: first.sequenceNumber }] : [] };
};

export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse, Error, Context>({
  timeoutEarlyInMillis: 0,
})
  .use(tracing({ awsClients: () => [db()] }))
  .use(logContext())
  .handler(runBatch);
