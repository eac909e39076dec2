import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { type Alarm, type IMetric, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { DeduplicationScope, FifoThroughputLimit, Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { handlerOf } from '../shared/workers';
import { ApiFunction } from './api-function';
import { ITERATOR_AGE_ALARM, newEvents, streamSource, workerQueueProps, writtenIn } from './stream-worker';
import { iteratorAge, visibleMessages, WORKER_ALARM_PERIOD, workerAlarm } from './worker-alarms';

export interface WebhookPipelineProps {
  /** The table: its stream (NEW_AND_OLD_IMAGES) carries the event items to fan out. */
  readonly table: ITableV2;
  /** The cursor-signing key: each delivery carries the feed's cursor right after its event. */
  readonly cursorSecret: ISecret;
  /** The API's base URL (the `$default` stage's URL, with its trailing slash), for the cursor links. */
  readonly publicBaseUrl: string;
  readonly logRetention: RetentionDays;
  /** Of the functions' log groups and of the queues. */
  readonly removalPolicy: RemovalPolicy;
  /** Given to both functions, beside their own (the stack's INDEX_MIGRATION_STEP). */
  readonly environment?: Record<string, string>;
  /**
   * Several regions (docs/regions.md): the fan-out takes only the events written in this region
   * (an event item's `region`, shared/store/events.ts). Every replica's stream carries every
   * event; each is fanned out once, by its home region.
   */
  readonly eventRegion?: string;
}

/** One delivery: the 5 s HTTP exchange (shared/domain/webhook-delivery.ts), its reads and writes. */
export const DELIVERY_TIMEOUT = Duration.seconds(15);
/** One batch of up to 100 event records: reading the tenants' subscriptions and queuing their messages. */
export const FANOUT_TIMEOUT = Duration.seconds(30);
/**
 * A message's receives are its delivery attempts (about 14 to 20 in the 24 h of retries:
 * shared/domain/webhook-retry.ts) and its waits for its tenant's turn (store/delivery-slots.ts;
 * growing to 30–60 s apart: `postponeDelay`), plus crashed or timed-out invocations. SQS's
 * largest: a message goes to the dead-letter queue only after about 16 h of waiting its turn.
 */
export const MAX_DELIVERY_RECEIVES = 1000;
/**
 * The most deliveries running at once (the SQS event source's maximum concurrency): the delivery
 * function can never take more of the account's concurrency than this from the API. Each tenant
 * runs at most WEBHOOK_TENANT_CONCURRENCY (4) of them, so one tenant's silent receivers leave the
 * others at least 16.
 */
export const DELIVERY_CONCURRENCY = 20;
/** Older than this, the delivery queue's oldest message is waiting beyond the normal retries. */
export const DELIVERY_AGE_ALARM = Duration.hours(6);

/**
 * The webhook delivery path (issue 13): event items on the table's stream → the fan-out function,
 * one message per matching subscription → a FIFO queue, grouped `<webhookId>:<resourceId>`
 * (ordered per ticket per subscription) → the delivery function, one attempt per receive, the
 * backoff by changing the message's visibility. Failures end in two dead-letter queues, watched by
 * `alarms` (their action, the alarm topic, is added by infra/monitoring.ts).
 */
export class WebhookPipeline extends Construct {
  /** The delivery queue (FIFO, high throughput). */
  readonly queue: Queue;
  /** Deliveries received MAX_DELIVERY_RECEIVES times without being settled. */
  readonly deadLetterQueue: Queue;
  /** Stream batches the fan-out gave up on (the failure's metadata: shard and sequence numbers). */
  readonly fanoutFailures: Queue;
  readonly fanout: ApiFunction;
  readonly deliver: ApiFunction;
  /** Every alarm of the pipeline, without actions: the stack wires them to a topic later. */
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: WebhookPipelineProps) {
    super(scope, id);
    const { table, removalPolicy } = props;
    const common = workerQueueProps(removalPolicy);
    const functionDefaults = { table, rateLimited: false, logRetention: props.logRetention, removalPolicy };

    // --- Delivery ---------------------------------------------------------------------------
    this.deadLetterQueue = new Queue(this, 'DeliveryDeadLetters', { ...common, fifo: true });
    this.deliver = new ApiFunction(this, 'DeliverFunction', {
      ...functionDefaults,
      handlerFile: handlerOf('webhookDeliver'),
      // It reads the event, the subscription and related records, writes attempt items, settles
      // pending items, takes the tenant's delivery slots and conditionally disables the
      // subscription in a transaction. No events: webhooks are silent.
      tableAccess: 'write',
      timeout: DELIVERY_TIMEOUT,
      environment: {
        ...props.environment,
        CURSOR_SECRET_ARN: props.cursorSecret.secretArn,
        DELIVERY_BASE_URL: props.publicBaseUrl,
      },
    });
    props.cursorSecret.grantRead(this.deliver.inlineGrantee);

    this.queue = new Queue(this, 'DeliveryQueue', {
      ...common,
      fifo: true,
      // High-throughput FIFO: deduplication and the throughput limit per message group.
      deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      // So every message must carry a MessageDeduplicationId: the fan-out's, one per subscription
      // and event, which keeps a re-fanned stream record from being queued twice (5 min window).
      contentBasedDeduplication: false,
      // AWS's advice for a Lambda-polled queue: six times the function's timeout.
      visibilityTimeout: Duration.seconds(DELIVERY_TIMEOUT.toSeconds() * 6),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_DELIVERY_RECEIVES },
    });
    // Batch size 1: a message's ApproximateReceiveCount is exactly its attempt number, and no
    // message waits in a batch behind a failing one of the same group (a FIFO handler must return
    // every message after a failed one as failed too). The event source grants ReceiveMessage,
    // DeleteMessage and ChangeMessageVisibility (the backoff) on this queue.
    this.deliver.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: 1,
        reportBatchItemFailures: true,
        maxConcurrency: DELIVERY_CONCURRENCY,
      }),
    );

    // --- Fan-out ----------------------------------------------------------------------------
    this.fanoutFailures = new Queue(this, 'FanoutFailures', common);
    this.fanout = new ApiFunction(this, 'FanoutFunction', {
      ...functionDefaults,
      handlerFile: handlerOf('webhookFanOut'),
      // It queries the tenant's subscriptions (the list index), puts their pending items and, for
      // a redelivery, pages through them, marks them and records how far it got. Never a delete.
      tableAccess: 'write',
      dynamo: ['Query', 'index:Query', 'PutItem', 'UpdateItem'],
      timeout: FANOUT_TIMEOUT,
      environment: { ...props.environment, WEBHOOK_QUEUE_URL: this.queue.queueUrl },
    });
    // SendMessage alone (SendMessageBatch is authorised by it): not grantSendMessages, which adds
    // GetQueueAttributes and GetQueueUrl the function has no use for.
    this.fanout.addToInlinePolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }),
    );
    this.fanout.addEventSource(
      streamSource(
        table,
        this.fanoutFailures,
        // Event items, inserted, with the attributes of shared/store/events.ts, but not those of an
        // import job's records (no storm of deliveries: docs/import.md); and redelivery
        // items (shared/store/pending-deliveries.ts) written or advanced and not yet done. `exists`
        // matches leaves only, hence the DynamoDB type (N, S, BOOL) under each attribute. A record
        // given up on after the stream's retention: its event is still in the table's feed
        // partition (30 days), from where the lost range can be fanned out again.
        [
          newEvents(props.eventRegion, { imported: false }),
          FilterCriteria.filter({
            eventName: FilterRule.or('INSERT', 'MODIFY'),
            dynamodb: {
              NewImage: {
                redeliverOf: { S: FilterRule.exists() },
                done: { BOOL: FilterRule.isEqual(false) },
                ...writtenIn(props.eventRegion),
              },
            },
          }),
        ],
        // One batch per shard at a time: a tenant's events reach the queue in stream order.
        { parallelizationFactor: 1 },
      ),
    );

    // --- Alarms -----------------------------------------------------------------------------
    const alarm = (name: string, metric: IMetric, threshold: number, description: string, atLeast = false) =>
      this.alarms.push(workerAlarm(this, name, metric, threshold, description, atLeast));

    alarm(
      'DeliveryDeadLettersAlarm',
      visibleMessages(this.deadLetterQueue),
      1,
      `Webhook deliveries were received ${MAX_DELIVERY_RECEIVES} times without being settled and are in the ` +
        'delivery dead-letter queue. Normal retries end within 24 h on their own (the subscription is then ' +
        'disabled), so these are deliveries the function crashed or timed out on repeatedly, or of a tenant ' +
        'whose deliveries waited for its turn for about 16 h: read its logs for the event ids, fix the cause, ' +
        'then redrive the messages to the delivery queue (SQS redrive). Their events stay owed (the ' +
        "subscription's pending items) until delivered, and re-enabling the subscription sends them too.",
      true,
    );
    alarm(
      'FanoutFailuresAlarm',
      visibleMessages(this.fanoutFailures),
      1,
      'The webhook fan-out gave up on stream records after retrying them for 24 h: their events were not ' +
        'queued for any subscription. Each message names the shard, the sequence numbers and the arrival ' +
        "times of the batch lost; read the fan-out function's logs for the cause and fix it. The events " +
        "themselves are still in their tenants' feed (kept 30 days, GET /event/list) for that time range: " +
        'they must be queued again from there (no tool does it yet), or receivers told to replay the feed.',
      true,
    );
    alarm(
      'DeliveryBacklogAlarm',
      this.queue.metricApproximateAgeOfOldestMessage({
        period: WORKER_ALARM_PERIOD,
        statistic: Stats.MAXIMUM,
      }),
      DELIVERY_AGE_ALARM.toSeconds(),
      `The oldest webhook delivery has waited more than ${DELIVERY_AGE_ALARM.toHours()} h: deliveries are ` +
        'falling behind beyond normal retries. Check the delivery function for errors and throttles and its ' +
        'concurrency; a receiver failing for hours also holds back the later events of its groups (ordered per ' +
        'ticket), which its delivery attempts (GET /webhook/{id}/deliveries) show.',
    );
    alarm(
      'FanoutIteratorAgeAlarm',
      iteratorAge(this.fanout),
      ITERATOR_AGE_ALARM.toMilliseconds(),
      `The webhook fan-out is more than ${ITERATOR_AGE_ALARM.toMinutes()} min behind the table's stream: ` +
        'a batch keeps failing (it is retried for 24 h, then given up to the fan-out failures queue) or the ' +
        "function cannot keep up. Read the fan-out function's errors, throttles and logs and fix the cause " +
        'while the records are still in the stream (24 h).',
    );
  }
}
