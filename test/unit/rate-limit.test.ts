import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  admission,
  type ClaimLease,
  grownLease,
  LEASE_TARGET_MS,
  leaseSize,
} from '../../shared/http/rate-limit';

/**
 * The shared counter of store/rate-limit-leases.ts, in memory: a claim is granted what is left
 * of the budget, up to the lease asked for; a spent budget grants 0 and reports the limit.
 */
const sharedStore = () => {
  const counters = new Map<string, number>();
  const calls: { clientId: string; minute: number; want: number; limit: number }[] = [];
  const claim: ClaimLease = async (clientId, minute, want, limit) => {
    calls.push({ clientId, minute, want, limit });
    const key = `${clientId}#${minute}`;
    const used = counters.get(key) ?? 0;
    const ask = Math.min(want, limit - used);
    if (ask <= 0) return { granted: 0, total: limit };
    counters.set(key, used + ask);
    return { granted: ask, total: used + ask };
  };
  return { claim, calls };
};

const AT = Date.parse('2026-11-22T10:00:05Z');
const MINUTE = Math.floor(AT / 60_000);

describe('leaseSize', () => {
  it('leases one at a time below 40 a minute, a twentieth of the budget above, never more than 50', () => {
    expect([1, 5, 20, 39, 40, 59, 60, 100, 999, 1000, 1200, 2000, 1e6].map(leaseSize)).toEqual([
      1, 1, 1, 1, 2, 2, 3, 5, 49, 50, 50, 50, 50,
    ]);
  });
});

describe('rate-limit admission', () => {
  it('counts down, then refuses, with limit, remaining and reset headers', async () => {
    const { claim } = sharedStore();
    const { admit } = admission(claim);
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push(await admit('a', AT, 5));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    expect(decisions.map((d) => d.headers['ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0', '0']);
    expect(decisions[5]).toEqual({
      allowed: false,
      resetSeconds: 55,
      headers: { 'ratelimit-limit': '5', 'ratelimit-remaining': '0', 'ratelimit-reset': '55' },
    });
  });

  it('refuses without asking the store again once the shared budget is known spent', async () => {
    const { claim, calls } = sharedStore();
    const { admit } = admission(claim);
    for (let i = 0; i < 5; i++) await admit('a', AT, 5);
    expect(calls).toHaveLength(5);
    for (let i = 0; i < 10; i++) expect((await admit('a', AT + i, 5)).allowed).toBe(false);
    expect(calls).toHaveLength(5);
  });

  it('asks for one lease per lease-size requests, with the client, minute and limit', async () => {
    const { claim, calls } = sharedStore();
    const { admit } = admission(claim);
    for (let i = 0; i < 120; i++) expect((await admit('a', AT, 2000)).allowed).toBe(true);
    expect(calls).toEqual(Array(3).fill({ clientId: 'a', minute: MINUTE, want: 50, limit: 2000 }));
    // Remaining counts what this instance holds and what the shared budget has left.
    expect((await admit('a', AT, 2000)).headers['ratelimit-remaining']).toBe(String(2000 - 121));
  });

  it('starts a new window each minute, with the reset counting down to it', async () => {
    const { claim, calls } = sharedStore();
    const { admit } = admission(claim);
    for (let i = 0; i < 3; i++) await admit('a', AT, 3);
    expect((await admit('a', AT, 3)).allowed).toBe(false);
    expect((await admit('a', Date.parse('2026-11-22T10:00:59.001Z'), 3)).resetSeconds).toBe(1);
    expect((await admit('a', Date.parse('2026-11-22T10:00:30.500Z'), 3)).resetSeconds).toBe(30);
    const next = await admit('a', Date.parse('2026-11-22T10:01:00Z'), 3);
    expect(next).toEqual({
      allowed: true,
      resetSeconds: 60,
      headers: { 'ratelimit-limit': '3', 'ratelimit-remaining': '2', 'ratelimit-reset': '60' },
    });
    expect(calls.at(-1)?.minute).toBe(MINUTE + 1);
  });

  it('keeps each client to its own budget', async () => {
    const { claim } = sharedStore();
    const { admit } = admission(claim);
    expect((await admit('a', AT, 1)).allowed).toBe(true);
    expect((await admit('a', AT, 1)).allowed).toBe(false);
    expect((await admit('b', AT, 1)).allowed).toBe(true);
  });

  it('holds across instances: a fresh instance cannot spend what others were granted', async () => {
    const store = sharedStore();
    const first = admission(store.claim);
    for (let i = 0; i < 4; i++) expect((await first.admit('a', AT, 6)).allowed).toBe(true);
    const second = admission(store.claim);
    const allowed = [];
    for (let i = 0; i < 4; i++) allowed.push((await second.admit('a', AT, 6)).allowed);
    expect(allowed).toEqual([true, true, false, false]);
  });

  it('forgets its windows on request (a new instance), the shared budget stays', async () => {
    const store = sharedStore();
    const instance = admission(store.claim);
    await instance.admit('a', AT, 2);
    instance.forget();
    expect((await instance.admit('a', AT, 2)).allowed).toBe(true);
    expect((await instance.admit('a', AT, 2)).allowed).toBe(false);
  });

  it('on one instance, admits exactly the budget, counts remaining down by one, claims ceil(n / lease) times', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 300 }), fc.nat({ max: 400 }), async (limit, requests) => {
        const { claim, calls } = sharedStore();
        const { admit } = admission(claim);
        let admitted = 0;
        for (let i = 0; i < requests; i++) {
          const d = await admit('a', AT, limit);
          if (d.allowed) admitted++;
          expect(d.headers['ratelimit-remaining']).toBe(String(limit - admitted));
          expect(d.allowed).toBe(i < limit);
        }
        expect(admitted).toBe(Math.min(requests, limit));
        expect(calls).toHaveLength(Math.ceil(Math.min(requests, limit) / leaseSize(limit)));
      }),
    );
  });

  it('across instances, never admits more than the budget (and all of it when leases are single)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 120 }),
        fc.array(fc.nat({ max: 2 }), { maxLength: 200 }),
        async (limit, sequence) => {
          const { claim } = sharedStore();
          const instances = [admission(claim), admission(claim), admission(claim)];
          let admitted = 0;
          for (const which of sequence)
            if ((await instances[which]?.admit('a', AT, limit))?.allowed) admitted++;
          expect(admitted).toBeLessThanOrEqual(limit);
          if (leaseSize(limit) === 1) expect(admitted).toBe(Math.min(sequence.length, limit));
        },
      ),
    );
  });

  it('knows a window is spent without asking the store, once a claim has shown it spent', async () => {
    const store = sharedStore();
    const first = admission(store.claim, () => 2);
    expect(first.blocked('a', AT, 4)).toBe(false); // never seen: not known spent
    await first.admit('a', AT, 4);
    expect(first.blocked('a', AT, 4)).toBe(false); // holds one more of its lease
    await first.admit('a', AT, 4);
    expect(first.blocked('a', AT, 4)).toBe(false); // lease used, but the budget has 2 left
    const second = admission(store.claim, () => 2);
    await second.admit('a', AT, 4);
    await second.admit('a', AT, 4);
    expect(second.blocked('a', AT, 4)).toBe(true); // its claim took the counter to the limit
    expect(first.blocked('a', AT, 4)).toBe(false); // the first instance has not asked since
    expect((await first.admit('a', AT, 4)).allowed).toBe(false);
    expect(first.blocked('a', AT, 4)).toBe(true);
    expect(first.blocked('b', AT, 4)).toBe(false);
    expect(first.blocked('a', Date.parse('2026-11-22T10:01:00Z'), 4)).toBe(false); // a new minute
    expect(store.calls).toHaveLength(3);
  });

  it('claims leases of the size its lease rule gives', async () => {
    const { claim, calls } = sharedStore();
    const { admit } = admission(claim, () => 4);
    for (let i = 0; i < 10; i++) expect((await admit('a', AT, 10)).allowed).toBe(true);
    expect(calls.map((c) => c.want)).toEqual([4, 4, 4]);
    expect((await admit('a', AT, 10)).allowed).toBe(false);
  });
});

describe('rate-limit leases under concurrency', () => {
  it('sends one claim for concurrent requests that find no lease left, and shares its grant', async () => {
    const { claim, calls } = sharedStore();
    const { admit } = admission(claim);
    const decisions = await Promise.all(Array.from({ length: 8 }, () => admit('a', AT, 2000)));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(calls).toHaveLength(1);
    // A budget smaller than the herd: exactly the budget admitted, one lease at a time.
    const small = sharedStore();
    const tight = admission(small.claim);
    const results = await Promise.all(Array.from({ length: 8 }, () => tight.admit('b', AT, 3)));
    expect(results.filter((d) => d.allowed)).toHaveLength(3);
  });

  it('claims the next lease ahead, once a quarter of the lease is left, so no request waits for it', async () => {
    const { claim, calls } = sharedStore();
    const { admit, prefetch } = admission(claim);
    // Lease 50: after 37 requests 13 are left (more than a quarter), after 38, 12.
    for (let i = 0; i < 37; i++) await admit('a', AT, 2000);
    expect(prefetch('a', AT, 2000)).toBeUndefined();
    await admit('a', AT, 2000);
    const ahead = prefetch('a', AT, 2000);
    expect(ahead).toBeDefined();
    expect(prefetch('a', AT, 2000)).toBeUndefined(); // one claim at a time
    await ahead;
    expect(calls).toHaveLength(2);
    // The next 62 requests use what is held without a claim.
    for (let i = 0; i < 62; i++) expect((await admit('a', AT, 2000)).allowed).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it('never claims ahead for leases of one (exact budgets) or a spent budget', async () => {
    const { claim, calls } = sharedStore();
    const { admit, prefetch } = admission(claim);
    await admit('a', AT, 10); // lease 1
    expect(prefetch('a', AT, 10)).toBeUndefined();
    for (let i = 0; i < 100; i++) await admit('b', AT, 100); // lease 5, budget spent
    expect(prefetch('b', AT, 100)).toBeUndefined();
    expect(calls.filter((c) => c.clientId === 'b')).toHaveLength(20);
  });
});

describe('leases that follow the traffic (the request budget)', () => {
  it('double when used up within half the target, halve past twice it, within the base and a twentieth of the budget', () => {
    expect(grownLease(50, 1e6, 50, 10)).toBe(100);
    expect(grownLease(50, 1e6, 1600, LEASE_TARGET_MS / 2 - 1)).toBe(3200);
    expect(grownLease(50, 1e6, 1600, LEASE_TARGET_MS)).toBe(1600);
    expect(grownLease(50, 1e6, 1600, LEASE_TARGET_MS * 2 + 1)).toBe(800);
    expect(grownLease(50, 1e6, 60, 60_000)).toBe(50); // never below the base
    expect(grownLease(50, 1e6, 40_000, 0)).toBe(50_000); // a twentieth of the budget
    expect(grownLease(50, 2000, 50, 0)).toBe(100);
    expect(grownLease(50, 1200, 50, 0)).toBe(60); // the default budget: at most 60
    expect(grownLease(49, 999, 49, 0)).toBe(49); // up to 1 000 a minute the base is a twentieth already
    // A budget lowered since the last lease: within the new one's bounds whichever way the pace goes.
    expect([0, LEASE_TARGET_MS, 60_000].map((lasted) => grownLease(50, 2000, 800, lasted))).toEqual([
      100, 100, 100,
    ]);
  });

  const growing = (claim: ClaimLease) => admission(claim, leaseSize, { grow: true });

  /**
   * Sends requests to `instances`, each `[instance, ms after the request before]` from `start`,
   * each request's prefetch awaited as the middleware does; how many were admitted, and when the
   * last was sent.
   */
  const paced = async (
    instances: ReturnType<typeof admission>[],
    limit: number,
    requests: Iterable<readonly [number, number]>,
    start = AT - 4_000,
  ) => {
    let admitted = 0;
    let now = start;
    for (const [which, gap] of requests) {
      now += gap;
      const instance = instances[which] as ReturnType<typeof admission>;
      if ((await instance.admit('a', now, limit)).allowed) admitted++;
      await instance.prefetch('a', now, limit);
    }
    return { admitted, now };
  };

  /** `count` requests `gapMs` apart on one instance. */
  const every = (count: number, gapMs: number) =>
    Array.from({ length: count }, (_, i) => [0, i === 0 ? 0 : gapMs] as const);

  const steady = async (limit: number, count: number, gapMs: number) => {
    const { claim, calls } = sharedStore();
    const { admitted } = await paced([growing(claim)], limit, every(count, gapMs));
    return { admitted, wants: calls.map((c) => c.want) };
  };

  it('at 1 000 requests a second, claims about once a second: under 70 claims for 50 000 requests, not 1 000', async () => {
    const { admitted, wants } = await steady(1e6, 50_000, 1);
    expect(admitted).toBe(50_000);
    expect(wants.slice(0, 6)).toEqual([50, 100, 200, 400, 800, 800]);
    expect(wants.length).toBeLessThan(70);
    expect(Math.max(...wants)).toBeLessThanOrEqual(4000); // about 1 to 2 s of traffic, never all of the budget
  });

  it('at one request a second, keeps leases of the base size', async () => {
    const { admitted, wants } = await steady(1e6, 200, 1000);
    expect(admitted).toBe(200);
    expect(new Set(wants)).toEqual(new Set([50]));
  });

  it('shrinks again when the traffic slows', async () => {
    const { claim, calls } = sharedStore();
    const instance = [growing(claim)];
    const { now } = await paced(instance, 1e6, every(2000, 1));
    expect(calls.at(-1)?.want).toBeGreaterThan(400);
    await paced(instance, 1e6, every(5000, 100), now);
    expect(calls.at(-1)?.want).toBe(50);
  });

  it('carries the pace into the next minute, and never asks for more than a twentieth of the budget', async () => {
    const { claim, calls } = sharedStore();
    const { admit } = growing(claim);
    const late = Date.parse('2026-11-22T10:00:59Z');
    for (let i = 0; i < 1000; i++) await admit('a', late, 10_000);
    expect(calls.map((c) => c.want)).toEqual([50, 100, 200, 400, 500]);
    for (let i = 0; i < 1000; i++) await admit('b', late, 1e6);
    expect(calls.filter((c) => c.clientId === 'b').map((c) => c.want)).toEqual([50, 100, 200, 400, 800]);
    // A second after the last claim: the same size, in the new minute's window.
    await admit('b', Date.parse('2026-11-22T10:01:00Z'), 1e6);
    expect(calls.at(-1)).toEqual({ clientId: 'b', minute: MINUTE + 1, want: 800, limit: 1e6 });
    // Half a minute after its last claim: half the size.
    await admit('a', Date.parse('2026-11-22T10:01:30Z'), 10_000);
    expect(calls.at(-1)).toEqual({ clientId: 'a', minute: MINUTE + 1, want: 250, limit: 10_000 });
  });

  it('budgets up to 1 000 a minute keep their base leases whatever the pace', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.oneof(fc.nat({ max: 5 }), fc.nat({ max: 3000 })), { maxLength: 300 }),
        async (limit, gaps) => {
          const { claim, calls } = sharedStore();
          await paced(
            [growing(claim)],
            limit,
            gaps.map((gap) => [0, gap] as const),
          );
          for (const call of calls) expect(call.want).toBe(leaseSize(limit));
        },
      ),
    );
  });

  it('across instances, at any pace, never admits more than the budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 50_000 }),
        fc.array(fc.tuple(fc.nat({ max: 2 }), fc.nat({ max: 50 })), { maxLength: 400 }),
        async (limit, sequence) => {
          const { claim } = sharedStore();
          const { admitted } = await paced(
            [0, 1, 2].map(() => growing(claim)),
            limit,
            sequence,
          );
          expect(admitted).toBeLessThanOrEqual(limit);
        },
      ),
    );
  });
});
