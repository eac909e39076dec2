import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { fanOut, redeliver, type StreamedEvent } from '../shared/domain/webhook-fanout';
import { errorFields, logContext, logger } from '../shared/http/logger';
import { tracing } from '../shared/observability/tracing';
import { db } from '../shared/store/dynamo';
import type { StoredEvent } from '../shared/store/events';
import { keys } from '../shared/store/keys';
import { redeliveryOf } from '../shared/store/pending-deliveries';

/**
 * The webhook fan-out function: the table stream's consumer (infra/webhook-pipeline.ts, which
 * filters the stream to new event items and to redelivery items; locally local/event-pipeline.ts).
 * Each new event becomes a pending item and a queued delivery per subscription that wants it
 * (domain/webhook-fanout.ts `fanOut`); each redelivery item is one step of sending a re-enabled
 * subscription what it is owed (`redeliver`). Records are handled in stream order; on a failure
 * the batch reports the first record not done: the stream hands the batch again from there.
 * Its log lines carry the Lambda context (shared/http/logger.ts).
 */
const fanOutBatch = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  let events: StreamedEvent[] = [];
  const flush = async () => {
    const failure = await fanOut(events);
    events = [];
    return failure;
  };
  const fail = (failedAt: string, error: unknown): DynamoDBBatchResponse => {
    logger.error('could not queue webhook deliveries; the stream retries', { error: errorFields(error) });
    return { batchItemFailures: [{ itemIdentifier: failedAt }] };
  };
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    const sequenceNumber = record.dynamodb?.SequenceNumber;
    if (!image || !sequenceNumber) continue;
    const item = unmarshall(image as Record<string, AttributeValue>);
    const redelivery = redeliveryOf(item);
    if (redelivery) {
      const failure = await flush();
      if (failure) return fail(failure.failedAt, failure.error);
      try {
        await redeliver(redelivery);
      } catch (error) {
        return fail(sequenceNumber, error);
      }
      continue;
    }
    if (record.eventName !== 'INSERT') continue;
    const tenantId = keys.tenantOfEvents(String(item.pk));
    if (tenantId === undefined) continue;
    events.push({ sequenceNumber, tenantId, event: item as unknown as StoredEvent });
  }
  const failure = await flush();
  return failure ? fail(failure.failedAt, failure.error) : { batchItemFailures: [] };
};

export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse, Error, Context>({
  timeoutEarlyInMillis: 0,
})
  .use(tracing({ awsClients: () => [db()] }))
  .use(logContext())
  .handler(fanOutBatch);
