import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import newman, { type NewmanRunSummary } from 'newman';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, localDynamoClient } from '../../local/dynamodb-local';
import { OPENAPI_FILE } from '../../local/openapi';
import { POSTMAN_FILE } from '../../local/postman';
import { type Route, routes } from '../../shared/routes';
import { type NpmStart, npmStart } from '../helpers/npm-start';
import { connects, reachableWhenExposed } from '../helpers/reachability';

/**
 * `npm start` (local/start.ts, a process of its own) as a developer runs it, on the tests'
 * DynamoDB Local and S3 server but a table of its own (its event pipeline must not deliver the
 * other test files' events). The API listens on loopback only unless HOST says otherwise, and a
 * tenant's webhook reaches none of the local services' ports (the API's own, DynamoDB Local's,
 * the S3 server's) even when WEBHOOK_LOCAL_PORTS names them, nor any port it does not name.
 */
const TABLE = `helpdesk-npm-start-${process.pid}`;
const portOf = (endpoint: string | undefined) => Number(new URL(String(endpoint)).port);

/** An operation's tag in the document (the collection names each request `<tag>: <summary>`). */
const tagOf = (document: { paths: Record<string, Record<string, { tags: string[] }>> }, r: Route) =>
  document.paths[r.path]?.[r.method.toLowerCase()]?.tags[0];

let started: NpmStart;
let url: string;
let out = '';
const ports = { api: 0, dynamo: 0, s3: 0, named: 0, unnamed: 0 };

beforeAll(async () => {
  ports.api = await freePort();
  ports.named = await freePort();
  ports.unnamed = await freePort();
  ports.dynamo = portOf(process.env.DYNAMODB_ENDPOINT);
  ports.s3 = portOf(process.env.S3_ENDPOINT);
  started = await npmStart({
    TABLE_NAME: TABLE,
    PORT: String(ports.api),
    // The developer names the receiver's port, and (by mistake) the local services' own.
    WEBHOOK_LOCAL_PORTS: [ports.api, ports.dynamo, ports.s3, ports.named].join(','),
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    HOST: undefined,
    DELIVERY_BASE_URL: undefined,
    SQS_ENDPOINT: undefined,
    WEBHOOK_QUEUE_URL: undefined,
    IMPORT_QUEUE_URL: undefined,
  });
  url = started.url;
  out = started.output();
}, 120_000);

afterAll(async () => {
  await started?.stop();
  const client = localDynamoClient(String(process.env.DYNAMODB_ENDPOINT));
  await client.send(new DeleteTableCommand({ TableName: TABLE })).catch(() => undefined);
  client.destroy();
});

describe('npm start', () => {
  it('listens on 127.0.0.1 only by default: unreachable on the machine’s other addresses', async () => {
    expect(new URL(url).port).toBe(String(ports.api));
    expect(await connects('127.0.0.1', ports.api)).toBe(true);
    const exposed = await reachableWhenExposed();
    for (const host of exposed)
      expect(await connects(host, ports.api), `reachable on ${host}:${ports.api}`).toBe(false);
  });

  it('refuses webhooks to the API’s, DynamoDB Local’s and the S3 server’s ports, named or not, and to ports not named (400 naming url)', async () => {
    const clientId = /clientId: (\S+)/.exec(out)?.[1];
    const apiToken = /apiToken: (\S+)/.exec(out)?.[1];
    expect(clientId && apiToken, out).toBeTruthy();
    const base = `http://127.0.0.1:${ports.api}`;
    const token = await fetch(`${base}/oauth/token?grant_type=client_credentials`, {
      headers: { authorization: `Basic ${apiToken}` },
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const insert = (receiver: string) =>
      fetch(`${base}/webhook/insert`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${access_token}`,
          clientid: String(clientId),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ url: receiver }),
      });
    for (const receiver of [
      `http://127.0.0.1:${ports.dynamo}/`,
      `http://localhost:${ports.s3}/helpdesk-blobs`,
      `http://localhost:${ports.api}/ticket/list`,
      `http://[::1]:${ports.api}/`,
      `http://127.0.0.1:${ports.unnamed}/hooks`,
      'http://localhost/hooks', // port 80, not named
    ]) {
      const res = await insert(receiver);
      const body = (await res.json()) as { errors?: { path: string }[]; detail?: string };
      expect(res.status, `${receiver}: ${body.detail}`).toBe(400);
      expect(body.errors?.map((e) => e.path)).toEqual(['url']);
    }
    expect((await insert(`http://localhost:${ports.named}/hooks`)).status).toBe(201);
  });

  it('runs the published Postman collection with Newman: every request reaches its operation, the walk-through succeeds', async () => {
    const clientId = /clientId: (\S+)/.exec(out)?.[1] as string;
    const apiToken = /apiToken: (\S+)/.exec(out)?.[1] as string;
    const collection = JSON.parse(readFileSync(POSTMAN_FILE, 'utf8'));
    const summary = await new Promise<NewmanRunSummary>((resolve, reject) =>
      newman.run(
        {
          collection,
          reporters: [],
          envVar: [
            { key: 'baseUrl', value: `http://127.0.0.1:${ports.api}` },
            { key: 'clientId', value: clientId },
            { key: 'apiToken', value: apiToken },
          ],
        },
        (error, done) => (error ? reject(error) : resolve(done)),
      ),
    );
    const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
    const answers = summary.run.executions.map((e) => {
      const operation = routes.find((r) => e.item.name === `${tagOf(document, r)}: ${r.summary}`);
      return { name: e.item.name, operation, status: e.response?.code ?? 0 };
    });
    expect(answers).toHaveLength(routes.length);
    for (const { name, operation, status } of answers) {
      // Reached its operation (our 404 for a missing record, not a route that does not exist) and
      // answered one of its documented statuses; never a 5xx, never unauthenticated.
      expect(operation, name).toBeDefined();
      const declared = [operation?.responses.success[0], ...(operation?.responses.problems ?? [])];
      expect(declared, `${name}: ${status}`).toContain(status);
      expect(status, name).toBeLessThan(500);
      expect(status, name).not.toBe(401);
    }
    // The walk-through itself: signed in, one of each record created and read, changed, replied to.
    const succeeded = new Set(answers.filter((a) => a.status < 300).map((a) => a.operation?.operationId));
    for (const operationId of [
      'oauthToken',
      'customerInsert',
      'agentInsert',
      'ticketTypeInsert',
      'ticketInsert',
      'ticketDetail',
      'ticketList',
      'ticketUpdate',
      'ticketReply',
      'ticketAddNote',
      'customerDetail',
      'customerUpdate',
      'ticketDelete',
    ])
      expect(succeeded, operationId).toContain(operationId);
    expect(summary.run.failures.map((f) => `${f.source?.name}: ${f.error.message}`)).toEqual([]);
  }, 120_000);

  it('imports a Zendesk export end to end: helpdesk import convert, then import run (twice: nothing twice)', async () => {
    const apiToken = /apiToken: (\S+)/.exec(out)?.[1] as string;
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'local/cli.ts', ...args], {
        encoding: 'utf8',
        env: { ...process.env, HELPDESK_API_TOKEN: apiToken },
        timeout: 60_000,
      });
    const converted = cli('import', 'convert', 'zendesk', 'test/fixtures/zendesk');
    expect(converted.status, converted.stderr).toBe(0);
    const file = join(mkdtempSync(join(tmpdir(), 'helpdesk-import-')), 'zendesk.ndjson');
    writeFileSync(file, converted.stdout);
    const lines = converted.stdout.split('\n').filter(Boolean).length;

    const first = cli('import', 'run', file, '--url', url);
    expect(first.status, first.stderr).toBe(0);
    const job = JSON.parse(first.stdout.split('\n')[0] as string);
    expect(job).toMatchObject({ status: 'completed', progress: 1, linesRead: lines });
    expect(job.totals.failed).toBe(0);
    expect(job.counts.ticket).toMatchObject({ read: 2, created: 2 });
    // The progress bar went to stderr.
    expect(first.stderr).toMatch(/\[#+\] 100\.0%/);

    const again = cli('import', 'run', file, '--url', url);
    expect(again.status, again.stderr).toBe(0);
    const second = JSON.parse(again.stdout.split('\n')[0] as string);
    expect(second.totals).toEqual({ read: lines, created: 0, skipped: lines, failed: 0 });

    // A line that fails: exit 2, the line printed after the job.
    writeFileSync(file, '{"kind":"ticket","externalId":"x","subject":"s"}\n');
    const bad = cli('import', 'run', file, '--url', url);
    expect(bad.status, bad.stderr).toBe(2);
    const [, failed] = bad.stdout.split('\n');
    expect(JSON.parse(failed as string)).toMatchObject({ line: 1, kind: 'ticket', externalId: 'x' });
  });
});
