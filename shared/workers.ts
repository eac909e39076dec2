/**
 * The functions no HTTP route calls: what drives them, and the handler file under functions/.
 * With the route table (shared/routes.ts) they are every handler there is; the CDK stack
 * (infra/webhook-pipeline.ts, infra/helpdesk-stack.ts) and the local server (local/event-pipeline.ts)
 * wire them up.
 */
export interface Worker {
  /** Names the function (like a route's operationId). */
  readonly name: string;
  /** File name under functions/ without `.ts`. */
  readonly handler: string;
  /**
   * What invokes it: new items on the table's stream, messages of the webhook delivery queue or of
   * the import queue, or
   * Secrets Manager rotating the cursor secret (AWS only: locally the key does not rotate), or a
   * deploy (CloudFormation: the search schema's migrations; locally applied as the index opens).
   */
  readonly trigger: 'table-stream' | 'delivery-queue' | 'import-queue' | 'secret-rotation' | 'deploy';
  readonly summary: string;
}

export const workers: readonly Worker[] = [
  {
    name: 'webhookFanOut',
    handler: 'webhook-fanout',
    trigger: 'table-stream',
    summary: 'Queues one delivery per event per webhook subscription that wants it',
  },
  {
    name: 'webhookDeliver',
    handler: 'webhook-deliver',
    trigger: 'delivery-queue',
    summary: 'Sends a queued event to its subscription (Standard Webhooks), recording the attempt',
  },
  {
    name: 'importWorker',
    handler: 'import-worker',
    trigger: 'import-queue',
    summary:
      "Runs import jobs step by step: reads the job's file from S3 in chunks, applies its lines, records failed ones, queues the next step",
  },
  {
    name: 'cascadeWorker',
    handler: 'cascade-worker',
    trigger: 'table-stream',
    summary:
      "Finishes committed removals: a removed ticket's items and files, unreferenced photos, a revoked client's tokens",
  },
  {
    name: 'searchIndexer',
    handler: 'search-indexer',
    trigger: 'table-stream',
    summary: 'Applies committed changes and finished erasures to the search index (docs/search.md)',
  },
  {
    name: 'searchMigrate',
    handler: 'search-migrate',
    trigger: 'deploy',
    summary: "Applies the search index's schema migrations not yet applied (docs/search.md)",
  },
  {
    name: 'cursorKeyRotation',
    handler: 'cursor-key-rotation',
    trigger: 'secret-rotation',
    summary:
      'Rotates the cursor-signing key: a new random key as AWSPENDING, then AWSCURRENT (the old one stays AWSPREVIOUS)',
  },
];

/** A worker's handler file, by its name (the CDK constructs read it from here, as the local server does). */
export const handlerOf = (name: string): string => {
  const worker = workers.find((w) => w.name === name);
  if (!worker) throw new Error(`no worker ${name} in shared/workers.ts`);
  return worker.handler;
};

/** The import worker's timeout (infra/import-pipeline.ts; the local pipeline gives it the same): one step of a job. */
export const IMPORT_STEP_TIMEOUT_MS = 300_000;
