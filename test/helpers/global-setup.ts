import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { type DynamoDbLocal, localDynamoClient, startDynamoDbLocal } from '../../local/dynamodb-local';
import { startS3Local } from '../../local/s3-local';
import { ensureTable } from '../../shared/store/create-table';

/** The table every test uses; tests isolate themselves by tenant, not by table. */
const TEST_TABLE = 'helpdesk-test';

declare module 'vitest' {
  export interface ProvidedContext {
    /** POST `/lease` answers the endpoint of a fresh DynamoDB Local; POST `/release` (the endpoint as body) stops it. */
    dynamoPool: string;
    s3Endpoint: string;
    bucketName: string;
  }
}

/** A fresh in-memory DynamoDB Local with the test table. shortLived: one file's worth of work. */
const fresh = async (): Promise<DynamoDbLocal> => {
  const dynamo = await startDynamoDbLocal({ shortLived: true });
  const client = localDynamoClient(dynamo.endpoint);
  try {
    await ensureTable(client, TEST_TABLE);
    return dynamo;
  } catch (error) {
    await dynamo.stop();
    throw error;
  } finally {
    client.destroy();
  }
};

/**
 * Starts one local S3 server (temporary directory) for the whole run, and hands each test file a
 * DynamoDB Local of its own (test/helpers/env.ts leases it, and releases it when the file ends):
 * one shared by the whole run slowed down as the run filled it (a file taking 14 s alone took
 * 141 s at the end of a full run; the webhook pipeline's stream reads stalled), and a file's
 * result must not depend on what ran before it. A start takes about 4 s, so one spare is always
 * starting while a file runs: the next file rarely waits.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const s3 = await startS3Local();
  const spares: Promise<DynamoDbLocal>[] = [];
  const leased = new Map<string, DynamoDbLocal>();
  const startSpare = () => {
    const spare = fresh();
    // Awaited when leased (or at teardown); a failed start is reported to the file that leases it.
    spare.catch(() => undefined);
    spares.push(spare);
  };
  startSpare();
  const pool = createServer((req, res) => {
    const answer = (status: number, text: string) => res.writeHead(status).end(text);
    if (req.method !== 'POST') return answer(405, 'POST /lease or /release');
    if (req.url === '/lease') {
      const next = spares.shift() ?? fresh();
      startSpare();
      next.then(
        (dynamo) => {
          leased.set(dynamo.endpoint, dynamo);
          answer(200, dynamo.endpoint);
        },
        (error: Error) => answer(500, `DynamoDB Local did not start: ${error.message}`),
      );
      return;
    }
    let endpoint = '';
    req.on('data', (chunk: Buffer) => {
      endpoint += chunk.toString('utf8');
    });
    req.on('end', () => {
      const dynamo = leased.get(endpoint);
      leased.delete(endpoint);
      (dynamo ? dynamo.stop() : Promise.resolve()).then(
        () => answer(204, ''),
        (error: Error) => answer(500, error.message),
      );
    });
  });
  await new Promise<void>((resolve) => pool.listen(0, '127.0.0.1', resolve));
  project.provide('dynamoPool', `http://127.0.0.1:${(pool.address() as AddressInfo).port}`);
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('bucketName', s3.bucket);
  return async () => {
    pool.close();
    const left = await Promise.allSettled(spares);
    const running = [...leased.values(), ...left.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))];
    await Promise.all(running.map((dynamo) => dynamo.stop()));
    await s3.stop();
  };
}
