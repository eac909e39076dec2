import type { _Record as StreamRecord } from '@aws-sdk/client-dynamodb-streams';
import { DeleteMessageCommand, type Message, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type {
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
  SQSBatchResponse,
  SQSEvent,
  SQSRecord,
} from 'aws-lambda';
import { sleep } from '../shared/store/attempt-budget';
import { IMPORT_MARK } from '../shared/store/events';
import { CASCADE_ATTRIBUTE, TRASHED_TICKET } from '../shared/store/keys';
import { IMPORT_STEP_TIMEOUT_MS } from '../shared/workers';
import { lambdaContext, loadHandler } from './lambda-runtime';
import { openStreamReader, type ShardBatchHandler, type StreamReader } from './stream-reader';
import { expireTrash, TTL_MARK } from './ttl-emulator';

/**
 * What Lambda's event source mappings do for the stream's and the queue's functions in AWS
 * (infra/webhook-pipeline.ts, infra/cascade-worker.ts), on a laptop: a poller over the table's
 * stream in DynamoDB Local that hands new event items and redelivery steps to
 * functions/webhook-fanout.ts (the same filter, resuming from the failure it reports), another
 * that hands new cascade items and expired trashed tickets to functions/cascade-worker.ts (TTL
 * itself played by local/ttl-emulator.ts: DynamoDB Local keeps expired items), and consumers of
 * the delivery queue (local/sqs-local.ts) that hand each message to functions/webhook-deliver.ts
 * in batches of one and delete what it does not report failed. The handlers are the deployed
 * ones, unchanged.
 *
 * Unlike AWS, the stream is read from the moment the pipeline starts (events written while the
 * server was stopped are in the feed, not delivered; cascades are still in the table, which
 * `npm start` drains at start), and nothing is persisted across restarts.
 */
export interface EventPipelineOptions {
  dynamoEndpoint: string;
  tableName: string;
  sqsEndpoint: string;
  queueUrl: string;
  /** The import queue (local/start.ts): its steps go to functions/import-worker.ts, one at a time per job. */
  importQueueUrl?: string;
  /** How often the stream is read when it had nothing (ms). */
  pollMs?: number;
  /** Queue consumers running at once (Lambda runs one per message group in flight). */
  consumers?: number;
  /** Several regions: take only the events written in this one (the stack's filter does the same). */
  region?: string;
  /**
   * Feed the search index too (functions/search-indexer.ts): on unless asked. Tests of the other
   * consumers turn it off: in AWS each consumer has its own functions, here they share one
   * process and one DynamoDB Local, and the indexer's reads would weigh on what they measure.
   */
  search?: boolean;
}

/** How often trashed tickets past their retention are expired (DynamoDB's TTL in AWS). */
const TTL_PERIOD_MS = 60_000;

export interface EventPipeline {
  stop(): Promise<void>;
}

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
/**
 * Queue consumers by default: twice WEBHOOK_TENANT_CONCURRENCY's default, so one tenant's silent
 * receivers leave the others half of them (the stack bounds the deployed function the same way:
 * infra/webhook-pipeline.ts DELIVERY_CONCURRENCY).
 */
export const DEFAULT_CONSUMERS = 8;
/** Import jobs run at once (as the stack's IMPORT_CONCURRENCY bounds the worker). */
const IMPORT_CONSUMERS = 2;

/**
 * The event source mapping's filter (infra/webhook-pipeline.ts): new event items but those of an
 * import job's records (their IMPORT_MARK: webhooks are not sent them), and redelivery items
 * (store/pending-deliveries.ts) written or advanced and not yet done.
 */
const isFannedOut = (r: StreamRecord, region?: string): boolean => {
  const image = r.dynamodb?.NewImage;
  if (region !== undefined && image?.region?.S !== region) return false;
  const redelivery =
    (r.eventName === 'INSERT' || r.eventName === 'MODIFY') &&
    image?.redeliverOf?.S !== undefined &&
    image?.done?.BOOL === false;
  return (isNewEvent(r) && image?.[IMPORT_MARK]?.S === undefined) || redelivery;
};

/** A new event item of the change feed (infra/stream-worker.ts `newEvents`). */
const isNewEvent = (r: StreamRecord): boolean =>
  r.eventName === 'INSERT' &&
  r.dynamodb?.NewImage?.occurredAt?.N !== undefined &&
  r.dynamodb?.NewImage?.resourceId?.S !== undefined;

/** A stream record as Lambda hands it over (dates in seconds; a TTL delete names DynamoDB as who did it). */
const lambdaRecord = (r: StreamRecord, streamArn: string): DynamoDBRecord => {
  const created = r.dynamodb?.ApproximateCreationDateTime;
  const byTtl = r.eventName === 'REMOVE' && r.dynamodb?.OldImage?.[TTL_MARK]?.BOOL === true;
  return {
    ...r,
    ...(byTtl ? { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } : {}),
    eventSourceARN: streamArn,
    dynamodb: {
      ...r.dynamodb,
      ApproximateCreationDateTime: created ? Math.floor(created.getTime() / 1000) : undefined,
    },
  } as DynamoDBRecord;
};

/** A received message as Lambda hands it over (bench/import.ts drives the import worker with it too). */
export const sqsRecord = (m: Message, queueUrl: string): SQSRecord =>
  ({
    messageId: m.MessageId ?? '',
    receiptHandle: m.ReceiptHandle ?? '',
    body: m.Body ?? '',
    attributes: m.Attributes ?? {},
    messageAttributes: {},
    md5OfBody: m.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:local:000000000000:${queueUrl.split('/').pop()}`,
    awsRegion: 'local',
  }) as SQSRecord;

/**
 * The cascade worker's filter (infra/cascade-worker.ts): new cascade items, and trashed tickets
 * TTL removed (here: local/ttl-emulator.ts, which marks them first), of this region.
 */
const isCascade = (r: StreamRecord, region?: string): boolean => {
  const image = r.eventName === 'REMOVE' ? r.dynamodb?.OldImage : r.dynamodb?.NewImage;
  if (region !== undefined && image?.region?.S !== region) return false;
  if (r.eventName === 'REMOVE')
    return image?.entity?.S === TRASHED_TICKET && image?.[TTL_MARK]?.BOOL === true;
  return r.eventName === 'INSERT' && image?.[CASCADE_ATTRIBUTE]?.S !== undefined;
};

/**
 * The search indexer's filter (infra/search.ts): new event items, of every region (each region
 * keeps a whole index), and erasure jobs marked done.
 */
const isIndexed = (r: StreamRecord): boolean => {
  const image = r.dynamodb?.NewImage;
  const erasureDone =
    r.eventName === 'MODIFY' &&
    image?.[CASCADE_ATTRIBUTE]?.S === 'erasure' &&
    image?.done?.BOOL === true &&
    r.dynamodb?.OldImage?.done?.BOOL !== true;
  return isNewEvent(r) || erasureDone;
};

export const startEventPipeline = async (options: EventPipelineOptions): Promise<EventPipeline> => {
  const pollMs = options.pollMs ?? 200;
  let running = true;
  // One reader per consumer, as each event source mapping keeps its own place in the stream.
  const open = () => openStreamReader({ endpoint: options.dynamoEndpoint, tableName: options.tableName });
  const reader = await open();
  const cascadeReader = await open();
  const indexing = options.search ?? true;
  const searchReader = indexing ? await open() : undefined;
  const indexer = indexing
    ? ((await loadHandler('search-indexer')) as unknown as (
        e: DynamoDBStreamEvent,
        c: unknown,
      ) => Promise<DynamoDBBatchResponse>)
    : undefined;
  const cascadeWorker = (await loadHandler('cascade-worker')) as unknown as (
    e: DynamoDBStreamEvent,
    c: unknown,
  ) => Promise<DynamoDBBatchResponse>;
  const sqs = new SQSClient({ endpoint: options.sqsEndpoint, region: 'us-east-1', credentials });
  const fanOut = (await loadHandler('webhook-fanout')) as unknown as (
    e: DynamoDBStreamEvent,
    c: unknown,
  ) => Promise<DynamoDBBatchResponse>;
  const deliver = (await loadHandler('webhook-deliver')) as unknown as (
    e: SQSEvent,
    c: unknown,
  ) => Promise<SQSBatchResponse>;

  /**
   * One shard's batch, filtered as an event source mapping does, handed to `handler`; a reported
   * failure is read again, after a pause.
   */
  const batchesFor =
    (
      name: string,
      wanted: (r: StreamRecord) => boolean,
      handler: (e: DynamoDBStreamEvent, c: unknown) => Promise<DynamoDBBatchResponse>,
    ) =>
    async (records: StreamRecord[]): Promise<string | undefined> => {
      const taken = records.filter(wanted);
      if (taken.length === 0) return undefined;
      const response = await handler(
        { Records: taken.map((r) => lambdaRecord(r, reader.streamArn)) },
        lambdaContext(name, crypto.randomUUID()),
      );
      const failed = response?.batchItemFailures?.[0]?.itemIdentifier;
      if (failed) await sleep(1000);
      return failed;
    };

  const pollStream = async (name: string, from: StreamReader, handleBatch: ShardBatchHandler) => {
    let rounds = 0;
    while (running) {
      try {
        if (++rounds % 25 === 0) await from.discover();
        if ((await from.read(handleBatch)) === 0) await sleep(pollMs);
      } catch (error) {
        if (running) console.error(`${name} stream poller: ${(error as Error).message}`);
        await sleep(1000);
      }
    }
  };

  /** A queue's consumer, as Lambda's SQS event source: batches of one, what is not reported failed deleted. */
  const consumer =
    (
      queueUrl: string,
      name: string,
      handler: (e: SQSEvent, c: unknown) => Promise<SQSBatchResponse>,
      timeout?: number,
    ) =>
    async () => {
      while (running) {
        try {
          const out = await sqs.send(
            new ReceiveMessageCommand({
              QueueUrl: queueUrl,
              MaxNumberOfMessages: 1,
              WaitTimeSeconds: 1,
              MessageSystemAttributeNames: ['All'],
            }),
          );
          const messages = out.Messages ?? [];
          if (messages.length === 0 || !running) continue;
          let failed = new Set(messages.map((m) => m.MessageId));
          try {
            const response = await handler(
              { Records: messages.map((m) => sqsRecord(m, queueUrl)) },
              lambdaContext(name, crypto.randomUUID(), timeout),
            );
            failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
          } catch (error) {
            // As Lambda: a thrown handler fails the whole batch, which comes back after its visibility timeout.
            console.error(`${name}: ${(error as Error).message}`);
          }
          for (const m of messages) {
            if (!failed.has(m.MessageId))
              await sqs.send(
                new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle }),
              );
          }
        } catch (error) {
          if (running) console.error(`${name} queue consumer: ${(error as Error).message}`);
          await sleep(1000);
        }
      }
    };
  const consume = consumer(options.queueUrl, 'webhook-deliver', deliver);
  const importWorker = options.importQueueUrl
    ? (loadHandler('import-worker') as unknown as Promise<
        (e: SQSEvent, c: unknown) => Promise<SQSBatchResponse>
      >)
    : undefined;

  const expireLoop = async () => {
    while (running) {
      // In short steps: stopping the pipeline does not wait out a whole period.
      for (let waited = 0; running && waited < TTL_PERIOD_MS; waited += 100) await sleep(100);
      if (!running) break;
      try {
        await expireTrash();
      } catch (error) {
        if (running) console.error(`trash expiry: ${(error as Error).message}`);
      }
    }
  };

  const loops = [
    pollStream(
      'webhook',
      reader,
      batchesFor('webhook-fanout', (r) => isFannedOut(r, options.region), fanOut),
    ),
    pollStream(
      'cascade',
      cascadeReader,
      batchesFor('cascade-worker', (r) => isCascade(r, options.region), cascadeWorker),
    ),
    ...(searchReader && indexer
      ? [pollStream('search', searchReader, batchesFor('search-indexer', isIndexed, indexer))]
      : []),
    ...Array.from({ length: options.consumers ?? DEFAULT_CONSUMERS }, consume),
    // Two jobs at once (one step of each at a time: the queue groups a job's steps).
    ...(options.importQueueUrl && importWorker
      ? Array.from({ length: IMPORT_CONSUMERS }, () =>
          consumer(
            options.importQueueUrl as string,
            'import-worker',
            async (e, c) => (await importWorker)(e, c),
            IMPORT_STEP_TIMEOUT_MS,
          )(),
        )
      : []),
    expireLoop(),
  ];
  return {
    stop: async () => {
      running = false;
      await Promise.allSettled(loops);
      reader.close();
      cascadeReader.close();
      searchReader?.close();
      sqs.destroy();
    },
  };
};
