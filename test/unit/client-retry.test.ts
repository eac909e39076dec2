import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  backoffCeiling,
  createHelpdeskClient,
  DEFAULT_RETRY,
  fullJitter,
  HelpdeskError,
  parseRetryAfter,
  type RetryEvent,
  retryDelay,
  retryPolicy,
} from '../../client/src';
import { followQuery } from '../../client/src/paging';
import { replaySafe, retryableStatus } from '../../client/src/retry';
import { AccessTokens } from '../../client/src/tokens';

/** The client's retry policy and transport, with a scripted fetch and an injected sleep (no network). */

const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 5_000 });

describe('backoff with full jitter', () => {
  it('doubles the ceiling per retry up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((n) => backoffCeiling(n, policy))).toEqual([
      100, 200, 400, 800, 1600, 3200, 5000, 5000,
    ]);
  });

  it('waits uniformly in [0, ceiling): the random source maps onto the whole range', () => {
    expect(fullJitter(3, policy, () => 0)).toBe(0);
    expect(fullJitter(3, policy, () => 0.5)).toBe(400);
    expect(fullJitter(3, policy, () => 0.999_999_9)).toBe(799);
  });

  it('never waits less than 0 or as long as the ceiling, whatever the attempt and the draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 120_000 }),
        (attempt, draw, baseDelayMs, maxDelayMs) => {
          const p = retryPolicy({ baseDelayMs, maxDelayMs });
          const wait = fullJitter(attempt, p, () => draw);
          expect(Number.isInteger(wait)).toBe(true);
          expect(wait).toBeGreaterThanOrEqual(0);
          expect(wait).toBeLessThan(backoffCeiling(attempt, p));
          expect(wait).toBeLessThan(maxDelayMs);
        },
      ),
    );
  });

  it('spreads real draws over the range (Math.random)', () => {
    const waits = Array.from({ length: 2000 }, () => fullJitter(2, policy));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...waits)).toBeLessThan(400);
    expect(waits.filter((w) => w < 200).length).toBeGreaterThan(800);
    expect(waits.filter((w) => w >= 200).length).toBeGreaterThan(800);
  });
});

describe('retryDelay', () => {
  it('stops once the retries are spent (default 4)', () => {
    expect(DEFAULT_RETRY.maxRetries).toBe(4);
    const p = retryPolicy();
    expect([0, 1, 2, 3].map((n) => retryDelay(n, undefined, p, () => 0.5))).toEqual([100, 200, 400, 800]);
    expect(retryDelay(4, undefined, p, () => 0.5)).toBeUndefined();
    expect(retryDelay(0, undefined, retryPolicy({ maxRetries: 0 }))).toBeUndefined();
  });

  it('honours Retry-After: never sooner, jitter on top of nothing', () => {
    expect(retryDelay(0, 2_000, policy, () => 0.5)).toBe(2_000);
    expect(retryDelay(6, 2_000, { ...policy, maxRetries: 10 }, () => 0.9)).toBe(4_500);
    expect(retryDelay(0, 0, policy, () => 0.5)).toBe(50);
  });

  it('gives up rather than wait longer than maxRetryAfterMs', () => {
    expect(retryDelay(0, 60_000, policy)).toBeDefined();
    expect(retryDelay(0, 61_000, policy)).toBeUndefined();
    expect(retryDelay(0, 61_000, retryPolicy({ maxRetryAfterMs: 120_000 }), () => 0)).toBe(61_000);
  });

  it('refuses a negative or non-finite setting', () => {
    expect(() => retryPolicy({ maxRetries: -1 })).toThrow(RangeError);
    expect(() => retryPolicy({ baseDelayMs: Number.NaN })).toThrow(RangeError);
  });
});

describe('what is retried', () => {
  it('parses Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 7 ', now)).toBe(7_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:03 GMT', now)).toBe(3_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('repeats 429 and 503 always; 504 and 409 request-in-progress only when the repeat is safe', () => {
    const inProgress = 'urn:helpdesk:problem:request-in-progress';
    expect(retryableStatus(429, false, undefined)).toBe(true);
    expect(retryableStatus(503, false, undefined)).toBe(true);
    expect(retryableStatus(504, false, undefined)).toBe(false);
    expect(retryableStatus(504, true, undefined)).toBe(true);
    expect(retryableStatus(409, true, inProgress)).toBe(true);
    expect(retryableStatus(409, true, 'urn:helpdesk:problem:duplicate-email')).toBe(false);
    for (const status of [200, 400, 401, 404, 412, 422, 500, 502]) {
      expect(retryableStatus(status, true, undefined)).toBe(false);
    }
    expect(replaySafe('GET', new Headers())).toBe(true);
    expect(replaySafe('PUT', new Headers())).toBe(false);
    expect(replaySafe('POST', new Headers({ 'Idempotency-Key': 'k' }))).toBe(true);
  });
});

/** A client whose fetch answers from a script, and whose sleep records the waits. */
const scripted = (answers: (Response | Error | ((r: Request) => Response))[], retry = {}) => {
  const requests: Request[] = [];
  const waits: number[] = [];
  const events: RetryEvent[] = [];
  const token = () =>
    Response.json({
      access_token: `t${requests.length}`,
      token_type: 'bearer',
      expires_in: 3600,
      scope: 'read write',
    });
  const client = createHelpdeskClient({
    baseUrl: 'https://api.example.com/helpdesk/',
    apiToken: btoa('client-1:secret'),
    retry,
    random: () => 0.5,
    sleep: async (ms) => void waits.push(ms),
    onRetry: (e) => events.push(e),
    fetch: async (request) => {
      requests.push(request);
      if (new URL(request.url).pathname.endsWith('/oauth/token')) return token();
      const next = answers.shift();
      if (!next) throw new Error(`unexpected ${request.method} ${request.url}`);
      if (next instanceof Error) throw next;
      return typeof next === 'function' ? next(request) : next;
    },
  });
  const calls = () => requests.filter((r) => !r.url.includes('/oauth/token'));
  return { client, requests, calls, waits, events };
};

const problem = (status: number, type: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ type: `urn:helpdesk:problem:${type}`, title: 'T', status, detail: 'D' }), {
    status,
    headers: { 'content-type': 'application/problem+json', 'x-request-id': `req-${status}`, ...headers },
  });
const created = (id = 'c1') => Response.json({ id }, { status: 201 });

describe('transport', () => {
  it('retries 503 and 429 with backoff, honouring Retry-After, with the same Idempotency-Key and body', async () => {
    const { client, calls, waits, events } = scripted(
      [problem(503, 'unavailable', { 'retry-after': '1' }), problem(429, 'rate-limited'), created()],
      { baseDelayMs: 100 },
    );
    const result = await client.customers.insert({ name: 'Ada', email: 'ada@example.com' });
    expect(result.data).toEqual({ id: 'c1' });
    expect(waits).toEqual([1_000, 100]); // Retry-After 1 s; then jitter 0.5 × 200
    expect(events.map((e) => [e.attempt, e.status, e.delayMs])).toEqual([
      [1, 503, 1_000],
      [2, 429, 100],
    ]);
    const sent = calls();
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((r) => r.headers.get('idempotency-key')))).toEqual(
      new Set([result.idempotencyKey]),
    );
    expect(await Promise.all(sent.map((r) => r.text()))).toEqual(
      Array(3).fill(JSON.stringify({ name: 'Ada', email: 'ada@example.com' })),
    );
    expect(sent.map((r) => r.url)).toEqual(Array(3).fill('https://api.example.com/helpdesk/customer/insert'));
    expect(sent[0]?.headers.get('authorization')).toBe('Bearer t1');
    expect(sent[0]?.headers.get('clientid')).toBe('client-1');
    expect(sent[0]?.headers.get('helpdesk-compat')).toBe('standard');
  });

  it('gives up after maxRetries and throws the last problem as a HelpdeskError', async () => {
    const { client, calls, waits } = scripted(
      Array.from({ length: 5 }, () => problem(503, 'unavailable', { 'retry-after': '0' })),
    );
    const error = await client.tickets.get('t1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HelpdeskError);
    expect(error).toMatchObject({
      status: 503,
      type: 'urn:helpdesk:problem:unavailable',
      title: 'T',
      detail: 'D',
      requestId: 'req-503',
      retryAfter: 0,
      errors: [],
    });
    expect(calls()).toHaveLength(5);
    expect(waits).toEqual([100, 200, 400, 800]);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs', async () => {
    const { client, calls } = scripted([problem(429, 'rate-limited', { 'retry-after': '120' })]);
    await expect(client.customers.get('c1')).rejects.toMatchObject({ status: 429, retryAfter: 120 });
    expect(calls()).toHaveLength(1);
  });

  it('repeats a lost connection or a 504 of any write with a key, never of one without', async () => {
    const lost = () => new TypeError('fetch failed');
    const create = scripted([lost(), problem(504, 'outcome-unknown'), created('t9')]);
    const reply = await create.client.tickets.reply('t1', { text: 'hi' });
    expect(reply.data).toEqual({ id: 't9' });
    expect(create.events.map((e) => e.status)).toEqual([undefined, 504]);
    expect(new Set(create.calls().map((r) => r.headers.get('idempotency-key'))).size).toBe(1);

    // An update carries a key too: its retry replays, never writes over a later change.
    const update = scripted([lost(), problem(504, 'outcome-unknown'), Response.json({ id: 't1' })]);
    expect((await update.client.tickets.update('t1', { subject: 'x' })).data).toEqual({ id: 't1' });
    expect(update.calls()).toHaveLength(3);
    expect(new Set(update.calls().map((r) => r.headers.get('idempotency-key'))).size).toBe(1);

    // The webhook insert answers its secret once: it takes no key, and is never repeated.
    const webhook = scripted([lost()]);
    await expect(
      webhook.client.api.POST('/webhook/insert', { body: { url: 'https://example.com/hook' } }),
    ).rejects.toThrow('fetch failed');
    const webhook504 = scripted([problem(504, 'outcome-unknown')]);
    const answer = await webhook504.client.api.POST('/webhook/insert', {
      body: { url: 'https://example.com/hook' },
    });
    expect(answer.response.status).toBe(504);
    expect(webhook.calls()).toHaveLength(1);
    expect(webhook504.calls()).toHaveLength(1);
    expect(webhook.calls()[0]?.headers.get('idempotency-key')).toBeNull();
  });

  it('waits for a request in progress (409) under the same key', async () => {
    const { client, calls } = scripted([problem(409, 'request-in-progress'), created('n1')]);
    expect((await client.tickets.addNote('t1', { note: 'n' })).data).toEqual({ id: 'n1' });
    expect(calls()).toHaveLength(2);
    const duplicate = scripted([problem(409, 'duplicate-email')]);
    await expect(duplicate.client.customers.insert({ name: 'A', email: 'a@b.c' })).rejects.toMatchObject({
      status: 409,
      type: 'urn:helpdesk:problem:duplicate-email',
    });
    expect(duplicate.calls()).toHaveLength(1);
  });

  it('renews the token on a 401 once per call, and does not count it as a retry', async () => {
    const { client, requests, events } = scripted([
      problem(401, 'unauthorized'),
      Response.json({ id: 'c1', name: 'Ada' }),
      problem(401, 'unauthorized'),
      problem(401, 'unauthorized'),
    ]);
    expect((await client.customers.get('c1')).data).toMatchObject({ name: 'Ada' });
    expect(requests.map((r) => [new URL(r.url).pathname, r.headers.get('authorization')])).toEqual([
      ['/helpdesk/oauth/token', `Basic ${btoa('client-1:secret')}`],
      ['/helpdesk/customer/c1', 'Bearer t1'],
      ['/helpdesk/oauth/token', `Basic ${btoa('client-1:secret')}`],
      ['/helpdesk/customer/c1', 'Bearer t3'],
    ]);
    await expect(client.customers.get('c1')).rejects.toMatchObject({ status: 401 });
    expect(requests).toHaveLength(7); // one more renewal, then the 401 stands
    expect(events).toEqual([]);
  });

  it('keeps a caller-given Idempotency-Key and sets If-Match', async () => {
    const { client, calls } = scripted([created('c1'), Response.json({ id: 'c1' })]);
    const result = await client.customers.insert(
      { name: 'A', email: 'a@b.c' },
      { idempotencyKey: 'order-1' },
    );
    expect(result).toMatchObject({ idempotencyKey: 'order-1', replayed: false });
    await client.customers.update('c1', { name: 'B' }, { ifMatch: '"3"' });
    expect(calls().map((r) => [r.headers.get('idempotency-key'), r.headers.get('if-match')])).toEqual([
      ['order-1', null],
      [expect.stringMatching(/^[0-9a-f-]{36}$/), '"3"'],
    ]);
  });

  it('also sets a key on creates sent through the raw openapi-fetch client', async () => {
    const { client, calls } = scripted([created('c1')]);
    await client.api.POST('/customer/insert', { body: { name: 'A', email: 'a@b.c' } });
    expect(calls()[0]?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sleeps for real between retries by default (fake timers)', async () => {
    vi.useFakeTimers();
    const answers = [problem(503, 'unavailable', { 'retry-after': '2' }), created('c1')];
    const seen: number[] = [];
    const client = createHelpdeskClient({
      baseUrl: 'https://api.example.com',
      apiToken: btoa('client-1:secret'),
      fetch: async (request) => {
        if (request.url.includes('/oauth/token'))
          return Response.json({ access_token: 't', expires_in: 3600 });
        seen.push(Date.now());
        return answers.shift() as Response;
      },
    });
    const pending = client.customers.insert({ name: 'A', email: 'a@b.c' });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).data).toEqual({ id: 'c1' });
    expect(seen.map((t) => t - (seen[0] ?? 0))).toEqual([0, 2_000]);
  });

  it('stops waiting when the call is aborted', async () => {
    const controller = new AbortController();
    const client = createHelpdeskClient({
      baseUrl: 'https://api.example.com',
      apiToken: btoa('client-1:secret'),
      fetch: async (request) => {
        if (request.url.includes('/oauth/token'))
          return Response.json({ access_token: 't', expires_in: 3600 });
        setTimeout(() => controller.abort(new Error('enough')), 5);
        return problem(503, 'unavailable', { 'retry-after': '30' });
      },
    });
    await expect(client.customers.get('c1', { signal: controller.signal })).rejects.toThrow('enough');
  });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('access tokens', () => {
  it('renews at 90 % of expires_in, counted from when the exchange was sent', async () => {
    let now = 0;
    let issued = 0;
    const tokens = new AccessTokens({
      now: () => now,
      renewAt: 0.9,
      exchange: async () => {
        now += 1_000; // the exchange itself takes a second
        return { access_token: `t${++issued}`, expires_in: 100 };
      },
    });
    expect(await tokens.get()).toBe('t1');
    now = 89_999;
    expect(await tokens.get()).toBe('t1');
    now = 90_000;
    expect(await tokens.get()).toBe('t2');
  });

  it('shares one exchange between concurrent callers, and forgets only the refused token', async () => {
    let issued = 0;
    const tokens = new AccessTokens({
      now: () => 0,
      renewAt: 0.9,
      exchange: async () => ({ access_token: `t${++issued}`, expires_in: 100 }),
    });
    expect(await Promise.all([tokens.get(), tokens.get(), tokens.get()])).toEqual(['t1', 't1', 't1']);
    tokens.invalidate('t0');
    expect(await tokens.get()).toBe('t1');
    tokens.invalidate('t1');
    expect(await tokens.get()).toBe('t2');
    expect(tokens.exchanges).toBe(2);
  });

  it('keeps using a still-valid token when its early renewal fails', async () => {
    let now = 0;
    let fail = false;
    const tokens = new AccessTokens({
      now: () => now,
      renewAt: 0.9,
      exchange: async () => {
        if (fail) throw new Error('token route down');
        return { access_token: 't1', expires_in: 100 };
      },
    });
    await tokens.get();
    fail = true;
    now = 95_000;
    expect(await tokens.get()).toBe('t1');
    now = 100_000;
    await expect(tokens.get()).rejects.toThrow('token route down');
  });
});

describe('following nextQuery', () => {
  it('uses the path and query of the absolute address against the configured base URL', () => {
    expect(
      followQuery(
        'https://proxy.internal/customer/list?email=a%40b.c&page=2&cursor=xyz',
        'http://localhost:3000',
        '/customer/list',
      ),
    ).toEqual({ email: 'a@b.c', page: '2', cursor: 'xyz' });
    expect(
      followQuery(
        'https://api.example.com/helpdesk/ticket/t1/replies?page=3&cursor=c',
        'https://api.example.com/helpdesk',
        '/ticket/t1/replies',
      ),
    ).toEqual({ page: '3', cursor: 'c' });
  });

  it('refuses an address that leaves the list', () => {
    expect(() => followQuery('https://x/agent/list?page=2', 'https://x', '/customer/list')).toThrow(
      /does not continue/,
    );
  });
});

describe('bulk calls', () => {
  it('keys every operation that has no key, keeps the ones given, and returns the operations sent', async () => {
    const answer = Response.json({
      results: [
        { status: 201, body: { id: 't1' } },
        { status: 200, body: { id: 't2' } },
      ],
    });
    const { client, calls } = scripted([answer]);
    const sent = await client.tickets.bulk([
      { op: 'insert', body: { subject: 's', description: 'd', openedBy: { id: 'c1' } } },
      { op: 'update', id: 't2', key: 'mine', body: { status: 'closed' } },
    ]);
    expect(sent.data.results.map((r) => r.status)).toEqual([201, 200]);
    const body = (await calls()[0]?.json()) as { operations: { key: string }[] };
    expect(body.operations.map((o: { key: string }) => o.key)).toEqual([
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      'mine',
    ]);
    expect(sent.operations).toEqual(body.operations);
    // Sending the answered operations again sends the same keys: a replay, never a second write.
    const again = scripted([Response.json({ results: [] })]);
    await again.client.tickets.bulk(sent.operations);
    const resent = (await again.calls()[0]?.json()) as typeof body | undefined;
    expect(resent?.operations).toEqual(body.operations);
  });
});
