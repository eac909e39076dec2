import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { type Alarm, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { DeduplicationScope, FifoThroughputLimit, Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { BlobAccess, DynamoAction } from '../shared/routes';
import { handlerOf, IMPORT_STEP_TIMEOUT_MS } from '../shared/workers';
import { ApiFunction } from './api-function';
import { workerQueueProps } from './stream-worker';
import { visibleMessages, WORKER_ALARM_PERIOD, workerAlarm } from './worker-alarms';

export interface ImportPipelineProps {
  readonly table: ITableV2;
  /** The attachments bucket (import files, documents, staged uploads, photos), and several regions' other buckets. */
  readonly bucket: IBucket;
  readonly otherBuckets?: readonly IBucket[];
  readonly logRetention: RetentionDays;
  /** Of the worker's log group and of the queues. */
  readonly removalPolicy: RemovalPolicy;
  /** Given to the worker beside its own (the stack's common environment, the buckets of several regions). */
  readonly environment?: Record<string, string>;
}

/** One step of a job: lines applied until a minute before this (shared/domain/import-run.ts). */
export const IMPORT_STEP_TIMEOUT = Duration.millis(IMPORT_STEP_TIMEOUT_MS);
/**
 * Receives of one step before it goes to the dead-letter queue: each is a whole failed step (the
 * store or S3 away, a crash, a timeout), 6 × the step's timeout apart (the visibility timeout).
 */
export const IMPORT_MAX_RECEIVES = 5;
/**
 * Steps running at once (the SQS event source's maximum concurrency, whose minimum is 2): one per
 * job (a job's steps are one message group), so at most this many jobs go on at a time, and the
 * worker never takes more than this of the account's concurrency from the API.
 */
export const IMPORT_CONCURRENCY = 10;
/**
 * Older than this, the queue's oldest step is waiting: its worker failing or throttled (a failing
 * step is received again every 30 min), or about a hundred jobs taking turns (IMPORT_CONCURRENCY
 * steps of up to 5 min at a time).
 */
export const IMPORT_AGE_ALARM = Duration.hours(1);

/**
 * What one step sends to the table (shared/domain/import-run.ts, import-lines.ts,
 * import-tickets.ts, store/imports.ts): the job, source items, unique guards and a resumed
 * ticket read by key (GetItem); records with their source items, events and history committed in
 * transactions (PutItem, UpdateItem, ConditionCheckItem); a ticket's number allocated
 * (UpdateItem); failed lines put 25 at a time (BatchWriteItem). No Query (nothing in the worker's
 * bundle queries: a resumed ticket is read by key), no delete, no index read (`npm start` alone
 * queries the running jobs' list partition, to resume jobs its in-memory queue lost).
 */
export const IMPORT_WORKER_DYNAMO: readonly DynamoAction[] = [
  'GetItem',
  'PutItem',
  'UpdateItem',
  'ConditionCheckItem',
  'BatchWriteItem',
];

/**
 * What one step does in the bucket: reads its file in ranges; attaches a ticket's documents as
 * `POST /ticket/insert` does (inline ones put, uploads copied out of staging and deleted there,
 * undone on a failed write; a missing upload is S3's 404: ListBucket); puts a customer's photo as
 * `POST /customer/insert` does (deleted again on a failed write).
 */
export const IMPORT_WORKER_BLOBS: BlobAccess = {
  imports: ['GetObject'],
  documents: ['PutObject', 'DeleteObject'],
  staging: ['GetObject', 'DeleteObject'],
  photos: ['PutObject', 'DeleteObject'],
  listBucket: true,
};

/**
 * Import jobs (issue 24, docs/import.md): `PUT /import/{id}/start` queues a job's first step →
 * a FIFO queue, grouped by job (a job's steps one after another, jobs side by side) and
 * deduplicated per job and offset → the import worker (functions/import-worker.ts), one step a
 * receive, which queues the job's next step itself. A step failing IMPORT_MAX_RECEIVES times ends
 * in the dead-letter queue. `alarms` watch both (their action, the alarm topic, is added by
 * infra/monitoring.ts); docs/operations.md, "Importing a help desk", says what to do.
 */
export class ImportPipeline extends Construct {
  /** The steps of running jobs (FIFO, high throughput: one group per job). */
  readonly queue: Queue;
  /** Steps received IMPORT_MAX_RECEIVES times without finishing. */
  readonly deadLetterQueue: Queue;
  readonly worker: ApiFunction;
  /** Every alarm of the pipeline, without actions: infra/monitoring.ts wires them to the topic. */
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: ImportPipelineProps) {
    super(scope, id);
    const { table, removalPolicy } = props;
    const common = workerQueueProps(removalPolicy);

    this.deadLetterQueue = new Queue(this, 'DeadLetters', { ...common, fifo: true });
    this.queue = new Queue(this, 'Queue', {
      ...common,
      fifo: true,
      // High-throughput FIFO: deduplication and the throughput limit per message group (per job),
      // so many jobs run side by side.
      deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      // Every step carries its MessageDeduplicationId, `<job>:<offset>` (shared/queue/import-queue.ts).
      contentBasedDeduplication: false,
      // AWS's advice for a Lambda-polled queue: six times the function's timeout (30 min; SQS's most is 12 h).
      visibilityTimeout: Duration.seconds(IMPORT_STEP_TIMEOUT.toSeconds() * 6),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: IMPORT_MAX_RECEIVES },
    });

    this.worker = new ApiFunction(this, 'WorkerFunction', {
      handlerFile: handlerOf('importWorker'),
      table,
      tableAccess: 'write',
      dynamo: IMPORT_WORKER_DYNAMO,
      rateLimited: false,
      blobs: {
        bucket: props.bucket,
        access: IMPORT_WORKER_BLOBS,
        ...(props.otherBuckets ? { otherBuckets: props.otherBuckets } : {}),
      },
      timeout: IMPORT_STEP_TIMEOUT,
      logRetention: props.logRetention,
      removalPolicy,
      // Its own queue: a step queues the job's next one.
      environment: { ...props.environment, ...this.environment() },
    });
    this.grantSend(this.worker);
    // Batch size 1: a step is the whole of an invocation (it runs until a minute before the
    // timeout), and a failed one does not hold back another job's. The event source grants
    // ReceiveMessage, DeleteMessage and ChangeMessageVisibility on this queue.
    this.worker.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: 1,
        reportBatchItemFailures: true,
        maxConcurrency: IMPORT_CONCURRENCY,
      }),
    );

    // --- Alarms -----------------------------------------------------------------------------
    const see = 'docs/operations.md, "Importing a help desk"';
    this.alarms.push(
      workerAlarm(
        this,
        'DeadLettersAlarm',
        visibleMessages(this.deadLetterQueue),
        1,
        `An import step failed ${IMPORT_MAX_RECEIVES} times and is in the import dead-letter queue: its job ` +
          'stays running and makes no progress (no line is lost: the job holds its offset). The body names ' +
          "the tenant, the job and the offset; read the import worker's logs ('import step failed') for the " +
          'cause (the table or S3 refusing, a crash, a timeout) and fix it, then redrive the message to the ' +
          'import queue (SQS redrive): a step run again skips what it already wrote. ' +
          `Alternatively PUT /import/{id}/start queues the job's current step again (${see}).`,
        true,
      ),
      workerAlarm(
        this,
        'BacklogAlarm',
        this.queue.metricApproximateAgeOfOldestMessage({
          period: WORKER_ALARM_PERIOD,
          statistic: Stats.MAXIMUM,
        }),
        IMPORT_AGE_ALARM.toSeconds(),
        `An import step has waited in the import queue more than ${IMPORT_AGE_ALARM.toHours()} h: its job ` +
          "is not moving. Either the worker keeps failing it (the import worker's errors and logs: a failing " +
          `step comes back every ${IMPORT_STEP_TIMEOUT.toMinutes() * 6} min and after ${IMPORT_MAX_RECEIVES} ` +
          'receives goes to the dead-letter queue), or it is throttled (its throttles, the account concurrency ' +
          `alarm), or so many jobs run at once (${IMPORT_CONCURRENCY} steps at a time) that steps wait their ` +
          `turn, which is no fault. Fix the cause; the steps go on by themselves (${see}).`,
      ),
    );
  }

  /** What a function that queues steps (or the worker) is told: the queue's URL. */
  environment(): Record<string, string> {
    return { IMPORT_QUEUE_URL: this.queue.queueUrl };
  }

  /**
   * Lets `fn` queue steps: SendMessage alone on this queue (inline, as the webhook fan-out's), not
   * grantSendMessages, which adds GetQueueAttributes and GetQueueUrl no sender uses.
   */
  grantSend(fn: ApiFunction): void {
    fn.addToInlinePolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }),
    );
  }
}
