import dns, { type LookupAddress } from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../shared/config';
import { deliver, RESPONSE_BYTES } from '../../shared/domain/webhook-delivery';
import { newSigningSecret } from '../../shared/domain/webhooks';
import { webhookEntity } from '../../shared/store/entities/records';
import { getRecord } from '../../shared/store/record-reads';
import { newTenant } from '../helpers/api';
import { clientFor } from '../helpers/tenant-client';
import { openLocalPort } from '../helpers/webhook-receiver';

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
  // Answers at once, then never finishes its body.
  '/stall': (res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('partial');
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
  openLocalPort((server.address() as AddressInfo).port);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const EVENT = { id: '0190a1b2c3d4e5f6a7b8c9d0', type: 'agent.created', occurredAt: Date.now() };
const CURSOR = 'https://api.example.com/event/list?cursor=abc';

/** Delivers to `url` with a resolver answering `addresses` (and counting its calls). */
const deliverResolving = async (url: string, addresses: string[], timeoutMs?: number) => {
  let calls = 0;
  const lookup = async () => {
    calls += 1;
    return addresses.map((address) => ({ address }));
  };
  const outcome = await deliver({ url, secret: newSigningSecret() }, EVENT, CURSOR, {
    lookup,
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  return { outcome, calls };
};

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
  // After the client's seeded ticket types (created with it), the agent's.
  expect(feed.records.map((e: { type: string }) => e.type)).toEqual([
    ...Array(4).fill('ticket_type.created'),
    'agent.created',
  ]);
  return { api, subscription, event: feed.records.at(-1), cursor: feed.nextQuery as string };
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
    openLocalPort(port);
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await deliver({ ...subscription, url: `http://127.0.0.1:${port}/gone` }, event, cursor);
    expect(outcome).toMatchObject({ ok: false, error: 'request failed: ECONNREFUSED' });
  });
});

describe('deliver: local receivers only on the ports named', () => {
  it('refuses a delivery to the S3 server’s or DynamoDB Local’s port, named or not: nothing is sent, nothing read', async () => {
    const s3 = Number(new URL(String(process.env.S3_ENDPOINT)).port);
    const dynamo = Number(new URL(String(process.env.DYNAMODB_ENDPOINT)).port);
    for (const url of [`http://127.0.0.1:${s3}/${process.env.BUCKET_NAME}`, `http://localhost:${dynamo}/`]) {
      for (const named of [false, true]) {
        if (named) openLocalPort(Number(new URL(url).port));
        const outcome = await deliver({ url, secret: newSigningSecret() }, EVENT, CURSOR);
        expect(outcome, `${url} named: ${named}`).toEqual({
          ok: false,
          error: expect.stringMatching(/port/),
          ms: expect.any(Number),
        });
      }
    }
  });

  it('refuses a delivery once its port is no longer named (checked before every attempt)', async () => {
    const { subscription, event, cursor } = await setUp('/ok');
    const before = received.length;
    const named = process.env.WEBHOOK_LOCAL_PORTS;
    process.env.WEBHOOK_LOCAL_PORTS = '';
    resetConfig();
    try {
      const outcome = await deliver(subscription, event, cursor);
      expect(outcome).toEqual({ ok: false, error: expect.stringMatching(/port/), ms: expect.any(Number) });
      expect(received.length).toBe(before);
    } finally {
      process.env.WEBHOOK_LOCAL_PORTS = named;
      resetConfig();
    }
    expect(await deliver(subscription, event, cursor)).toMatchObject({ ok: true, status: 204 });
  });
});

/**
 * DNS rebinding: the addresses a delivery checks are the addresses it connects to. The host is
 * resolved once; a resolver that answers the receiver's address to the check and another
 * address to any later question (what a hostile DNS server does to reach 169.254.169.254 or
 * 10.x past the check) must not move the connection.
 */
describe('deliver: the connection goes to the address checked', () => {
  it('resolves the host once and connects to what it checked, whatever the resolver answers later', async () => {
    const port = (server.address() as AddressInfo).port;
    // First answer: the receiver (loopback, allowed for localhost in local mode). Every later
    // answer: a private address where nothing listens.
    const asked: string[] = [];
    const rebinding = (host: string): string => {
      asked.push(host);
      return asked.length === 1 ? '127.0.0.1' : '10.255.255.1';
    };
    // The same resolver behind node:dns, which a request that resolves the host again would use.
    const system = vi.spyOn(dns, 'lookup').mockImplementation(((
      host: string,
      options: unknown,
      callback?: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
    ) => {
      const done = (typeof options === 'function' ? options : callback) as NonNullable<typeof callback>;
      const address = rebinding(host);
      const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
      process.nextTick(() => (all ? done(null, [{ address, family: 4 }]) : done(null, address, 4)));
    }) as unknown as typeof dns.lookup);
    try {
      const before = received.length;
      const outcome = await deliver(
        { url: `http://localhost:${port}/ok`, secret: newSigningSecret() },
        EVENT,
        CURSOR,
        { lookup: async (host) => [{ address: rebinding(host) }], timeoutMs: 2000 },
      );
      expect(asked).toEqual(['localhost']);
      expect(outcome).toEqual({ ok: true, status: 204, response: '', ms: expect.any(Number) });
      const got = received.slice(before);
      expect(got.map((r) => r.path)).toEqual(['/ok']);
      // The request still names the host it was addressed to.
      expect(got[0]?.headers.host).toBe(`localhost:${port}`);
    } finally {
      system.mockRestore();
    }
  });

  it('refuses a host when any of its addresses is private, and connects nowhere', async () => {
    const port = (server.address() as AddressInfo).port;
    const before = received.length;
    for (const addresses of [
      ['127.0.0.1', '10.0.0.7'],
      ['169.254.169.254'],
      ['::1', 'fd00::1'],
      ['93.184.215.14', '169.254.169.254'],
      ['10.1.2.3', '93.184.215.14'],
      ['2606:4700::1', 'fd00::1'],
      ['93.184.215.14', '::ffff:127.0.0.1'],
      // IPv4-translated (::ffff:0:0:0/96): loopback and the metadata address.
      ['::ffff:0:7f00:1'],
      ['93.184.215.14', '::ffff:0:a9fe:a9fe'],
    ]) {
      const { outcome, calls } = await deliverResolving(`http://localhost:${port}/ok`, addresses);
      expect(calls).toBe(1);
      expect(outcome).toEqual({
        ok: false,
        error: expect.stringMatching(/resolves to .*private, loopback, link-local or reserved/),
        ms: expect.any(Number),
      });
    }
    expect(received.length).toBe(before);
  });

  it('tries each checked address in turn (one that refuses, then the receiver)', async () => {
    const port = (server.address() as AddressInfo).port;
    const before = received.length;
    // Nothing listens on port `port` of 127.0.0.2 (the receiver is bound to 127.0.0.1).
    const outcome = await deliver(
      { url: `http://localhost:${port}/ok`, secret: newSigningSecret() },
      EVENT,
      CURSOR,
      { lookup: async () => [{ address: '127.0.0.2' }, { address: '127.0.0.1' }], timeoutMs: 2000 },
    );
    expect(outcome).toMatchObject({ ok: true, status: 204 });
    expect(received.slice(before).map((r) => r.path)).toEqual(['/ok']);
  });

  it('the timeout covers reading the answer: a body that never ends is no answer', async () => {
    const port = (server.address() as AddressInfo).port;
    const outcome = await deliver(
      { url: `http://127.0.0.1:${port}/stall`, secret: newSigningSecret() },
      EVENT,
      CURSOR,
      { timeoutMs: 300 },
    );
    expect(outcome).toEqual({ ok: false, error: 'no answer within 300 ms', ms: expect.any(Number) });
    expect(outcome.ms).toBeGreaterThanOrEqual(250);
    expect(outcome.ms).toBeLessThan(2500);
  });

  it('over https, sends the hostname as SNI while connecting to the checked address', async () => {
    const names: string[] = [];
    // No certificate: the handshake fails once the server has read the name the client asked for.
    const tls = createTlsServer({
      SNICallback: (name, callback) => {
        names.push(name);
        callback(new Error('no certificate here'));
      },
    });
    tls.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = tls.address() as AddressInfo;
      openLocalPort(port);
      const { outcome, calls } = await deliverResolving(`https://localhost:${port}/ok`, ['127.0.0.1'], 2000);
      expect(calls).toBe(1);
      expect(names).toEqual(['localhost']);
      expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/^request failed/) });
    } finally {
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});
