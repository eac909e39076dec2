import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resumePosition } from '../../shared/domain/webhook-dispatch';
import { postponeDelay } from '../../shared/domain/webhook-retry';
import { itemKindOf, keys } from '../../shared/store/keys';

/**
 * Where a webhook delivery's feed cursor reads from (docs/decisions.md, "Webhook recovery"): the
 * feed reads events strictly after a position, so a receiver reading from the cursor must find the
 * oldest event its subscription is still owed, and every event stamped no earlier than the feed's
 * lag before the delivered one (those may not have reached the fan-out yet).
 */
const time = fc.integer({ min: -1e12, max: 4e12 });
const id = fc.stringMatching(/^[0-9a-f]{24}$/);

describe('resumePosition', () => {
  it('lies before the oldest owed event and before every event within the lag of the delivered one', () => {
    fc.assert(
      fc.property(
        time,
        id,
        fc.option(fc.tuple(time, id)),
        fc.integer({ min: 0, max: 600_000 }),
        time,
        id,
        (t, e, owed, lag, later, x) => {
          const delivered = keys.eventOrder(t, e);
          const oldest = owed ? keys.eventOrder(owed[0], owed[1]) : undefined;
          const p = resumePosition(delivered, oldest, lag);
          // The feed reads `sk > p`: the delivered event itself, the owed one, anything stamped after t - lag.
          expect(delivered > p).toBe(true);
          if (oldest !== undefined) expect(oldest > p).toBe(true);
          if (later >= t - lag) expect(keys.eventOrder(later, x) > p).toBe(true);
        },
      ),
    );
  });

  it('reads nothing earlier than it must: the lag before the event, or the owed event itself', () => {
    const t = 1_800_000_000_000;
    const delivered = keys.eventOrder(t, 'a'.repeat(24));
    // Nothing owed: just before t - lag (an event stamped at t - lag - 1 is not read again).
    const p = resumePosition(delivered, undefined, 12_000);
    expect(keys.eventOrder(t - 12_000, '0'.repeat(24)) > p).toBe(true);
    expect(keys.eventOrder(t - 12_001, 'f'.repeat(24)) > p).toBe(false);
    // Owed an older event: from its instant on.
    const owed = keys.eventOrder(t - 60_000, 'b'.repeat(24));
    const q = resumePosition(delivered, owed, 12_000);
    expect(owed > q).toBe(true);
    expect(keys.eventOrder(t - 60_001, 'f'.repeat(24)) > q).toBe(false);
  });
});

describe('postponeDelay', () => {
  it('waits 1–2 s first, doubling per wait of the message up to 30–60 s', () => {
    expect(postponeDelay(1, 0, () => 0)).toBe(1_000);
    expect(postponeDelay(1, 0, () => 0.999_999)).toBe(2_000);
    // Receives beyond attempts are waits: 3 earlier waits → 8–16 s.
    expect(postponeDelay(4, 0, () => 0)).toBe(8_000);
    expect(postponeDelay(9, 5, () => 0)).toBe(8_000);
    for (const receives of [7, 20, 1000]) expect(postponeDelay(receives, 0, () => 0)).toBe(30_000);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (r, a, x) => {
          const d = postponeDelay(r, a, () => x);
          expect(d).toBeGreaterThanOrEqual(1_000);
          expect(d).toBeLessThanOrEqual(60_000);
        },
      ),
    );
  });
});

describe('delivery items', () => {
  it('are told apart by their keys', () => {
    expect(itemKindOf(keys.pendingDeliveries('t1', 'w1'), keys.eventOrder(1, 'e'))).toBe('WEBHOOK_PENDING');
    const r = keys.redelivery('t1', 'w1');
    expect(itemKindOf(r.pk, r.sk)).toBe('WEBHOOK_REDELIVERY');
    expect(itemKindOf(keys.deliverySlots('t1'), '0')).toBe('DELIVERY_SLOT');
  });
});
