/**
 * `npm start`: the whole API on one machine. DynamoDB Local (persisted in the data dir),
 * the table, the local API Gateway stand-in and, on first start, a demo client.
 * Env: PORT (3000), HOST (127.0.0.1; `0.0.0.0` or `::` listens on every interface),
 * HELPDESK_DATA_DIR (.helpdesk), DYNAMODB_ENDPOINT (use that store instead of starting one),
 * S3_ENDPOINT + BUCKET_NAME (likewise for attachments; otherwise a local S3 server keeps them in
 * <data dir>/s3). Webhooks: an in-memory delivery queue (local/sqs-local.ts) and the pipeline that
 * feeds and drains it (local/event-pipeline.ts); WEBHOOK_LOCAL_PORTS, the ports local receivers
 * may use (none unless named).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  dataDir,
  dynamoDbPath,
  processAlive,
  readRunningStore,
  removeRunningStore,
  searchDataDir,
  useCursorSecret,
  writeRunningStore,
} from './data-dir';
import { type DynamoDbLocal, dynamoAnswers, localDynamoClient, startDynamoDbLocal } from './dynamodb-local';
import type { EventPipeline } from './event-pipeline';
import { type S3Local, startS3Local } from './s3-local';
import type { LocalServer } from './server';
import { type SqsLocal, startSqsLocal } from './sqs-local';

const dir = dataDir();
let dynamo: DynamoDbLocal | undefined;
let server: LocalServer | undefined;
let blobs: S3Local | undefined;
let queues: SqsLocal | undefined;
let pipeline: EventPipeline | undefined;
let stopping: Promise<never> | undefined;

/**
 * Idempotent: Ctrl-C reaches us twice (from the terminal and relayed by tsx), and the second
 * signal must not cut short the first shutdown.
 */
const stop = (exitCode: number): Promise<never> => {
  stopping ??= (async () => {
    if (server) console.log('Stopping…');
    await server?.close().catch(() => undefined);
    await pipeline?.stop().catch(() => undefined);
    await import('../shared/search/engine').then((m) => m.closeSearchEngine()).catch(() => undefined);
    await queues?.stop().catch(() => undefined);
    await blobs?.stop().catch(() => undefined);
    await dynamo?.stop().catch(() => undefined);
    removeRunningStore(dir);
    process.exit(exitCode);
  })();
  return stopping;
};

/** The DynamoDB endpoint to use: the configured one, or a DynamoDB Local we start on the data dir. */
const startStore = async (): Promise<string> => {
  if (process.env.DYNAMODB_ENDPOINT) return process.env.DYNAMODB_ENDPOINT;
  const running = readRunningStore(dir);
  if (running && processAlive(running.pid) && (await dynamoAnswers(running.endpoint))) {
    throw new Error(`Another server (pid ${running.pid}) is using ${dir}. Stop it or set HELPDESK_DATA_DIR.`);
  }
  const started = Date.now();
  dynamo = await startDynamoDbLocal({ dbPath: dynamoDbPath(dir) });
  writeRunningStore(dir, { endpoint: dynamo.endpoint, pid: process.pid });
  console.log(`DynamoDB Local ready in ${Date.now() - started} ms (data in ${dynamoDbPath(dir)})`);
  return dynamo.endpoint;
};

/** Attachments and photos: the configured S3 endpoint, or a local S3 server on the data dir. */
const startBlobStore = async (): Promise<void> => {
  if (process.env.S3_ENDPOINT) return;
  blobs = await startS3Local({
    directory: join(dir, 's3'),
    bucket: process.env.BUCKET_NAME ?? 'helpdesk-blobs',
  });
  process.env.S3_ENDPOINT = blobs.endpoint;
  process.env.BUCKET_NAME = blobs.bucket;
};

/**
 * The webhook delivery queue and the import queue, as infra/webhook-pipeline.ts and
 * infra/import-pipeline.ts make them (in memory: gone when stopped; running imports are queued
 * again at start).
 */
const DELIVERY_QUEUE = 'helpdesk-webhook-deliveries.fifo';
const IMPORT_QUEUE = 'helpdesk-imports.fifo';
const startQueues = async (): Promise<void> => {
  queues = await startSqsLocal({
    queues: [
      { name: 'helpdesk-webhook-deliveries-dlq.fifo', visibilityTimeoutSeconds: 90 },
      {
        name: DELIVERY_QUEUE,
        visibilityTimeoutSeconds: 90,
        maxReceiveCount: 50,
        deadLetterQueue: 'helpdesk-webhook-deliveries-dlq.fifo',
      },
      { name: 'helpdesk-imports-dlq.fifo', visibilityTimeoutSeconds: 900 },
      {
        name: IMPORT_QUEUE,
        visibilityTimeoutSeconds: 900,
        maxReceiveCount: 5,
        deadLetterQueue: 'helpdesk-imports-dlq.fifo',
      },
    ],
  });
  process.env.SQS_ENDPOINT = queues.endpoint;
  process.env.WEBHOOK_QUEUE_URL = queues.queueUrl(DELIVERY_QUEUE);
  process.env.IMPORT_QUEUE_URL = queues.queueUrl(IMPORT_QUEUE);
};

const announceDemoClient = async (baseUrl: string): Promise<void> => {
  const marker = join(dir, 'demo-client');
  const createHint = 'npm run --silent helpdesk -- client create --name <name>';
  if (existsSync(marker)) {
    const clientId = readFileSync(marker, 'utf8').trim();
    console.log(`Demo client exists: clientId ${clientId}. Another client: ${createHint}`);
    return;
  }
  const { createClient } = await import('../shared/domain/new-client');
  const demo = await createClient('demo');
  writeFileSync(marker, `${demo.clientId}\n`);
  console.log(`Demo client created (the apiToken is shown only now):
  clientId: ${demo.clientId}
  apiToken: ${demo.apiToken}
Try it:
  curl -s -H 'Authorization: Basic ${demo.apiToken}' '${baseUrl}/oauth/token?grant_type=client_credentials'
  curl -s -H 'Authorization: Bearer <access_token>' -H 'clientId: ${demo.clientId}' ${baseUrl}/customer/list
More clients: ${createHint}`);
};

const main = async (): Promise<void> => {
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('exit', () => removeRunningStore(dir)); // also on a crash
  useCursorSecret(dir);
  // Webhooks may go to http://localhost receivers on a laptop, on the ports WEBHOOK_LOCAL_PORTS
  // names (off in AWS: shared/config.ts).
  process.env.WEBHOOK_ALLOW_LOCAL_HTTP ??= 'true';
  // The search index: PGlite in this process, kept in the data dir (docs/search.md), unless an
  // Aurora cluster is named.
  if (!process.env.SEARCH_CLUSTER_ARN) process.env.SEARCH_DATA_DIR ??= searchDataDir(dir);
  // Set before anything reads the config (it is parsed once, on first use).
  const endpoint = await startStore();
  process.env.DYNAMODB_ENDPOINT = endpoint;
  await startBlobStore();
  await startQueues();

  const { config } = await import('../shared/config');
  const { ensureTable } = await import('../shared/store/create-table');
  const client = localDynamoClient(endpoint);
  await ensureTable(client, config().TABLE_NAME).finally(() => client.destroy());

  const { startServer } = await import('./server');
  server = await startServer({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST });
  // Webhooks: the stream poller and the delivery queue's consumers (local/event-pipeline.ts).
  process.env.DELIVERY_BASE_URL ??= server.url;
  process.env.PORT = new URL(server.url).port; // never a local receiver's (domain/receiver-url.ts)
  (await import('../shared/config')).resetConfig(); // read again, with the URL and the port
  const { startEventPipeline } = await import('./event-pipeline');
  pipeline = await startEventPipeline({
    dynamoEndpoint: endpoint,
    tableName: config().TABLE_NAME,
    sqsEndpoint: String(queues?.endpoint),
    queueUrl: String(process.env.WEBHOOK_QUEUE_URL),
    importQueueUrl: String(process.env.IMPORT_QUEUE_URL),
  });
  // Imports that were running when the server stopped: their steps were in the in-memory queue.
  void (await import('../shared/domain/import-jobs')).resumeImports().then(
    (resumed) => {
      if (resumed > 0) console.log(`Resumed ${resumed} import job(s) left running by the last run`);
    },
    (error: Error) => console.error(`imports not resumed: ${error.message}`),
  );
  // Cascades written while the server was stopped are not in the stream it reads from now on.
  const { renderExport } = await import('../shared/http/views/customer-export');
  void (await import('../shared/domain/cascades')).drainCascades(renderExport).then(
    ({ finished, failed }) => {
      if (finished > 0) console.log(`Finished ${finished} cascade(s) left from the last run`);
      for (const f of failed) console.error(`cascade ${f.id} of ${f.tenantId} not finished: ${f.error}`);
    },
    (error: Error) => console.error(`cascades not drained: ${error.message}`),
  );
  // An index that has nothing yet (a first start, or a lost index) over a store that has data.
  void (await import('../shared/search/rebuild')).rebuildEmptyIndex().then(
    (reports) => {
      const tickets = reports.reduce((n, r) => n + r.tickets, 0);
      if (tickets > 0) console.log(`Indexed ${tickets} ticket(s) of ${reports.length} account(s) for search`);
    },
    (error: Error) => console.error(`search index not rebuilt: ${error.message}`),
  );
  await announceDemoClient(server.url);
  const ports = process.env.WEBHOOK_LOCAL_PORTS?.trim();
  console.log(
    config().WEBHOOK_ALLOW_LOCAL_HTTP
      ? `Webhooks to http://localhost receivers: ${ports ? `on ports ${ports}` : 'none (name their ports in WEBHOOK_LOCAL_PORTS)'}`
      : 'Webhooks to local receivers: off (WEBHOOK_ALLOW_LOCAL_HTTP=false)',
  );
  console.log(`Help-desk API listening on ${server.url} (Ctrl-C to stop)`);
};

main().catch(async (error: unknown) => {
  console.error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
  await stop(1);
});
