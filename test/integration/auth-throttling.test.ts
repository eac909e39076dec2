import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetVerifiedTokens } from '../../shared/auth/access-tokens';
import { resetConfig } from '../../shared/config';
import { createClient } from '../../shared/domain/new-client';
import { forgetRateWindows } from '../../shared/http/rate-limit';
import { clientTokenKeys } from '../../shared/store/client-items';
import { db } from '../../shared/store/dynamo';
import { newId } from '../../shared/store/ids';
import { type ApiResponse, invoke, newTenant } from '../helpers/api';

/**
 * Throttling before and around authentication: failed authentications are counted per
 * presented clientId and per source address, token exchanges per client, each with its own
 * budget (429 + Retry-After beyond it), and none of them spills over to another client or address.
 */
const TOKEN_URL = '/oauth/token?grant_type=client_credentials';

/** A fresh address per test: the counters live in the shared test table. */
const newAddress = () => `10.${[...randomBytes(3)].join('.')}`;
const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
const wrongSecret = () => randomBytes(32).toString('base64url');
const wrongToken = () => randomBytes(32).toString('base64url');

const useBudgets = (budgets: { perClient?: number; perAddress?: number; exchanges?: number }) => {
  if (budgets.perClient) vi.stubEnv('AUTH_FAILURES_PER_MINUTE_PER_CLIENT', String(budgets.perClient));
  if (budgets.perAddress) vi.stubEnv('AUTH_FAILURES_PER_MINUTE_PER_IP', String(budgets.perAddress));
  if (budgets.exchanges) vi.stubEnv('TOKEN_EXCHANGES_PER_MINUTE', String(budgets.exchanges));
  resetConfig();
  forgetRateWindows();
};

/** Counts the store calls by command name (GetItemCommand, UpdateItemCommand, …) from now on. */
const countCalls = () => {
  const calls: Record<string, number> = {};
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? '?';
      calls[name] = (calls[name] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name: 'count-calls' },
  );
  return calls;
};
const writesIn = (calls: Record<string, number>) =>
  Object.entries(calls)
    .filter(([name]) =>
      /^(UpdateItem|PutItem|TransactWriteItems|DeleteItem|BatchWriteItem)Command$/.test(name),
    )
    .reduce((sum, [, n]) => sum + n, 0);

/** How many access-token items a client holds. */
const tokenItems = async (clientId: string): Promise<number> => (await clientTokenKeys(clientId)).length;

const expectThrottled = (res: ApiResponse) => {
  expect(res.status).toBe(429);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.headers['retry-after']).toBe('55');
  expect(res.body).toMatchObject({
    type: 'urn:helpdesk:problem:rate-limited',
    title: 'Too Many Requests',
    status: 429,
  });
};

beforeEach(() => {
  // Every request of a test inside one minute window, 55 s before the next one opens.
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-22T10:00:05Z') });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  resetConfig();
  forgetRateWindows();
  forgetVerifiedTokens();
  db().middlewareStack.remove('count-calls');
});

describe('failed authentications per presented clientId', () => {
  it('answers wrong Basic secrets with 401 up to the budget, then 429 + Retry-After; other clients unaffected', async () => {
    const a = await createClient('a');
    const b = await createClient('b');
    useBudgets({ perClient: 20 });
    const statuses: number[] = [];
    let last: ApiResponse | undefined;
    for (let i = 0; i < 30; i++) {
      // Spread over addresses: the client's own budget is what runs out.
      last = await invoke('GET', TOKEN_URL, {
        headers: { authorization: basic(a.clientId, wrongSecret()) },
        remoteAddress: newAddress(),
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(20).fill(401), ...Array(10).fill(429)]);
    expectThrottled(last as ApiResponse);
    expect(last?.body.detail).not.toContain(a.clientId);

    // Only failures are counted against a client: its own valid exchange still works.
    const own = await invoke('GET', TOKEN_URL, { headers: { authorization: `Basic ${a.apiToken}` } });
    expect(own.status).toBe(200);
    // Another client is untouched, wrong secret and right one alike.
    const other = newAddress();
    const wrong = await invoke('GET', TOKEN_URL, {
      headers: { authorization: basic(b.clientId, wrongSecret()) },
      remoteAddress: other,
    });
    expect(wrong.status).toBe(401);
    const right = await invoke('GET', TOKEN_URL, {
      headers: { authorization: `Basic ${b.apiToken}` },
      remoteAddress: other,
    });
    expect(right.status).toBe(200);
  });

  it('answers bad bearer tokens with 401 up to the budget, then 429; valid tokens and other clients unaffected', async () => {
    const a = await newTenant();
    const b = await newTenant();
    useBudgets({ perClient: 20 });
    const statuses: number[] = [];
    let last: ApiResponse | undefined;
    for (let i = 0; i < 30; i++) {
      last = await invoke('GET', '/customer/list', {
        headers: { authorization: `Bearer ${wrongToken()}`, clientid: a.clientId },
        remoteAddress: newAddress(),
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(20).fill(401), ...Array(10).fill(429)]);
    expectThrottled(last as ApiResponse);

    forgetVerifiedTokens(); // a's valid token is checked against the store, not a cache
    expect((await invoke('GET', '/customer/list', { headers: a.headers })).status).toBe(200);
    const badB = await invoke('GET', '/customer/list', {
      headers: { authorization: `Bearer ${wrongToken()}`, clientid: b.clientId },
    });
    expect(badB.status).toBe(401);
    expect((await invoke('GET', '/customer/list', { headers: b.headers })).status).toBe(200);
  });

  it('counts an unknown clientId like a known one (no enumeration through 429s)', async () => {
    useBudgets({ perClient: 3 });
    const unknown = newId();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await invoke('GET', TOKEN_URL, {
            headers: { authorization: basic(unknown, wrongSecret()) },
            remoteAddress: newAddress(),
          })
        ).status,
      );
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it('costs at most one write per failure, none once the budget is known spent, nothing on valid requests', async () => {
    const a = await newTenant();
    useBudgets({ perClient: 20, perAddress: 1000 });
    const calls = countCalls();
    const address = newAddress();
    const valid = () => invoke('GET', '/customer/list', { headers: a.headers, remoteAddress: address });
    const invalid = () =>
      invoke('GET', '/customer/list', {
        headers: { authorization: `Bearer ${wrongToken()}`, clientid: a.clientId },
        remoteAddress: address,
      });
    const delta = async (run: () => Promise<unknown>) => {
      const before = { ...calls };
      await run();
      return Object.fromEntries(
        Object.entries(calls)
          .map(([name, n]) => [name, n - (before[name] ?? 0)])
          .filter(([, n]) => n !== 0),
      );
    };
    await valid(); // the token verified and cached, a request lease claimed
    const validCost = await delta(valid); // what the operation itself reads

    for (let i = 0; i < 20; i++) await invalid();
    expect(writesIn(calls)).toBeLessThanOrEqual(20);
    // Past the budget: one claim finds it spent, later failures are refused from memory.
    const past = await delta(async () => {
      for (let i = 0; i < 10; i++) expect((await invalid()).status).toBe(429);
    });
    expect(writesIn(past)).toBeLessThanOrEqual(1);

    // Valid requests of the client cost what they did before: nothing for auth.
    expect(await delta(valid)).toEqual(validCost);
    expect(writesIn(validCost)).toBe(0);
  });
});

describe('failed authentications per source address', () => {
  it('refuses an address past its budget, even before checking credentials; other addresses unaffected', async () => {
    const a = await newTenant();
    useBudgets({ perAddress: 10 });
    const flooder = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      // A different clientId each time: the address's own budget is what runs out.
      const res = await invoke('GET', '/customer/list', {
        headers: { authorization: `Bearer ${wrongToken()}`, clientid: newId() },
        remoteAddress: flooder,
      });
      statuses.push(res.status);
      if (res.status === 429) expectThrottled(res);
    }
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(5).fill(429)]);

    // Past its budget the address is refused before anything is read: Basic and Bearer alike.
    const calls = countCalls();
    forgetVerifiedTokens();
    expectThrottled(await invoke('GET', '/customer/list', { headers: a.headers, remoteAddress: flooder }));
    expectThrottled(
      await invoke('GET', TOKEN_URL, {
        headers: { authorization: `Basic ${a.apiToken}` },
        remoteAddress: flooder,
      }),
    );
    expect(calls).toEqual({});

    // Another address: failures are 401 again and valid requests pass, for the same client too.
    const other = newAddress();
    const bad = await invoke('GET', '/customer/list', {
      headers: { authorization: `Bearer ${wrongToken()}`, clientid: a.clientId },
      remoteAddress: other,
    });
    expect(bad.status).toBe(401);
    expect((await invoke('GET', '/customer/list', { headers: a.headers, remoteAddress: other })).status).toBe(
      200,
    );
    const token = await invoke('GET', TOKEN_URL, {
      headers: { authorization: `Basic ${a.apiToken}` },
      remoteAddress: other,
    });
    expect(token.status).toBe(200);
  });

  it('refuses missing and malformed credentials from memory, uncounted, until the address is over its budget', async () => {
    useBudgets({ perAddress: 2 });
    const flooder = newAddress();
    const malformed = ['Basic !!!', 'Bearer abc', '', 'Basic Zm9vOmJhcg==', `Basic ${'x'.repeat(60)}`];
    const calls = countCalls();
    const send = (authorization: string) =>
      invoke('GET', TOKEN_URL, { headers: authorization ? { authorization } : {}, remoteAddress: flooder });
    for (const authorization of malformed) expect((await send(authorization)).status).toBe(401);
    expect(calls).toEqual({}); // nothing read, nothing counted
    const wrong = () =>
      invoke('GET', '/customer/list', {
        headers: { authorization: `Bearer ${wrongToken()}`, clientid: newId() },
        remoteAddress: flooder,
      });
    expect([(await wrong()).status, (await wrong()).status, (await wrong()).status]).toEqual([401, 401, 429]);
    for (const authorization of malformed) expectThrottled(await send(authorization));
  });

  it('opens a new window each minute', async () => {
    useBudgets({ perAddress: 2 });
    const flooder = newAddress();
    const bad = () =>
      invoke('GET', '/customer/list', {
        headers: { authorization: `Bearer ${wrongToken()}`, clientid: newId() },
        remoteAddress: flooder,
      });
    expect([(await bad()).status, (await bad()).status, (await bad()).status]).toEqual([401, 401, 429]);
    vi.setSystemTime(new Date('2026-11-22T10:01:00Z'));
    expect((await bad()).status).toBe(401);
  });
});

describe('token exchanges per client', () => {
  it('answers exchanges past the budget with 429 + Retry-After and writes no token for them', async () => {
    const a = await createClient('a');
    const b = await createClient('b');
    useBudgets({ exchanges: 30 });
    const calls = countCalls();
    const statuses: number[] = [];
    let last: ApiResponse | undefined;
    for (let i = 0; i < 40; i++) {
      last = await invoke('GET', TOKEN_URL, {
        headers: { authorization: `Basic ${a.apiToken}` },
        remoteAddress: newAddress(),
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(30).fill(200), ...Array(10).fill(429)]);
    expectThrottled(last as ApiResponse);
    // Refused exchanges wrote nothing; counting cost one lease (UpdateItem) per 3 exchanges.
    expect(calls).toEqual({ GetItemCommand: 40, UpdateItemCommand: 10, TransactWriteItemsCommand: 30 });
    expect(await tokenItems(a.clientId)).toBe(30);

    // Another client's exchanges are its own.
    const other = await invoke('GET', TOKEN_URL, { headers: { authorization: `Basic ${b.apiToken}` } });
    expect(other.status).toBe(200);
    expect(await tokenItems(b.clientId)).toBe(1);

    // A new minute, a new budget.
    vi.setSystemTime(new Date('2026-11-22T10:01:00Z'));
    const next = await invoke('GET', TOKEN_URL, { headers: { authorization: `Basic ${a.apiToken}` } });
    expect(next.status).toBe(200);
  });

  it('holds across instances: a fresh instance cannot exchange what others were granted', async () => {
    const a = await createClient('a');
    useBudgets({ exchanges: 3 });
    const exchange = async () =>
      (await invoke('GET', TOKEN_URL, { headers: { authorization: `Basic ${a.apiToken}` } })).status;
    expect([await exchange(), await exchange()]).toEqual([200, 200]);
    forgetRateWindows(); // another Lambda instance
    expect([await exchange(), await exchange()]).toEqual([200, 429]);
    expect(await tokenItems(a.clientId)).toBe(3);
  });

  it('counts a wrong secret as a failure, not as an exchange', async () => {
    const a = await createClient('a');
    useBudgets({ exchanges: 1 });
    const wrong = await invoke('GET', TOKEN_URL, {
      headers: { authorization: basic(a.clientId, wrongSecret()) },
    });
    expect(wrong.status).toBe(401);
    const right = await invoke('GET', TOKEN_URL, { headers: { authorization: `Basic ${a.apiToken}` } });
    expect(right.status).toBe(200);
  });
});
