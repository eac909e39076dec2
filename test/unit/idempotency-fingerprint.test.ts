import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idempotencyContext } from '../../shared/http/idempotency-key';

/** What a request's fingerprint is made of; only the body varies here. */
const fingerprint = (body: unknown, operation = 'customerInsert', pathId = '') =>
  idempotencyContext('tenant', 'key', operation, pathId, body).fingerprint;

/** A small seeded generator (mulberry32): the shuffle is reproducible from the property's seed. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** The same JSON value with every object's keys in a shuffled order (arrays keep theirs). */
const shuffled = (value: unknown, next: () => number): unknown => {
  if (Array.isArray(value)) return value.map((v) => shuffled(v, next));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [entries[i], entries[j]] = [entries[j] as [string, unknown], entries[i] as [string, unknown]];
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, shuffled(v, next)]));
  }
  return value;
};

/** A JSON body as the parser hands it over (`-0` is 0 once written as JSON, as it is in the store). */
const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);

describe('Idempotency-Key fingerprint', () => {
  it('is the same for the same JSON object with its keys in another order', () => {
    expect(
      fingerprint({ name: 'B', email: 'b@example.com', account: { username: 'u', password: 'p' } }),
    ).toBe(fingerprint({ account: { password: 'p', username: 'u' }, email: 'b@example.com', name: 'B' }));
  });

  it('is the same for numbers spelled differently in the JSON text (1, 1.0, 1e0)', () => {
    const [a, b, c] = ['{"n":1,"m":[0.5]}', '{"n":1.0,"m":[5e-1]}', '{"n":1e0,"m":[0.50]}'].map((t) =>
      fingerprint(JSON.parse(t)),
    );
    expect(b).toBe(a);
    expect(c).toBe(a);
  });

  it('tells apart what JSON.stringify would confuse or what only looks alike', () => {
    const distinct = [
      { x: null },
      { x: Number.POSITIVE_INFINITY }, // 1e400 in JSON text
      { x: Number.NEGATIVE_INFINITY },
      { x: 'null' },
      { x: '1' },
      { x: 1 },
      { x: [1] },
      { x: { '0': 1 } },
      { x: '\ud800' },
      { x: '\udfff' },
      { x: '\ufffd' },
      {},
      [],
      null,
    ].map((body) => fingerprint(body));
    expect(new Set(distinct).size).toBe(distinct.length);
    expect(fingerprint({ a: 1 }, 'customerInsert')).not.toBe(fingerprint({ a: 1 }, 'agentInsert'));
    expect(fingerprint({ a: 1 }, 'ticketReply', 'x')).not.toBe(fingerprint({ a: 1 }, 'ticketReply', 'y'));
  });

  it('copes with bodies nested deeper than the stack', () => {
    const deep = JSON.parse(`${'{"a":['.repeat(100_000)}1${']}'.repeat(100_000)}`);
    expect(fingerprint(deep)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('property: shuffled key order → same fingerprint', () => {
    fc.assert(
      fc.property(json, fc.integer(), (body, seed) => {
        expect(fingerprint(shuffled(body, random(seed)))).toBe(fingerprint(body));
      }),
      { numRuns: 500 },
    );
  });

  it('property: different JSON values → different fingerprints', () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        fc.pre(!isDeepStrictEqual(a, b));
        expect(fingerprint(a)).not.toBe(fingerprint(b));
      }),
      { numRuns: 500 },
    );
  });

  it('property: one value changed anywhere in an object → a different fingerprint', () => {
    const object = fc.dictionary(fc.string(), json, { minKeys: 1 });
    fc.assert(
      fc.property(object, fc.nat(), json, (body, pick, value) => {
        const key = Object.keys(body)[pick % Object.keys(body).length] as string;
        fc.pre(!isDeepStrictEqual(body[key], value));
        expect(fingerprint({ ...body, [key]: value })).not.toBe(fingerprint(body));
      }),
      { numRuns: 500 },
    );
  });
});
