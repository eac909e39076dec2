import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ifMatchOf } from '../../shared/http/if-match';

describe('If-Match (RFC 9110 list of entity-tags)', () => {
  it('reads absent and * as no check', () => {
    expect(ifMatchOf(undefined)).toBeUndefined();
    expect(ifMatchOf('*')).toBeUndefined();
    expect(ifMatchOf(' * ')).toBeUndefined();
  });

  it('reads single tags, weak or strong, as today', () => {
    expect(ifMatchOf('"3"')).toEqual([3]);
    expect(ifMatchOf('W/"3"')).toEqual([3]);
    expect(ifMatchOf(' "0" ')).toEqual([0]);
  });

  it('reads lists, ignoring empty elements and tags that are not ours', () => {
    expect(ifMatchOf('"1", "7"')).toEqual([1, 7]);
    expect(ifMatchOf('"1","7"')).toEqual([1, 7]);
    expect(ifMatchOf('W/"1" ,\t"a,b" , , "01", "7",')).toEqual([1, 7]);
    expect(ifMatchOf('"abc"')).toEqual([]);
  });

  it('reads a malformed header as naming nothing', () => {
    for (const bad of [
      '"open',
      '3',
      '"1" "2"',
      '*, "1"',
      '"1", *',
      'w/"1"',
      '"1", nonsense',
      '"\u00e9\ud800"',
      '',
    ]) {
      expect(ifMatchOf(bad), JSON.stringify(bad)).toEqual([]);
    }
  });

  it('property: any list of our ETags, weak or strong, with any optional whitespace, names exactly those versions', () => {
    const ows = fc.constantFrom('', ' ', '\t', '  ');
    const element = fc.record({
      version: fc.nat({ max: 10 ** 15 - 1 }),
      weak: fc.boolean(),
      before: ows,
      after: ows,
    });
    fc.assert(
      fc.property(fc.array(element, { minLength: 1, maxLength: 8 }), (elements) => {
        const header = elements
          .map(({ version, weak, before, after }) => `${before}${weak ? 'W/' : ''}"${version}"${after}`)
          .join(',');
        expect(ifMatchOf(header)).toEqual(elements.map((e) => e.version));
      }),
    );
  });
});
