import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { withoutSdkLogging } from '../../shared/aws/sdk-logging';
import { db, resetDb } from '../../shared/store/dynamo';

/**
 * The SDK's logger middleware builds a filtered copy of every call's input and answer before it
 * calls `logger.info`; our clients have it taken out (shared/aws/sdk-logging.ts). A local HTTP
 * server answers a GetItem as DynamoDB does; a logger given to the client shows whether the copy
 * was made.
 */
let server: Server;
let endpoint: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'r' });
      res.end(JSON.stringify({ Item: { pk: { S: 'a' }, sk: { S: 'b' }, secret: { S: 'customer data' } } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  resetDb();
});

const client = (logger: { info: () => void }) =>
  new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    logger: { debug: () => {}, warn: () => {}, error: () => {}, ...logger },
  });

const getItem = (base: DynamoDBClient) =>
  DynamoDBDocumentClient.from(base).send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } }));

describe('the SDK logger middleware', () => {
  it('copies every answer for the logger when left in the stack', async () => {
    const info = vi.fn();
    const out = await getItem(client({ info }));
    expect(out.Item?.secret).toBe('customer data');
    expect(info).toHaveBeenCalledTimes(1);
    expect(info.mock.calls[0]?.[0]).toMatchObject({ commandName: 'GetItemCommand', output: { Item: {} } });
  });

  it('is never reached once taken out: the answer is the same, nothing copied', async () => {
    const info = vi.fn();
    const out = await getItem(withoutSdkLogging(client({ info })));
    expect(out.Item?.secret).toBe('customer data');
    expect(info).not.toHaveBeenCalled();
  });

  it('is not in the store client every function uses', () => {
    const stack = db().middlewareStack.identify();
    expect(stack.some((name) => name.startsWith('serializerMiddleware'))).toBe(true);
    expect(stack.some((name) => name.startsWith('loggerMiddleware'))).toBe(false);
  });
});
