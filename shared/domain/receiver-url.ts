import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';
import { config } from '../config';
import { InvalidInput } from '../store/errors';

/**
 * Where the service may send a webhook (SSRF): `https:` only, no credentials in the URL, any
 * port, and a host whose every address (after DNS) is public: not private, loopback,
 * link-local, unique-local, multicast, unspecified, CGNAT, reserved or documentation, nor an
 * IPv6 form that embeds such an IPv4 address (mapped, compatible, NAT64, 6to4). With
 * WEBHOOK_ALLOW_LOCAL_HTTP (the local server, the tests) `localhost`, `127.0.0.1` and `[::1]`
 * may be used over `http:` or `https:` and may resolve to loopback addresses, and only those.
 *
 * Checked at insert and update (a 400 naming `url`) and again right before each delivery
 * (`resolveReceiver`): what a name resolves to can change in between. A delivery connects only
 * to the addresses that check answered (domain/webhook-delivery.ts), never resolving the name
 * again: a DNS server that answers a public address to the check and a private one later (DNS
 * rebinding) does not move the connection.
 */
export type Lookup = (host: string) => Promise<readonly { address: string }[]>;

const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata endpoints)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible (deprecated)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo (tunnels to an IPv4 address)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted quad read). */
const groups = (address: string): number[] => {
  let text = address.toLowerCase();
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (quad) {
    const [a, b, c, d] = quad.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -quad.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  return [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
};

const ipv4Of = (hi: number, lo: number): string => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** The IPv4 address an IPv6 address carries: mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16). */
const embeddedIpv4 = (address: string): string | undefined => {
  const g = groups(address);
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return ipv4Of(g[6] as number, g[7] as number);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return ipv4Of(g[6] as number, g[7] as number);
  if (g[0] === 0x2002) return ipv4Of(g[1] as number, g[2] as number);
  return undefined;
};

/** True for an address a webhook must never reach (anything but a public unicast address). */
export const isForbiddenAddress = (raw: string): boolean => {
  const address = raw.replace(/%.*$/, ''); // an IPv6 zone
  if (isIPv4(address)) return blocked.check(address, 'ipv4');
  if (!isIPv6(address)) return true;
  const inner = embeddedIpv4(address);
  if (inner !== undefined) return blocked.check(inner, 'ipv4');
  return blocked.check(address, 'ipv6');
};

const isLoopback = (address: string): boolean =>
  (isIPv4(address) && address.startsWith('127.')) || groups(address).join(':') === '0:0:0:0:0:0:0:1';

/** Hosts that may be reached over http (and resolve to loopback) when local receivers are allowed. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why this URL may not receive webhooks, or undefined; `addresses` are what its host resolves to. */
export const receiverProblem = (
  url: URL,
  addresses: readonly string[],
  allowLocalHttp: boolean,
): string | undefined => {
  const local = allowLocalHttp && LOCAL_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(local && url.protocol === 'http:'))
    return allowLocalHttp
      ? 'must be an https URL (or http to localhost, 127.0.0.1 or [::1])'
      : 'must be an https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (addresses.length === 0) return 'its host does not resolve';
  const refused = addresses.find((a) => isForbiddenAddress(a) && !(local && isLoopback(a)));
  if (refused !== undefined)
    return `its host resolves to ${refused}, a private, loopback, link-local or reserved address`;
  return undefined;
};

const refuse = (message: string) =>
  new InvalidInput(`The webhook URL ${message}.`, [{ path: 'url', message }]);

/** A receiver URL that passed the check, and the addresses its host resolved to then (each checked). */
export interface CheckedReceiver {
  url: URL;
  /** Every address the check saw, all allowed; at least one. A delivery connects to these only. */
  addresses: readonly string[];
}

/**
 * Checks a receiver URL, resolving its host once (`lookup`: the system resolver; an IP literal
 * is its own address); answers the parsed URL and the addresses it checked, or throws
 * InvalidInput (a 400 naming `url`) saying why it may not receive webhooks.
 */
export const resolveReceiver = async (
  url: string,
  lookup: Lookup = systemLookup,
): Promise<CheckedReceiver> => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse('must be an absolute URL');
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[] = [];
  if (isIP(host)) addresses = [host];
  else if (parsed.protocol === 'https:' || parsed.protocol === 'http:') {
    try {
      addresses = (await lookup(host)).map((a) => a.address);
    } catch {
      // A name that does not resolve (yet): refused, like one that resolves nowhere.
    }
  }
  const problem = receiverProblem(parsed, addresses, config().WEBHOOK_ALLOW_LOCAL_HTTP);
  if (problem) throw refuse(problem);
  return { url: parsed, addresses };
};

/** `resolveReceiver` for insert and update: the parsed URL, or InvalidInput. */
export const checkReceiver = async (url: string, lookup: Lookup = systemLookup): Promise<URL> =>
  (await resolveReceiver(url, lookup)).url;
