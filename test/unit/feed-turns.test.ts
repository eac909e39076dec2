import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withDeadline } from '../../shared/store/deadline';
import { Contended } from '../../shared/store/errors';
import { inFeedTurn } from '../../shared/store/feed-turns';
import { touchTicketWrite } from '../../shared/store/ticket-writes';
import type { WriteOp } from '../../shared/store/write-ops';
import { TENANT } from './fixtures';

/**
 * Writers of one ticket in one process take turns (stamp, send, answer, next), so they never
 * overtake each other on the ticket's feed clock; a writer that cannot get its turn in time
 * gives up with nothing sent. On a fake clock.
 */
beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

const ticket = (id: string): WriteOp[] => [
  touchTicketWrite(TENANT, id, Date.now()),
  { item: { Put: { Item: { pk: 'R', sk: id } } } },
];
const refused = () => new Contended();

/** A write that takes `ms` and logs when it starts and ends. */
const writer = (log: string[], name: string, ms: number) => async () => {
  log.push(`${name} start`);
  await new Promise((resolve) => setTimeout(resolve, ms));
  log.push(`${name} end`);
  return name;
};

describe('turns on a ticket', () => {
  it('runs the writers of one ticket one at a time, in arrival order; another ticket’s at once', async () => {
    const log: string[] = [];
    const done = Promise.all([
      inFeedTurn(ticket('a'), refused, writer(log, 'a1', 30)),
      inFeedTurn(ticket('a'), refused, writer(log, 'a2', 10)),
      inFeedTurn(ticket('b'), refused, writer(log, 'b1', 5)),
      inFeedTurn(ticket('a'), refused, writer(log, 'a3', 10)),
      // No feed-ordered item: nothing to wait for.
      inFeedTurn([{ item: { Put: { Item: { pk: 'C', sk: 'C' } } } }], refused, writer(log, 'c1', 1)),
    ]);
    await vi.runAllTimersAsync();
    expect(await done).toEqual(['a1', 'a2', 'b1', 'a3', 'c1']);
    expect(log.filter((line) => line.startsWith('a'))).toEqual([
      'a1 start',
      'a1 end',
      'a2 start',
      'a2 end',
      'a3 start',
      'a3 end',
    ]);
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
    expect(log.indexOf('c1 start')).toBeLessThan(log.indexOf('a1 end'));
  });

  it('passes the turn on when a writer fails', async () => {
    const log: string[] = [];
    const failing = inFeedTurn(ticket('a'), refused, async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new Error('refused by the store');
    }).catch((error: Error) => error.message);
    const next = inFeedTurn(ticket('a'), refused, writer(log, 'a2', 10));
    await vi.runAllTimersAsync();
    expect(await failing).toBe('refused by the store');
    expect(await next).toBe('a2');
  });

  it('gives up, nothing sent, when its turn would come too late for the deadline; the next still waits for the holder', async () => {
    const log: string[] = [];
    const holder = inFeedTurn(ticket('a'), refused, writer(log, 'holder', 3000));
    // 2 s left, and an attempt is estimated at 1 s before any answer: it waits 1 s at most.
    const impatient = withDeadline(2000, () =>
      inFeedTurn(ticket('a'), refused, writer(log, 'late', 10)),
    ).catch((error: unknown) => error);
    const patient = inFeedTurn(ticket('a'), refused, writer(log, 'patient', 10));
    await vi.advanceTimersByTimeAsync(1000);
    expect(await impatient).toBeInstanceOf(Contended);
    expect(log).toEqual(['holder start']);
    await vi.runAllTimersAsync();
    await Promise.all([holder, patient]);
    expect(log).toEqual(['holder start', 'holder end', 'patient start', 'patient end']);
  });
});
