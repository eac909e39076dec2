import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { errorFields, logContext, logger } from '../shared/http/logger';
import { tracing } from '../shared/observability/tracing';
import { searchEngine } from '../shared/search/engine';
import { applyChanges, type ChangeRecord } from '../shared/search/indexer';
import { db } from '../shared/store/dynamo';

const image = (attributes: Record<string, unknown> | undefined) =>
  attributes ? unmarshall(attributes as Record<string, AttributeValue>) : undefined;

const changeOf = (record: DynamoDBRecord): ChangeRecord => ({
  eventName: record.eventName ?? 'INSERT',
  newImage: image(record.dynamodb?.NewImage),
  oldImage: image(record.dynamodb?.OldImage),
});

/**
 * The search indexer: the table stream's consumer of change-feed events and finished erasures
 * (infra/search.ts filters the stream to them; locally local/event-pipeline.ts), applied to the
 * search index (search/indexer.ts). A batch is applied whole or reported failed from its first
 * record: every step can be repeated, and the stream hands the batch again (halving it until a
 * failing record is alone; after the stream's retention, to the dead-letter queue).
 */
const runBatch = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const first = event.Records[0]?.dynamodb?.SequenceNumber;
  try {
    await applyChanges(await searchEngine(), event.Records.map(changeOf));
    return { batchItemFailures: [] };
  } catch (error) {
    logger.warn('search index batch not applied; the stream retries it', {
      records: event.Records.length,
      error: errorFields(error),
    });
    return { batchItemFailures: first ? [{ itemIdentifier: first }] : [] };
  }
};

export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse, Error, Context>({
  timeoutEarlyInMillis: 0,
})
  .use(tracing({ awsClients: () => [db()] }))
  .use(logContext())
  .handler(runBatch);
