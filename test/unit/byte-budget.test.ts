import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  arrayBudget,
  arrayBytes,
  fitCount,
  jsonText,
  payloadBound,
  payloadBytes,
  responseJson,
  shareRoom,
} from '../../shared/http/byte-budget';

/** What a body adds to the payload Lambda's runtime sends: `{statusCode, headers, body}` as JSON. */
const envelopeGrowth = (value: unknown) =>
  Buffer.byteLength(JSON.stringify({ statusCode: 200, body: JSON.stringify(value) }), 'utf8') -
  Buffer.byteLength(JSON.stringify({ statusCode: 200, body: '' }), 'utf8');

const json = fc.jsonValue();
const sizes = fc.array(fc.nat({ max: 1000 }), { maxLength: 40 });

describe('payloadBytes', () => {
  it('counts JSON escaped once more, as the body travels inside the Lambda payload', () => {
    expect(payloadBytes('a')).toBe(5); // \"a\"
    expect(payloadBytes('漢')).toBe(7); // 3 bytes of UTF-8, not escaped
    expect(payloadBytes('\u0001')).toBe(11); // \"\\u0001\": 7 bytes for one stored byte
    expect(payloadBytes({ a: 1 })).toBe(9); // {\"a\":1}
  });

  it('is exactly what a value adds to the payload, for any JSON value and any text', () => {
    fc.assert(
      fc.property(fc.oneof(json, fc.string({ unit: 'binary' })), (value) => {
        expect(payloadBytes(value)).toBe(envelopeGrowth(value));
      }),
    );
  });

  it('adds up: an array costs its brackets, its elements and the commas between them', () => {
    fc.assert(
      fc.property(fc.array(json, { maxLength: 20 }), (values) => {
        expect(payloadBytes(values)).toBe(2 + arrayBytes(values.map(payloadBytes)));
      }),
    );
  });
});

describe('payloadBound', () => {
  it('is never below the exact size, for any JSON value and any text', () => {
    fc.assert(
      fc.property(
        fc.oneof(json, fc.string({ unit: 'binary' }), fc.array(fc.string({ unit: 'binary' }))),
        (value) => {
          expect(payloadBound(value)).toBeGreaterThanOrEqual(payloadBytes(value));
        },
      ),
    );
    // The worst cases: every unit a quote, a backslash or a 3-byte character.
    for (const text of ['"'.repeat(50), '\\'.repeat(50), '漢'.repeat(50)])
      expect(payloadBound(text)).toBeGreaterThanOrEqual(payloadBytes(text));
  });
});

describe('responseJson', () => {
  /** A response body: wrappers around values, some of them measured (their text kept) before. */
  const body = fc
    .tuple(fc.array(fc.tuple(json, fc.boolean()), { maxLength: 6 }), json, fc.boolean())
    .map(([records, extra, wrapped]) => {
      const values = records.map(([value, measure]) => {
        const copy = structuredClone(value);
        if (measure) jsonText(copy);
        return copy;
      });
      const page = { totalRecords: values.length, skipped: undefined, records: values, extra };
      return wrapped ? { ticket: page } : page;
    });

  it('writes exactly what JSON.stringify writes, reusing the measured texts', () => {
    fc.assert(
      fc.property(body, (value) => {
        expect(responseJson(value)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('uses a measured text as is (the text is serialised once)', () => {
    const view = { id: 'a', text: 'hello' };
    expect(jsonText(view)).toBe('{"id":"a","text":"hello"}');
    // Only a kept text can explain the old value showing after a (forbidden) change.
    (view as { text: string }).text = 'changed';
    expect(responseJson({ ticket: { records: [view] } })).toBe(
      '{"ticket":{"records":[{"id":"a","text":"hello"}]}}',
    );
  });
});

describe('fitCount', () => {
  it('takes elements in order while they fit, commas included', () => {
    expect(fitCount([10, 10, 10], 21)).toBe(2);
    expect(fitCount([10, 10, 10], 20)).toBe(1);
    expect(fitCount([10, 10, 10], 32)).toBe(3);
    expect(fitCount([], 0, 1)).toBe(0);
  });

  it('keeps at least `atLeast` elements, even when the first alone passes the budget', () => {
    expect(fitCount([100, 1], 50, 1)).toBe(1);
    expect(fitCount([100, 1], 50)).toBe(0);
  });

  it('returns the longest prefix that fits, or `atLeast` of them', () => {
    fc.assert(
      fc.property(sizes, fc.nat({ max: 20_000 }), fc.nat({ max: 2 }), (list, budget, atLeast) => {
        const n = fitCount(list, budget, atLeast);
        expect(n).toBeLessThanOrEqual(list.length);
        expect(n).toBeGreaterThanOrEqual(Math.min(atLeast, list.length));
        if (n > atLeast) expect(arrayBytes(list, n)).toBeLessThanOrEqual(budget);
        if (n < list.length) expect(arrayBytes(list, n + 1)).toBeGreaterThan(budget);
      }),
    );
  });
});

describe('arrayBudget', () => {
  it('answers one size at a time what fitCount answers for them all, and refuses everything after a refusal', () => {
    fc.assert(
      fc.property(sizes, fc.nat({ max: 20_000 }), fc.nat({ max: 2 }), (list, budget, atLeast) => {
        const fits = arrayBudget(budget, atLeast);
        const answers = [...list, 0, 0].map((size) => fits(size));
        const kept = fitCount(list, budget, atLeast);
        expect(answers.slice(0, list.length)).toEqual(list.map((_, i) => i < kept));
        if (kept < list.length) expect(answers.slice(list.length)).toEqual([false, false]);
      }),
    );
  });
});

describe('shareRoom', () => {
  it('keeps everything that fits, and splits the room in halves when both want more', () => {
    expect(shareRoom(100, [10, 10], [10])).toEqual([2, 1]);
    expect(shareRoom(100, [40, 40], [40, 40])).toEqual([1, 1]);
    // one side's leftover goes to the other
    expect(shareRoom(100, [10], [30, 30, 30])).toEqual([1, 2]);
    expect(shareRoom(100, [30, 30, 30], [10])).toEqual([2, 1]);
    expect(shareRoom(0, [1], [1])).toEqual([0, 0]);
    expect(shareRoom(-5, [1], [1])).toEqual([0, 0]);
    // an element of no bytes fits in no room (fast-check's counterexample, CI of c1a5ee5)
    expect(shareRoom(0, [0], [])).toEqual([1, 0]);
  });

  it('never passes the room, gives each side at least what fits in half of it, and wastes nothing either could use', () => {
    fc.assert(
      fc.property(fc.nat({ max: 20_000 }), sizes, sizes, (room, a, b) => {
        const [na, nb] = shareRoom(room, a, b);
        const used = arrayBytes(a, na) + arrayBytes(b, nb);
        expect(used).toBeLessThanOrEqual(room);
        expect(na).toBeGreaterThanOrEqual(fitCount(a, room / 2));
        expect(nb).toBeGreaterThanOrEqual(fitCount(b, room / 2));
        // b could not take one more; a could not either, unless that would eat into b's half
        if (nb < b.length) expect(arrayBytes(a, na) + arrayBytes(b, nb + 1)).toBeGreaterThan(room);
        if (na < a.length && nb === b.length)
          expect(arrayBytes(a, na + 1) + arrayBytes(b, nb)).toBeGreaterThan(room);
      }),
    );
  });
});
