import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleLikeAFunction } from '../helpers/bundle';

/**
 * Bundles take `node:http` and `node:https` from the runtime's CommonJS modules
 * (shared/aws/node-http.ts). A bundle built the way the stack builds one, started by a plain
 * `node`, sends a DynamoDB request through the SDK's HTTP handler (which builds both modules'
 * agents) to a local server, and reads Middy's status texts.
 */
const dir = mkdtempSync(join(tmpdir(), 'bundled-http-'));
let server: Server;
let seen: { method?: string; target?: string } = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    seen = { method: req.method, target: String(req.headers['x-amz-target']) };
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ TableNames: ['from-the-server'] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await bundleLikeAFunction(
    dir,
    [
      "import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';",
      "import { STATUS_CODES } from 'node:http';",
      'const client = new DynamoDBClient({',
      "  region: 'us-east-1',",
      '  endpoint: process.argv[2],',
      "  credentials: { accessKeyId: 'a', secretAccessKey: 'b' },",
      '});',
      'const out = await client.send(new ListTablesCommand({}));',
      'process.stdout.write(JSON.stringify({ tables: out.TableNames, status: STATUS_CODES[404] }));',
    ].join('\n'),
  );
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('a bundle with the runtime’s http modules', () => {
  it('sends SDK requests and reads node:http exports', async () => {
    const { port } = server.address() as AddressInfo;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(dir, 'index.mjs'), `http://127.0.0.1:${port}`],
      {
        env: { PATH: process.env.PATH },
      },
    );
    expect(JSON.parse(stdout)).toEqual({ tables: ['from-the-server'], status: 'Not Found' });
    expect(seen).toEqual({ method: 'POST', target: 'DynamoDB_20120810.ListTables' });
  });
});
