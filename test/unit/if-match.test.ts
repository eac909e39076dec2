import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ifMatchOf } from '../../shared/http/api-handler';
import { etagOf } from '../../shared/http/responses';

describe('If-Match parsing', () => {
  it('reads the version of a strong or weak ETag', () => {
    expect(ifMatchOf('"3"')).toBe(3);
    expect(ifMatchOf('W/"3"')).toBe(3);
    expect(ifMatchOf('  "42"  ')).toBe(42);
    expect(ifMatchOf('"0"')).toBe(0);
    expect(ifMatchOf('"999999999999999"')).toBe(999_999_999_999_999);
  });

  it('treats an absent header and * as "any existing version"', () => {
    expect(ifMatchOf(undefined)).toBeUndefined();
    expect(ifMatchOf('*')).toBeUndefined();
    expect(ifMatchOf(' * ')).toBeUndefined();
  });

  it.each([
    '',
    '3',
    '"abc"',
    '""',
    '"-1"',
    '"1.5"',
    'W/3',
    'w/"3"',
    "'3'",
    '"3", "4"',
    '"3',
    '"1234567890123456"',
    '**',
  ])('answers NaN (never matches) for %j', (header) => {
    expect(ifMatchOf(header)).toBeNaN();
  });

  it('reads back every ETag the API hands out', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999_999 }), (version) => {
        expect(ifMatchOf(etagOf(version))).toBe(version);
        expect(ifMatchOf(`W/${etagOf(version)}`)).toBe(version);
      }),
    );
  });
});
