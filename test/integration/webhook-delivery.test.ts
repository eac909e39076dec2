import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver, RESPONSE_BYTES } from '../../shared/domain/webhook-delivery';
import { webhookEntity } from '../../shared/store/entities/records';
import { getRecord } from '../../shared/store/records';
import { newTenant } from '../helpers/api';
import { clientFor } from '../helpers/tenant-client';

/**
 * One delivery attempt against a real receiver on 127.0.0.1 (WEBHOOK_ALLOW_LOCAL_HTTP is on in
 * the tests): signed as Standard Webhooks verifies, 2xx only is ok, redirects never followed,
 * a slow receiver times out, at most 4 KB of an answer read.
 */
interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}
const received: Received[] = [];
let server: Server;
let base: string;

const ROUTES: Record<string, (res: ServerResponse) => void> = {
  '/ok': (res) => res.writeHead(204).end(),
  '/fail': (res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('x'.repeat(64 * 1024)),
  '/redirect': (res) => res.writeHead(302, { location: `${base}/ok` }).end(),
  '/slow': (res) => {
    setTimeout(() => res.writeHead(200).end(), 3000).unref();
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      (ROUTES[path] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A subscription made through the API, and a real event of its tenant's feed with the cursor after it. */
const setUp = async (path: string) => {
  const tenant = await newTenant();
  const api = clientFor(tenant);
  const created = await api.post('/webhook/insert', { url: `${base}${path}` });
  expect(created.status).toBe(201);
  const subscription = await getRecord(webhookEntity, tenant.clientId, created.body.id);
  expect(subscription.secret).toBe(created.body.secret);
  await api.create('/agent/insert', { name: 'Ada', email: 'ada@example.com' });
  await new Promise((resolve) => setTimeout(resolve, 250)); // the feed's lag in the tests (100 ms)
  const feed = (await api.get('/event/list')).body.event;
  expect(feed.records).toHaveLength(1);
  return { api, subscription, event: feed.records[0], cursor: feed.nextQuery as string };
};

describe('deliver', () => {
  it('POSTs the event with its cursor, signed: Webhook.verify accepts it; 2xx is ok', async () => {
    const { api, subscription, event, cursor } = await setUp('/ok');
    const outcome = await deliver(subscription, event, cursor);
    expect(outcome).toEqual({ ok: true, status: 204, response: '', ms: expect.any(Number) });
    const got = received.filter((r) => r.path === '/ok').at(-1) as Received;
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-id']).toBe(event.id);
    const payload = new Webhook(subscription.secret).verify(got.body, got.headers as Record<string, string>);
    expect(payload).toEqual({
      type: 'agent.created',
      timestamp: new Date(event.occurredAt).toISOString(),
      data: { event, cursor },
    });
    // The cursor replays the feed from right after this event: nothing more yet.
    const replay = await api.get(cursor);
    expect(replay.status).toBe(200);
    expect(replay.body.event.records).toEqual([]);
    // Tampered, the signature fails.
    expect(() =>
      new Webhook(subscription.secret).verify(
        got.body.replace('agent.created', 'agent.deleted'),
        got.headers as Record<string, string>,
      ),
    ).toThrow();
  });

  it('is not ok when the receiver answers 500, and reads at most 4 KB of its answer', async () => {
    const { subscription, event, cursor } = await setUp('/fail');
    const outcome = await deliver(subscription, event, cursor);
    expect(outcome).toMatchObject({ ok: false, status: 500, error: 'answered 500' });
    expect(outcome.response?.length).toBe(RESPONSE_BYTES);
  });

  it('never follows a redirect: a 3xx is a failure and its Location is not requested', async () => {
    const { subscription, event, cursor } = await setUp('/redirect');
    const before = received.filter((r) => r.path === '/ok').length;
    const outcome = await deliver(subscription, event, cursor);
    expect(outcome).toMatchObject({ ok: false, status: 302, error: 'redirect (302) not followed' });
    expect(received.filter((r) => r.path === '/ok').length).toBe(before);
  });

  it('gives up on a slow receiver at the timeout', async () => {
    const { subscription, event, cursor } = await setUp('/slow');
    const outcome = await deliver(subscription, event, cursor, { timeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, error: 'no answer within 300 ms' });
    expect(outcome.status).toBeUndefined();
    expect(outcome.ms).toBeGreaterThanOrEqual(250);
    expect(outcome.ms).toBeLessThan(2500);
  });

  it('reports a receiver that is not there', async () => {
    const { subscription, event, cursor } = await setUp('/ok');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await deliver({ ...subscription, url: `http://127.0.0.1:${port}/gone` }, event, cursor);
    expect(outcome).toMatchObject({ ok: false, error: 'request failed: ECONNREFUSED' });
  });
});
