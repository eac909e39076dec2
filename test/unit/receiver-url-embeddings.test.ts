import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isForbiddenAddress, resolveReceiver } from '../../shared/domain/receiver-url';
import { InvalidInput } from '../../shared/store/errors';

/**
 * Receiver addresses are an allow-list (SSRF): public IPv4, and IPv6 only inside 2000::/3 minus
 * its special-purpose blocks. Every IPv6 form that can carry an IPv4 address (mapped, translated,
 * compatible, NAT64, 6to4, Teredo) is refused whatever it carries, and so is everything else
 * outside 2000::/3, in every spelling: as the address itself, as a URL literal (which the URL
 * parser normalises) and as what DNS answers for a name.
 */

/** Eight 16-bit groups. */
type Groups = number[];

const HOSTILE_V4 = ['169.254.169.254', '127.0.0.1', '10.0.0.1'];

const halves = (v4: string): [number, number] => {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  return [(a << 8) | b, (c << 8) | d];
};

/** Every documented way an IPv6 address carries an IPv4 one; `r` fills the free groups. */
const EMBEDDINGS: Record<string, (hi: number, lo: number, r: number[]) => Groups> = {
  'IPv4-mapped ::ffff:0:0/96': (hi, lo) => [0, 0, 0, 0, 0, 0xffff, hi, lo],
  'IPv4-translated ::ffff:0:0:0/96 (RFC 2765)': (hi, lo) => [0, 0, 0, 0, 0xffff, 0, hi, lo],
  'IPv4-compatible ::/96': (hi, lo) => [0, 0, 0, 0, 0, 0, hi, lo],
  'NAT64 64:ff9b::/96': (hi, lo) => [0x64, 0xff9b, 0, 0, 0, 0, hi, lo],
  'local-use NAT64 64:ff9b:1::/48, IPv4 last': (hi, lo, r) => [0x64, 0xff9b, 1, r[0], r[1], r[2], hi, lo],
  // RFC 6052 for a /48 prefix: octets 1-2 in bits 48-63, bits 64-71 zero, octets 3-4 in 72-87.
  'local-use NAT64 64:ff9b:1::/48, RFC 6052 layout': (hi, lo, r) => [
    0x64,
    0xff9b,
    1,
    hi,
    lo >> 8,
    ((lo & 0xff) << 8) | ((r[0] as number) & 0xff),
    r[1],
    r[2],
  ],
  '6to4 2002::/16': (hi, lo, r) => [0x2002, hi, lo, r[0], r[1], r[2], r[3], r[4]],
  'Teredo 2001::/32, as the server': (hi, lo, r) => [0x2001, 0, hi, lo, r[0], r[1], r[2], r[3]],
  'Teredo 2001::/32, as the client (obfuscated)': (hi, lo, r) => [
    0x2001,
    0,
    r[0],
    r[1],
    r[2],
    r[3],
    ~hi & 0xffff,
    ~lo & 0xffff,
  ],
} as Record<string, (hi: number, lo: number, r: number[]) => Groups>;

const hex = (g: number) => g.toString(16);

/** The ways to write one address: expanded, padded, upper case, compressed, a dotted quad last. */
const spellings = (g: Groups): string[] => {
  const expanded = g.map(hex).join(':');
  const quad = `${(g[6] as number) >> 8}.${(g[6] as number) & 255}.${(g[7] as number) >> 8}.${(g[7] as number) & 255}`;
  return [
    expanded,
    g.map((x) => hex(x).padStart(4, '0')).join(':'),
    expanded.toUpperCase(),
    new URL(`https://[${expanded}]/`).hostname.slice(1, -1), // the URL parser's (RFC 5952) form
    `${g.slice(0, 6).map(hex).join(':')}:${quad}`,
  ];
};

const group = fc.integer({ min: 0, max: 0xffff });
const fill = fc.array(group, { minLength: 5, maxLength: 5 });

const never = async () => {
  throw new Error('an IP literal needs no lookup');
};

/** Refused everywhere: by itself, as a URL literal, and as a name's DNS answer (a 400 naming `url`). */
const expectRefused = async (address: string) => {
  expect(isForbiddenAddress(address), address).toBe(true);
  for (const attempt of [
    () => resolveReceiver(`https://[${address}]/in`, never),
    () => resolveReceiver('https://hooks.example.com/in', async () => [{ address }]),
  ]) {
    const error = await attempt().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, address).toBeInstanceOf(InvalidInput);
    expect((error as InvalidInput).errors?.map((e) => e.path)).toEqual(['url']);
  }
};

describe('receiver addresses: an allow-list of global unicast', () => {
  it('refuses the IPv4-translated form ::ffff:0:a.b.c.d of the metadata, loopback and private addresses', async () => {
    for (const v4 of HOSTILE_V4) {
      await expectRefused(`::ffff:0:${v4}`);
      const url = `https://[::ffff:0:${v4}]/latest/meta-data/`;
      // The URL parser writes the quad as hex: the check sees `::ffff:0:a9fe:a9fe`.
      expect(new URL(url).hostname).toMatch(/^\[::ffff:0:[0-9a-f]{1,4}:[0-9a-f]{1,4}\]$/);
      await expect(resolveReceiver(url, never), url).rejects.toBeInstanceOf(InvalidInput);
    }
  });

  it.each(Object.keys(EMBEDDINGS))(
    'refuses every embedding of 169.254.169.254, 127.0.0.1 and 10.0.0.1 in %s, in every spelling',
    async (name) => {
      const embed = EMBEDDINGS[name] as (typeof EMBEDDINGS)[string];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...HOSTILE_V4), fill, async (v4, r) => {
          for (const address of spellings(embed(...halves(v4), r))) await expectRefused(address);
        }),
        { numRuns: 40 },
      );
    },
  );

  it('refuses the same embeddings of a public IPv4 address too: nothing outside 2000::/3 and its special blocks passes', async () => {
    for (const embed of Object.values(EMBEDDINGS))
      for (const address of spellings(embed(...halves('8.8.8.8'), [1, 2, 3, 4, 5])))
        await expectRefused(address);
  });

  it('refuses any IPv6 address outside 2000::/3', async () => {
    const outside = fc
      .array(group, { minLength: 8, maxLength: 8 })
      .filter((g) => ((g[0] as number) & 0xe000) !== 0x2000);
    await fc.assert(
      fc.asyncProperty(outside, async (g) => {
        for (const address of spellings(g)) await expectRefused(address);
      }),
      { numRuns: 300 },
    );
    for (const address of ['::', '::1', 'fe80::1', 'fd00::1', 'ff02::1', '100::1', '4000::1', 'e000::1'])
      await expectRefused(address);
  });

  it('refuses the special-purpose blocks inside 2000::/3 (IETF assignments, documentation, 6to4)', async () => {
    const inside = (prefix: Groups, bits: number) =>
      fc.array(group, { minLength: 8, maxLength: 8 }).map((g) =>
        g.map((x, i) => {
          const keep = Math.max(0, Math.min(16, bits - i * 16)); // bits of this group the prefix fixes
          const mask = keep === 0 ? 0 : (0xffff << (16 - keep)) & 0xffff;
          return ((prefix[i] ?? 0) & mask) | (x & ~mask & 0xffff);
        }),
      );
    for (const [prefix, bits] of [
      [[0x2001, 0], 23], // IETF protocol assignments: Teredo, benchmarking, ORCHIDs, AMT, …
      [[0x2001, 0xdb8], 32], // documentation
      [[0x2002], 16], // 6to4
      [[0x3fff, 0], 20], // documentation
    ] as [Groups, number][])
      await fc.assert(
        fc.asyncProperty(inside(prefix, bits), async (g) => {
          for (const address of spellings(g)) await expectRefused(address);
        }),
        { numRuns: 50 },
      );
    for (const address of [
      '2001:2::1',
      '2001:10::1',
      '2001:20::1',
      '2001:db8::1',
      '3fff::1',
      '2002:808:808::1',
    ])
      await expectRefused(address);
  });

  it('passes ordinary public IPv4 and IPv6 addresses, as literals and as DNS answers', async () => {
    for (const address of [
      '1.1.1.1',
      '8.8.8.8',
      '93.184.215.14',
      '172.32.0.1',
      '100.128.0.1',
      '192.169.0.1',
      '2606:4700:4700::1111',
      '2001:4860:4860::8888',
      '2a00:1450:4001:80b::200e',
      '2001:200::1', // the first block after 2001::/23
      '2620:fe::fe',
      '3ffe::1',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(false);
      const literal = address.includes(':') ? `[${address}]` : address;
      expect((await resolveReceiver(`https://${literal}/in`, never)).addresses).toEqual([address]);
      const named = await resolveReceiver('https://hooks.example.com/in', async () => [{ address }]);
      expect(named.addresses).toEqual([address]);
    }
  });
});
