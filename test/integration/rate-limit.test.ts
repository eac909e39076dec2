import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../shared/config';
import { forgetRateWindows } from '../../shared/http/rate-limit';
import { db } from '../../shared/store/dynamo';
import { invoke, newTenant } from '../helpers/api';

/** Counts the UpdateItem calls the rate limiter makes (its only store cost). */
const countUpdates = () => {
  const counter = { n: 0 };
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'UpdateCommand' || context.commandName === 'UpdateItemCommand') counter.n++;
      return next(args);
    },
    { step: 'initialize', name: 'count-updates' },
  );
  return counter;
};

const useLimit = (perMinute: number) => {
  vi.stubEnv('RATE_LIMIT_PER_MINUTE', String(perMinute));
  resetConfig();
  forgetRateWindows();
};

beforeEach(() => {
  // Keep every request of a test inside one minute window.
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-22T10:00:05Z') });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  resetConfig();
  forgetRateWindows();
  db().middlewareStack.remove('count-updates');
});

describe('per-client rate limit', () => {
  it('counts down in the headers, then answers 429 with Retry-After, per client', async () => {
    const a = await newTenant();
    const b = await newTenant();
    useLimit(5);
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await invoke('GET', '/customer/list', { headers: a.headers });
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(res.headers['ratelimit-reset']).toBe('55');
      remaining.push(res.headers['ratelimit-remaining'] as string);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const over = await invoke('GET', '/customer/list', { headers: a.headers });
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toBe('55');
    expect(over.headers['ratelimit-remaining']).toBe('0');
    expect(over.body.type).toBe('urn:helpdesk:problem:rate-limited');
    expect((await invoke('GET', '/customer/list', { headers: b.headers })).status).toBe(200);

    vi.setSystemTime(new Date('2026-11-22T10:01:00Z'));
    expect((await invoke('GET', '/customer/list', { headers: a.headers })).status).toBe(200);
  });

  it('holds across instances: a fresh instance cannot spend what others were granted', async () => {
    const a = await newTenant();
    useLimit(6);
    for (let i = 0; i < 4; i++)
      expect((await invoke('GET', '/agent/list', { headers: a.headers })).status).toBe(200);
    forgetRateWindows(); // another Lambda instance, empty memory, same shared counter
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await invoke('GET', '/agent/list', { headers: a.headers })).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
  });

  it('costs one write per lease, not per request', async () => {
    const a = await newTenant();
    useLimit(1000); // leases of 50, a twentieth of the budget: they never grow
    const updates = countUpdates();
    for (let i = 0; i < 120; i++) await invoke('GET', '/ticketType/list', { headers: a.headers });
    expect(updates.n).toBe(3);
  });

  it('grows the leases of a large budget with the traffic: 5 writes for 1 000 requests in a second, not 20', async () => {
    const a = await newTenant();
    useLimit(1_000_000);
    const updates = countUpdates();
    const remaining: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const res = await invoke('GET', '/ticketType/list', { headers: a.headers });
      remaining.push(Number(res.headers['ratelimit-remaining']));
    }
    // Leases of 50, 100, 200, 400, 800 (the clock stands still: each lease was used up at once).
    expect(updates.n).toBe(5);
    expect(remaining.at(-1)).toBe(1_000_000 - 1000);
    expect(remaining).toEqual([...remaining].sort((x, y) => y - x));
  });

  it('leaves unauthenticated requests to the 401 without touching the budget', async () => {
    useLimit(1);
    const res = await invoke('GET', '/customer/list');
    expect(res.status).toBe(401);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });
});
