import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { expireTrashed, runCascade } from '../shared/domain/cascades';
import { errorFields, logContext, logger } from '../shared/http/logger';
import { renderExport } from '../shared/http/views/customer-export';
import { tracing } from '../shared/observability/tracing';
import { cascadeOf } from '../shared/store/cascades';
import { db } from '../shared/store/dynamo';
import { inParallel } from '../shared/store/in-parallel';
import { TRASHED_TICKET } from '../shared/store/keys';

/** Cascades of one batch run at once (each is a few S3 and DynamoDB calls). */
const CONCURRENCY = 8;

/** DynamoDB's TTL deletes an expired item as this principal (the stream record's `userIdentity`). */
const TTL_PRINCIPAL = 'dynamodb.amazonaws.com';

type Work = { sequenceNumber: string; what: string; run: () => Promise<void> };

/** The work a stream record asks for: a new cascade item's cascade, or the purge of a trashed ticket TTL removed. */
const workOf = (record: DynamoDBRecord): Work | undefined => {
  const sequenceNumber = record.dynamodb?.SequenceNumber;
  if (!sequenceNumber) return undefined;
  if (record.eventName === 'INSERT') {
    const image = record.dynamodb?.NewImage;
    const cascade = image && cascadeOf(unmarshall(image as Record<string, AttributeValue>));
    if (cascade)
      return {
        sequenceNumber,
        what: `${cascade.kind} cascade ${cascade.id}`,
        run: () => runCascade(cascade, renderExport),
      };
  }
  const byTtl = record.userIdentity?.type === 'Service' && record.userIdentity.principalId === TTL_PRINCIPAL;
  const old = record.dynamodb?.OldImage;
  if (record.eventName === 'REMOVE' && byTtl && old?.entity?.S === TRASHED_TICKET) {
    const { tenantId, id, ticket } = unmarshall(old as Record<string, AttributeValue>);
    return {
      sequenceNumber,
      what: `expiry of trashed ticket ${id}`,
      run: () => expireTrashed(String(tenantId), { id: String(id), merged: ticket?.merged }),
    };
  }
  return undefined;
};

/**
 * The cascade worker: the table stream's consumer of new cascade items and of the trashed tickets
 * DynamoDB's TTL removes (infra/cascade-worker.ts filters the stream to them; locally
 * local/event-pipeline.ts). Each cascade finishes one committed removal (domain/cascades.ts); an
 * expired trashed ticket is purged. They are independent: a batch runs several at once, and on a
 * failure reports the first record not finished, so the stream hands the batch again from there
 * (those after it that did finish are skipped then: done cascades are marked, a purge is once).
 */
const runBatch = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const work = event.Records.flatMap((record) => workOf(record) ?? []);
  const failed: number[] = [];
  await inParallel(work, CONCURRENCY, async ({ what, run }, index) => {
    try {
      await run();
    } catch (error) {
      failed.push(index);
      logger.warn('cascade not finished; the stream retries it', {
        cascade: what,
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
