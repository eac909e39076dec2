import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { fanOut, type StreamedEvent } from '../shared/domain/webhook-fanout';
import { errorFields, logContext, logger } from '../shared/http/logger';
import { tracing } from '../shared/observability/tracing';
import { db } from '../shared/store/dynamo';
import type { StoredEvent } from '../shared/store/events';
import { keys } from '../shared/store/keys';

/**
 * The webhook fan-out function: the table stream's consumer (infra/webhook-pipeline.ts, which
 * filters the stream to event items; locally local/event-pipeline.ts). Each new event becomes
 * one queued delivery per subscription that wants it (domain/webhook-fanout.ts). On a failure
 * the batch reports the first event not queued: the stream hands the batch again from there.
 * Its log lines carry the Lambda context (shared/http/logger.ts).
 */
const fanOutBatch = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const streamed: StreamedEvent[] = [];
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    const sequenceNumber = record.dynamodb?.SequenceNumber;
    if (record.eventName !== 'INSERT' || !image || !sequenceNumber) continue;
    const item = unmarshall(image as Record<string, AttributeValue>) as StoredEvent;
    const tenantId = keys.tenantOfEvents(String(item.pk));
    if (tenantId === undefined) continue;
    streamed.push({ sequenceNumber, tenantId, event: item });
  }
  const failure = await fanOut(streamed);
  if (!failure) return { batchItemFailures: [] };
  logger.error('could not queue webhook deliveries; the stream retries', {
    error: errorFields(failure.error),
  });
  return { batchItemFailures: [{ itemIdentifier: failure.failedAt }] };
};

export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse, Error, Context>({
  timeoutEarlyInMillis: 0,
})
  .use(tracing({ awsClients: () => [db()] }))
  .use(logContext())
  .handler(fanOutBatch);
