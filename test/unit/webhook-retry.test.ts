import { describe, expect, it } from 'vitest';
import {
  disabledReason,
  minimalDelay,
  nextAttemptDelay,
  retryCap,
  retryPolicy,
  shouldDisable,
} from '../../shared/domain/webhook-retry';
import { itemKindOf, keys } from '../../shared/store/keys';

const HOUR = 3_600_000;

describe('webhook retry policy', () => {
  it('waits 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h at most, then 4 h for ever', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 50].map((n) => retryCap(n))).toEqual([
      5_000,
      30_000,
      120_000,
      600_000,
      1_800_000,
      HOUR,
      2 * HOUR,
      4 * HOUR,
      4 * HOUR,
      4 * HOUR,
    ]);
  });

  it('jitters each wait between half its cap and its cap', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      expect(nextAttemptDelay(attempt, () => 0)).toBe(retryCap(attempt) / 2);
      expect(nextAttemptDelay(attempt, () => 0.999_999)).toBeLessThanOrEqual(retryCap(attempt));
      for (let i = 0; i < 20; i++) {
        const d = nextAttemptDelay(attempt);
        expect(d).toBeGreaterThanOrEqual(minimalDelay(attempt));
        expect(d).toBeLessThanOrEqual(retryCap(attempt));
      }
    }
  });

  it('keeps trying for at least 24 h after the first attempt, even on the shortest schedule', () => {
    const { caps, horizonMs } = retryPolicy();
    expect(horizonMs).toBeGreaterThanOrEqual(24 * HOUR);
    // Attempt n + 1 is made after the least waits of attempts 1…n; the disabling comes only
    // once failures lasted the horizon, so count the attempts the shortest schedule makes in it.
    let elapsed = 0;
    let attempt = 1;
    while (!shouldDisable(attempt, 0, elapsed)) {
      elapsed += minimalDelay(attempt);
      attempt++;
    }
    expect(elapsed).toBeGreaterThanOrEqual(24 * HOUR);
    // The least waits sum past the horizon: 12 h of least 2 h waits after the first 7.
    const firstSeven = caps.slice(0, 7).reduce((sum, cap) => sum + cap / 2, 0);
    expect(firstSeven).toBeLessThan(3 * HOUR);
    expect(attempt).toBeGreaterThan(7 + Math.floor((horizonMs - firstSeven) / (2 * HOUR)));
  });

  it('disables after failures persisted past the horizon, not before, and never without a failure', () => {
    expect(shouldDisable(1, 0, 24 * HOUR - 1)).toBe(false);
    expect(shouldDisable(15, 0, 24 * HOUR - 1)).toBe(false);
    expect(shouldDisable(15, 0, 24 * HOUR)).toBe(true);
    expect(shouldDisable(0, 0, 48 * HOUR)).toBe(false);
  });

  it('names the last failure in the reason', () => {
    expect(disabledReason({ status: 500, error: 'answered 500' })).toBe(
      'deliveries failed for 24 h (last: 500)',
    );
    expect(disabledReason({ error: 'no answer within 5000 ms' })).toBe(
      'deliveries failed for 24 h (last: no answer within 5000 ms)',
    );
  });

  it('keeps attempts in their own partition, told apart from the subscription', () => {
    const id = 'a'.repeat(24);
    expect(keys.deliveries('t1', id)).toBe(`T#t1#WEBHOOK#${id}#DELIVERIES`);
    expect(itemKindOf(keys.deliveries('t1', id), keys.deliveryOrder(1, id, 1))).toBe('WEBHOOK_DELIVERY');
    expect(itemKindOf(keys.record('t1', 'WEBHOOK', id).pk, '#')).toBe('WEBHOOK');
    expect(keys.deliveryOrder(2, id, 1) > keys.deliveryOrder(1, id, 2)).toBe(true);
  });
});
