import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortableTime, timeOf } from '../../shared/store/keys';

describe('sortableTime and timeOf', () => {
  const instant = fc.oneof(
    fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
    fc.constantFrom(Number.MIN_SAFE_INTEGER, -1, 0, 1, Number.MAX_SAFE_INTEGER),
    // Around today's instants, odd ones included (where 2^53 + ms is past a double's exact range).
    fc.integer({ min: 1_500_000_000_000, max: 2_500_000_000_000 }),
  );

  it('reads back every safe integer exactly, from the order alone or with an id after it', () => {
    fc.assert(
      fc.property(instant, fc.string(), (ms, id) => {
        expect(timeOf(sortableTime(ms))).toBe(ms);
        expect(timeOf(`${sortableTime(ms)}#${id}`)).toBe(ms);
      }),
    );
  });

  it('orders the strings as the instants', () => {
    fc.assert(
      fc.property(instant, instant, (a, b) => {
        const [x, y] = [sortableTime(a), sortableTime(b)];
        expect(x < y ? -1 : x > y ? 1 : 0).toBe(Math.sign(a - b));
        expect(x.length).toBe(17);
      }),
    );
  });
});
