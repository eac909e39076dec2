import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import {
  DeadlineSignal,
  deadlineAbortSignal,
  deadlineSignal,
  timeLeft,
  withDeadline,
} from '../../shared/store/deadline';

/**
 * The request's deadline (shared/store/deadline.ts): the signal the store's SDK gets, and the Node
 * AbortSignal fetch gets, both aborted when the deadline passes. A stalled store is aborted end to
 * end in test/integration/outages.test.ts.
 */
describe('DeadlineSignal', () => {
  it('calls each listener once when it aborts, not one removed, and keeps none after', () => {
    const signal = new DeadlineSignal();
    const kept = vi.fn();
    const removed = vi.fn();
    const onabort = vi.fn();
    signal.addEventListener('abort', kept);
    signal.addEventListener('abort', removed);
    signal.removeEventListener('abort', removed);
    signal.onabort = onabort;
    signal.abort();
    signal.abort();
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ name: 'TimeoutError' });
    expect(kept).toHaveBeenCalledTimes(1);
    expect(onabort).toHaveBeenCalledTimes(1);
    expect(removed).not.toHaveBeenCalled();
    const late = vi.fn();
    signal.addEventListener('abort', late);
    signal.abort();
    expect(late).not.toHaveBeenCalled();
  });
});

describe('withDeadline', () => {
  it('aborts the store’s signal and fetch’s at the deadline, and says no time is left', async () => {
    await withDeadline(50, async () => {
      const store = deadlineSignal();
      const fetchSignal = deadlineAbortSignal();
      expect(fetchSignal).toBeInstanceOf(AbortSignal);
      expect(deadlineAbortSignal()).toBe(fetchSignal);
      expect(store?.aborted).toBe(false);
      expect(timeLeft()).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 80));
      expect(store?.aborted).toBe(true);
      expect(fetchSignal?.aborted).toBe(true);
      expect(timeLeft()).toBe(0);
      // Asked for after the deadline: already aborted.
    });
    await withDeadline(10, async () => {
      await new Promise((r) => setTimeout(r, 30));
      expect(deadlineAbortSignal()?.aborted).toBe(true);
    });
  });

  it('stops a fetch in flight at the deadline', async () => {
    const server = createServer((_req, res) => setTimeout(() => res.end('late'), 2000));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const started = Date.now();
      await withDeadline(100, async () => {
        await expect(fetch(`http://127.0.0.1:${port}/`, { signal: deadlineAbortSignal() })).rejects.toThrow();
      });
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('has no signal and unbounded time outside a request', () => {
    expect(deadlineSignal()).toBeUndefined();
    expect(deadlineAbortSignal()).toBeUndefined();
    expect(timeLeft()).toBe(Number.POSITIVE_INFINITY);
  });
});
