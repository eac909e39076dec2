import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { commit } from '../../shared/domain/commit';
import {
  AttemptLatency,
  mayRetry,
  nextPause,
  pauseBeforeRetry,
  transactions,
} from '../../shared/store/attempt-budget';
import { timeLeft, withDeadline } from '../../shared/store/deadline';
import { db, resetDb } from '../../shared/store/dynamo';
import { Contended } from '../../shared/store/errors';
import { touchTicketWrite } from '../../shared/store/ticket-writes';
import { writeAtomically } from '../../shared/store/transact';
import type { WriteOp } from '../../shared/store/write-ops';
import { TENANT } from './fixtures';

/**
 * The retry budget on a fake clock: a transaction is sent again only when the request's time
 * left covers the pause and a generous estimate of one attempt; otherwise the write is refused
 * (`Contended`, a 503, nothing written) instead of being cut off in flight by the deadline (a
 * 504 for a write that was never going to be answered in time).
 */
beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  resetDb();
});

const refused = () => new Contended();

describe('the estimate of one attempt', () => {
  it('starts at a second, then follows the answers (srtt + 4 rttvar), between 500 ms and 3 s', () => {
    const latency = new AttemptLatency();
    expect(latency.estimate()).toBe(1000);
    latency.record(200);
    expect(latency.estimate()).toBe(200 + 4 * 100);
    for (let i = 0; i < 50; i++) latency.record(20);
    expect(latency.estimate()).toBe(500);
    for (let i = 0; i < 50; i++) latency.record(2500);
    expect(latency.estimate()).toBeGreaterThan(2500);
    expect(latency.estimate()).toBeLessThanOrEqual(3000);
    latency.record(60_000);
    expect(latency.estimate()).toBe(3000);
  });

  it('never estimates below the floor or above the cap, whatever the answers', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 120_000 }), { minLength: 1, maxLength: 40 }),
        (samples) => {
          const latency = new AttemptLatency();
          for (const ms of samples) latency.record(ms);
          const estimate = latency.estimate();
          expect(estimate).toBeGreaterThanOrEqual(500);
          expect(estimate).toBeLessThanOrEqual(3000);
        },
      ),
    );
  });
});

describe('the pause between attempts (decorrelated jitter)', () => {
  it('draws between the base and three times the last pause, never over the cap', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 5000, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (last, draw) => {
          const pause = nextPause(last, 10, 1000, () => draw);
          expect(pause).toBeGreaterThanOrEqual(10);
          expect(pause).toBeLessThanOrEqual(Math.min(1000, Math.max(last, 10) * 3));
        },
      ),
    );
    expect(nextPause(0, 10, 1000, () => 0)).toBe(10);
    expect(nextPause(100, 10, 1000, () => 1)).toBe(300);
    expect(nextPause(900, 10, 1000, () => 1)).toBe(1000);
  });
});

describe('the budget of a retry', () => {
  const latency = () => {
    const l = new AttemptLatency();
    l.record(100); // estimate 500 ms (the floor)
    return l;
  };

  it('knows the time left of the running request only', async () => {
    expect(timeLeft()).toBe(Number.POSITIVE_INFINITY);
    await withDeadline(2000, async () => {
      expect(timeLeft()).toBe(2000);
      await vi.advanceTimersByTimeAsync(500);
      expect(timeLeft()).toBe(1500);
      await vi.advanceTimersByTimeAsync(5000);
      expect(timeLeft()).toBe(0);
    });
  });

  it('pauses when the time left covers the pause and one attempt, and refuses at once otherwise', async () => {
    await withDeadline(1500, async () => {
      const paused = pauseBeforeRetry(600, refused, latency());
      await vi.advanceTimersByTimeAsync(600);
      await expect(paused).resolves.toBeUndefined();
      expect(timeLeft()).toBe(900);
      // 900 ms left: a 500 ms pause and a 500 ms attempt do not fit. Nothing waits.
      await expect(pauseBeforeRetry(500, refused, latency())).rejects.toBeInstanceOf(Contended);
      expect(timeLeft()).toBe(900);
      const shorter = pauseBeforeRetry(300, refused, latency());
      await vi.advanceTimersByTimeAsync(300);
      await expect(shorter).resolves.toBeUndefined();
    });
  });

  it('refuses after the pause when the estimate grew meanwhile', async () => {
    await withDeadline(1000, async () => {
      const slow = latency();
      const paused = pauseBeforeRetry(500, refused, slow);
      const settled = paused.catch((error: unknown) => error);
      slow.record(2000); // a slow answer of another request during the pause
      await vi.advanceTimersByTimeAsync(500);
      expect(await settled).toBeInstanceOf(Contended);
    });
  });

  it('bounds retries by the deadline within a request and by a count outside one', async () => {
    expect(mayRetry(9, 10)).toBe(true);
    expect(mayRetry(10, 10)).toBe(false);
    await withDeadline(1000, async () => expect(mayRetry(1000, 10)).toBe(true));
  });
});

/** A store whose every transaction takes `ms` and is then cancelled for `reason`; records when each was sent. */
const storeThatRefuses = (ms: number, reason: () => { Code: string; Item?: Record<string, unknown> }) => {
  const sent: number[] = [];
  vi.spyOn(db(), 'send').mockImplementation(async () => {
    sent.push(Date.now());
    await new Promise((resolve) => setTimeout(resolve, ms));
    const { Code, Item } = reason();
    throw new TransactionCanceledException({
      message: 'Transaction cancelled',
      $metadata: { httpStatusCode: 400 },
      CancellationReasons: [{ Code, ...(Item ? { Item: marshall(Item) } : {}) }],
    });
  });
  return sent;
};

const put: WriteOp = { item: { Put: { Item: { pk: 'P', sk: 'S' } } } };

describe('retries against the deadline', () => {
  it('writeAtomically: a conflict is retried only while its answer can come in time, then Contended', async () => {
    const LATENCY = 500;
    const DEADLINE = 4000;
    const sent = storeThatRefuses(LATENCY, () => ({ Code: 'TransactionConflict' }));
    const start = Date.now();
    const outcome = withDeadline(DEADLINE, () => writeAtomically([put])).catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    expect(await outcome).toBeInstanceOf(Contended);
    // Retried...
    expect(sent.length).toBeGreaterThan(2);
    // ...and every attempt was answered before the deadline: none was cut off in flight.
    for (const at of sent) expect(at + LATENCY).toBeLessThanOrEqual(start + DEADLINE);
    // The last one went with at least one estimate of time left.
    expect(start + DEADLINE - (sent.at(-1) ?? 0)).toBeGreaterThanOrEqual(500);
  });

  it('commit: a write overtaken on the ticket’s feed clock is re-stamped only while it can be answered in time', async () => {
    const LATENCY = 400;
    const DEADLINE = 3000;
    // Another writer's stamp is always a little ahead of ours (another host's clock).
    const sent = storeThatRefuses(LATENCY, () => ({
      Code: 'ConditionalCheckFailed',
      Item: { pk: 'T', sk: 'T', feedAt: Date.now() + 50 },
    }));
    const start = Date.now();
    const outcome = withDeadline(DEADLINE, () =>
      commit({ tenantId: TENANT }, () => ({
        result: 'id',
        ops: [touchTicketWrite(TENANT, 'ticket', start)],
      })),
    ).catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    expect(await outcome).toBeInstanceOf(Contended);
    expect(sent.length).toBeGreaterThan(2);
    for (const at of sent) expect(at + LATENCY).toBeLessThanOrEqual(start + DEADLINE);
  });

  it('outside a request, the count bounds the retries as before', async () => {
    const sent = storeThatRefuses(10, () => ({ Code: 'TransactionConflict' }));
    const outcome = writeAtomically([put]).catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    expect(await outcome).toBeInstanceOf(Contended);
    expect(sent).toHaveLength(9);
    expect(transactions.estimate()).toBeGreaterThanOrEqual(500);
  });
});
