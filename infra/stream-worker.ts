import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, type DynamoEventSourceProps, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { type IQueue, QueueEncryption, type QueueProps } from 'aws-cdk-lib/aws-sqs';
import { IMPORT_MARK } from '../shared/store/events';

/**
 * What the workers reading the table's stream share (infra/webhook-pipeline.ts, the fan-out;
 * infra/cascade-worker.ts): their queues, their event source and its retries, their filters.
 */

/** The stream's retention: DynamoDB Streams keep a record 24 h. */
export const STREAM_RETENTION = Duration.hours(24);
/** SQS's longest. */
const QUEUE_RETENTION = Duration.days(14);
/** Further behind the stream than this, a reader is stuck on a failing batch or cannot keep up. */
export const ITERATOR_AGE_ALARM = Duration.minutes(10);

/** A workers' queue: SQS-managed encryption, TLS only, kept SQS's longest. */
export const workerQueueProps = (removalPolicy: RemovalPolicy): QueueProps => ({
  encryption: QueueEncryption.SQS_MANAGED,
  enforceSSL: true,
  retentionPeriod: QUEUE_RETENTION,
  removalPolicy,
});

/**
 * A stream reader's event source: from the oldest record, 100 a batch, a failing batch halved
 * until the failing record is alone, reporting the records not finished. Retries are bounded by
 * the record's age, not by a count (a fast-failing function would use up any count within
 * hours): a record is retried for the stream's whole retention, then its metadata goes to
 * `failures`.
 */
export const streamSource = (
  table: ITableV2,
  failures: IQueue,
  filters: ReturnType<typeof FilterCriteria.filter>[],
  more: Partial<DynamoEventSourceProps> = {},
): DynamoEventSource =>
  new DynamoEventSource(table, {
    startingPosition: StartingPosition.TRIM_HORIZON,
    batchSize: 100,
    bisectBatchOnError: true,
    reportBatchItemFailures: true,
    ...more,
    retryAttempts: -1,
    maxRecordAge: STREAM_RETENTION,
    onFailure: new SqsDlq(failures),
    filters,
  });

/** Several regions: a filter's image only of items written in `region` (none: every item). */
export const writtenIn = (region: string | undefined) =>
  region ? { region: { S: FilterRule.isEqual(region) } } : {};

/**
 * The change feed's new event items (shared/store/events.ts), of `region` only when given: what
 * the webhook fan-out and the search indexer read. `exists` matches leaves only, hence the
 * DynamoDB type (N, S) under each attribute. `imported: false`: not the events of an import job's
 * records (their IMPORT_MARK, `importId`, a string), which webhooks are not sent (docs/import.md);
 * the job's own `import.completed` has none.
 */
export const newEvents = (region?: string, { imported = true }: { imported?: boolean } = {}) =>
  FilterCriteria.filter({
    eventName: FilterRule.isEqual('INSERT'),
    dynamodb: {
      NewImage: {
        occurredAt: { N: FilterRule.exists() },
        resourceId: { S: FilterRule.exists() },
        ...(imported ? {} : { [IMPORT_MARK]: { S: FilterRule.notExists() } }),
        ...writtenIn(region),
      },
    },
  });
