import { afterAll, beforeAll } from 'vitest';
import { type EventPipeline, startEventPipeline } from '../../local/event-pipeline';
import { type SqsLocal, startSqsLocal } from '../../local/sqs-local';
import { resetConfig } from '../../shared/config';
import { closeSearchEngine } from '../../shared/search/engine';
import { tableName } from '../../shared/store/dynamo';
import { invoke, newTenant } from './api';
import { useOwnTable } from './own-table';
import { clientFor } from './tenant-client';

/**
 * Search tests' setup (docs/search.md): a table of the file's own (the pipeline reads its whole
 * stream), the local event pipeline feeding the search indexer (PGlite in this process), and, at
 * the end, all of it stopped.
 */
export const useSearchPipeline = (table: string): void => {
  let sqs: SqsLocal | undefined;
  let pipeline: EventPipeline | undefined;
  beforeAll(async () => {
    await useOwnTable(table);
    const queue = `${table}-deliveries.fifo`;
    sqs = await startSqsLocal({ queues: [{ name: queue, visibilityTimeoutSeconds: 5 }] });
    process.env.SQS_ENDPOINT = sqs.endpoint;
    process.env.WEBHOOK_QUEUE_URL = sqs.queueUrl(queue);
    resetConfig();
    pipeline = await startEventPipeline({
      dynamoEndpoint: String(process.env.DYNAMODB_ENDPOINT),
      tableName: tableName(),
      sqsEndpoint: sqs.endpoint,
      queueUrl: sqs.queueUrl(queue),
      pollMs: 50,
      consumers: 1,
    });
  });
  afterAll(async () => {
    await pipeline?.stop();
    await sqs?.stop();
    await closeSearchEngine();
  });
};

/** A fresh tenant whose client remembers the position of its last write, and searches after it. */
export const newSearcher = async () => {
  const tenant = await newTenant();
  const api = clientFor(tenant);
  let position: string | undefined;
  const write = async (method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => {
    const res = await api.send(method, path, body);
    if (res.status >= 300)
      throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    const at = res.headers['helpdesk-position'];
    if (!at || !/^\d{17}#[0-9A-Za-z]+$/.test(at)) throw new Error(`${method} ${path} answered no position`);
    position = at;
    return res.body;
  };
  const get = (url: string, headers: Record<string, string> = {}) =>
    invoke('GET', url, { headers: { ...tenant.headers, ...headers } });
  const url = (path: string, query: string, more: string) =>
    `${path}?query=${encodeURIComponent(query)}${more}`;
  return {
    tenant,
    api,
    write,
    get,
    /** Answers from what is indexed now. */
    search: (path: string, query: string, more = '') => get(url(path, query, more)),
    /** Waits for the index to apply the last write first (`Helpdesk-Min-Position`). */
    searchAfterWrites: (path: string, query: string, more = '') =>
      get(url(path, query, more), position ? { 'helpdesk-min-position': position } : {}),
  };
};
