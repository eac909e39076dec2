import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressKey, authLeaseSize } from '../../shared/http/auth-throttle';
import { keys, RATE_PREFIX, rateSubjects } from '../../shared/store/keys';

const CLIENT = '0123456789abcdef01234567';

describe('addressKey (what failed authentications from one address are counted under)', () => {
  it('keeps an IPv4 address as it is, and unwraps an IPv4-mapped IPv6 one', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64 (one subscriber holds a whole /64), however it is spelled', () => {
    const key = '2001:db8:0:1::/64';
    for (const ip of [
      '2001:db8:0:1::1',
      '2001:db8:0:1:ffff:ffff:ffff:ffff',
      '2001:0DB8:0000:0001:0000:0000:0000:0001',
      '2001:db8::1:0:0:0:5',
      '2001:db8:0:1:aaaa::1.2.3.4',
      '2001:db8:0:1::1%eth0',
    ])
      expect(addressKey(ip), ip).toBe(key);
    expect(addressKey('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::')).toBe('0:0:0:0::/64');
  });

  it('has no key for anything that is not an address', () => {
    for (const bad of [undefined, '', ' ', 'localhost', '1.2.3', '1.2.3.256', '2001:db8::1::2', 'a#b'])
      expect(addressKey(bad), String(bad)).toBeUndefined();
  });

  it('maps every IPv6 address of one /64 to one key, and different /64s to different keys', () => {
    const hextet = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    const address = fc.array(hextet, { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(address, address, (a, b) => {
        const same = a.slice(0, 4).join(':') === b.slice(0, 4).join(':');
        // ::ffff:0:0/96 is IPv4-mapped: a different kind of key, left out here.
        fc.pre(![a, b].some((x) => x.slice(0, 6).join(':') === '0:0:0:0:0:ffff'));
        expect(addressKey(a.join(':')) === addressKey(b.join(':'))).toBe(same);
        expect(addressKey(a.join(':'))).toMatch(/^[0-9a-f]{1,4}(:[0-9a-f]{1,4}){3}::\/64$/);
      }),
    );
  });
});

describe('authLeaseSize', () => {
  it('leases a tenth of an auth budget (at most 50): a fraction of a write per failure or exchange', () => {
    expect([1, 5, 10, 11, 20, 60, 100, 1000, 1e6].map(authLeaseSize)).toEqual([1, 1, 1, 2, 2, 6, 10, 50, 50]);
  });
});

describe('rate windows', () => {
  it('keeps every window under RATE# (the only key read routes may update), each subject apart', () => {
    const subjects = [
      rateSubjects.requests(CLIENT),
      rateSubjects.authFailures(CLIENT),
      rateSubjects.authFailuresFrom('203.0.113.7'),
      rateSubjects.tokenExchanges(CLIENT),
    ];
    const pks = subjects.map((s) => keys.rateWindow(s, 1).pk);
    for (const pk of pks) expect(pk.startsWith(RATE_PREFIX)).toBe(true);
    expect(new Set(pks).size).toBe(4);
    expect(keys.rateWindow(rateSubjects.requests(CLIENT), 7)).toEqual({ pk: `RATE#${CLIENT}`, sk: '7' });
  });
});
