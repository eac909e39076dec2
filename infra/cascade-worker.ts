import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { CASCADE_ATTRIBUTE, TRASHED_TICKET } from '../shared/store/keys';
import { handlerOf } from '../shared/workers';
import { ApiFunction } from './api-function';
import {
  ITERATOR_AGE_ALARM,
  STREAM_RETENTION,
  streamSource,
  workerQueueProps,
  writtenIn,
} from './stream-worker';
import { streamReaderAlarms } from './worker-alarms';

export interface CascadeWorkerProps {
  /** The table: its stream carries the cascade items (shared/store/cascades.ts). */
  readonly table: ITableV2;
  /** The attachments bucket, and several regions' other buckets (a tenant's files are in its home's). */
  readonly bucket: IBucket;
  readonly otherBuckets?: readonly IBucket[];
  readonly logRetention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
  readonly environment?: Record<string, string>;
  /** Several regions: only the cascades written in this region (its tenants' home) are run here. */
  readonly region?: string;
}

/** A batch of up to 100 cascades, 8 at a time: a ticket's is a Query, S3 lists and deletes, batch deletes. */
export const CASCADE_TIMEOUT = Duration.minutes(5);

/**
 * The durable cascade (issue 22): new cascade items on the table's stream → the cascade worker
 * (functions/cascade-worker.ts), which finishes the removal each one stands for and marks it done;
 * and trashed tickets DynamoDB's TTL removed → their purge.
 * A failing record is retried for the stream's whole retention, then its metadata goes to
 * `failures` (alarmed); the item itself stays in the table, where `helpdesk cascades drain`
 * finds and finishes it.
 */
export class CascadeWorker extends Construct {
  readonly fn: ApiFunction;
  /** Stream batches given up on after 24 h (their metadata); the items are still in the table. */
  readonly failures: Queue;
  /** Its alarms, without actions: infra/monitoring.ts adds the topic. */
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: CascadeWorkerProps) {
    super(scope, id);
    this.fn = new ApiFunction(this, 'Function', {
      handlerFile: handlerOf('cascadeWorker'),
      table: props.table,
      tableAccess: 'write',
      // Whether the cascade is still pending, the removed ticket's collection and a revoked
      // client's token keys, their deletes (BatchWriteItem), the cascade marked done; an expired
      // trashed ticket's purge (its cascade item, the trash count and its event: a transaction).
      // Jobs (store/jobs.ts): an export reads the customer's tickets (their search and the trash's
      // list: index queries), collections, history and the records they name (BatchGetItem); an
      // erasure also deletes or rewrites them (a ticket's delete: a transaction), the feed's and
      // delivery logs' items, and the erased customer's mark once nothing counts on it.
      dynamo: [
        'GetItem',
        'BatchGetItem',
        'Query',
        'index:Query',
        'BatchWriteItem',
        'PutItem',
        'UpdateItem',
        'DeleteItem',
        'ConditionCheckItem',
      ],
      rateLimited: false,
      // Objects of removed tickets (listed by prefix) and photos no customer points at. Jobs: an
      // export signs its files' links (GetObject) and puts its document; an erasure removes the
      // customer's files and exports with every old version.
      blobs: {
        bucket: props.bucket,
        access: {
          documents: ['DeleteObject', 'DeleteObjectVersion', 'GetObject'],
          photos: ['DeleteObject', 'DeleteObjectVersion', 'GetObject'],
          exports: ['DeleteObject', 'DeleteObjectVersion', 'PutObject'],
          listBucket: true,
          listVersions: true,
        },
        ...(props.otherBuckets ? { otherBuckets: props.otherBuckets } : {}),
      },
      timeout: CASCADE_TIMEOUT,
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
      ...(props.environment ? { environment: props.environment } : {}),
    });
    this.failures = new Queue(this, 'Failures', workerQueueProps(props.removalPolicy));
    this.fn.addEventSource(
      streamSource(props.table, this.failures, [
        FilterCriteria.filter({
          eventName: FilterRule.isEqual('INSERT'),
          dynamodb: {
            NewImage: { [CASCADE_ATTRIBUTE]: { S: FilterRule.exists() }, ...writtenIn(props.region) },
          },
        }),
        // A trashed ticket DynamoDB's TTL removed at the end of its retention: its purge.
        FilterCriteria.filter({
          eventName: FilterRule.isEqual('REMOVE'),
          userIdentity: {
            type: FilterRule.isEqual('Service'),
            principalId: FilterRule.isEqual('dynamodb.amazonaws.com'),
          },
          dynamodb: {
            OldImage: { entity: { S: FilterRule.isEqual(TRASHED_TICKET) }, ...writtenIn(props.region) },
          },
        }),
      ]),
    );

    this.alarms.push(
      ...streamReaderAlarms(this, this.fn, this.failures, {
        failures:
          `The cascade worker gave up on stream records after retrying them for ${STREAM_RETENTION.toHours()} h: ` +
          "removals whose leftovers (a removed ticket's items and files, unreferenced photos, a revoked " +
          "client's tokens) are not cleaned yet. Nothing is lost: each removal's cascade item is still in the " +
          "table. Read the worker's logs for the cause (S3 or the table refusing), fix it, then run " +
          '`helpdesk cascades drain` (docs/operations.md), which finishes every pending cascade.',
        lag:
          `The cascade worker is more than ${ITERATOR_AGE_ALARM.toMinutes()} min behind the table's stream: a ` +
          "cascade keeps failing (S3 or the table refusing its deletes) or the worker cannot keep up. Read its logs' " +
          "'cascade not finished' lines and fix the cause while the records are in the stream (24 h).",
      }),
    );
  }
}
