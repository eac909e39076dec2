import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';
import { type Config, config } from '../config';
import { InvalidInput } from '../store/errors';

/**
 * Where the service may send a webhook (SSRF): `https:` only, no credentials in the URL, any
 * port, and a host whose every address (after DNS) is public unicast. That is an allow-list, not
 * a list of what to refuse: public IPv4 (no block of the IANA IPv4 Special-Purpose Registry, no
 * multicast or reserved), and IPv6 only inside 2000::/3 (global unicast) minus its
 * special-purpose blocks. Every IPv6 form that carries an IPv4 address (mapped, translated,
 * compatible, NAT64, 6to4, Teredo) is therefore refused whatever address it carries, and so are
 * unique-local, link-local, multicast and anything assigned outside 2000::/3 in future.
 *
 * With WEBHOOK_ALLOW_LOCAL_HTTP (the local server, the tests) `localhost`, `127.0.0.1` and `[::1]`
 * may be used over `http:` or `https:` and may resolve to loopback addresses, and only those,
 * on a port WEBHOOK_LOCAL_PORTS names; never on the port of a service this process talks to
 * (DynamoDB Local, the S3 server, the queue, the API itself), listed or not.
 *
 * Checked at insert and update (a 400 naming `url`) and again right before each delivery
 * (`resolveReceiver`): what a name resolves to can change in between. A delivery connects only
 * to the addresses that check answered (domain/webhook-delivery.ts), never resolving the name
 * again: a DNS server that answers a public address to the check and a private one later (DNS
 * rebinding) does not move the connection.
 */
export type Lookup = (host: string) => Promise<readonly { address: string }[]>;

const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/** IPv4 that is not public unicast: the special-purpose blocks no receiver is in, multicast, reserved. */
const notPublicIpv4 = new BlockList();
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
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 (broadcast)
] as const)
  notPublicIpv4.addSubnet(net, prefix, 'ipv4');

/** Global unicast (RFC 4291): the only IPv6 space a receiver may be in. */
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/** The blocks of the IANA IPv6 Special-Purpose Registry inside 2000::/3 that no receiver needs. */
const specialUnicast = new BlockList();
for (const [net, prefix] of [
  // IETF protocol assignments: Teredo 2001::/32 (tunnels to an IPv4 address), benchmarking
  // 2001:2::/48, ORCHIDs 2001:10::/28 and 2001:20::/28, AMT 2001:3::/32, anycast services.
  ['2001::', 23],
  ['2001:db8::', 32], // documentation
  // 6to4, deprecated (RFC 7526): a relay unwraps it to the IPv4 address it embeds, public or not.
  // Refused whatever it embeds: a receiver with a public IPv4 address is reached on that.
  ['2002::', 16],
  ['3fff::', 20], // documentation (RFC 9637)
] as const)
  specialUnicast.addSubnet(net, prefix, 'ipv6');

/**
 * True for an address a webhook must never reach: anything but public unicast. An address with a
 * zone index is refused too (only non-global addresses need one).
 */
export const isForbiddenAddress = (address: string): boolean => {
  if (isIPv4(address)) return notPublicIpv4.check(address, 'ipv4');
  if (!isIPv6(address) || address.includes('%')) return true;
  return !globalUnicast.check(address, 'ipv6') || specialUnicast.check(address, 'ipv6');
};

// One list per family: a BlockList's IPv4 rules also match IPv4-mapped IPv6 addresses, which are
// no loopback address a local receiver may have.
const loopbackIpv4 = new BlockList();
loopbackIpv4.addSubnet('127.0.0.0', 8, 'ipv4');
const loopbackIpv6 = new BlockList();
loopbackIpv6.addAddress('::1', 'ipv6');
const isLoopback = (address: string): boolean =>
  isIPv4(address)
    ? loopbackIpv4.check(address, 'ipv4')
    : isIPv6(address) && !address.includes('%') && loopbackIpv6.check(address, 'ipv6');

/** Hosts that may be reached over http (and resolve to loopback) when local receivers are allowed. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Local mode (WEBHOOK_ALLOW_LOCAL_HTTP): where a local receiver may listen. */
export interface LocalReceivers {
  /** The ports a local receiver may use (WEBHOOK_LOCAL_PORTS): inclusive ranges. */
  ports: readonly (readonly [number, number])[];
  /** The ports of the services this process talks to: never a receiver's, listed or not. */
  own: ReadonlySet<number>;
}

const portOf = (url: URL): number => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** The local server's port, and every configured endpoint's: DynamoDB Local, S3, the queue, the API. */
const ownPorts = (c: Config): Set<number> => {
  const regions = (c.REGION_ENDPOINTS ?? '').split(',').map((entry) => entry.slice(entry.indexOf('=') + 1));
  const endpoints = [
    c.DYNAMODB_ENDPOINT,
    c.S3_ENDPOINT,
    c.SQS_ENDPOINT,
    c.WEBHOOK_QUEUE_URL,
    c.DELIVERY_BASE_URL,
    c.PUBLIC_BASE_URL,
    ...regions,
  ];
  const ports = endpoints.flatMap((endpoint) => {
    const url = endpoint ? URL.parse(endpoint) : null;
    return url ? [portOf(url)] : [];
  });
  return new Set(c.PORT ? [c.PORT, ...ports] : ports);
};

/** Local mode as the configuration has it, or undefined (as in AWS: no local receiver). */
export const localReceivers = (c: Config = config()): LocalReceivers | undefined =>
  c.WEBHOOK_ALLOW_LOCAL_HTTP ? { ports: c.WEBHOOK_LOCAL_PORTS, own: ownPorts(c) } : undefined;

/** Why a local receiver may not use this port, or undefined. */
const localPortProblem = (port: number, local: LocalReceivers): string | undefined => {
  if (local.own.has(port))
    return `must not use port ${port}: it is a local service's (DynamoDB Local, the S3 server, the queue or the API)`;
  if (!local.ports.some(([from, to]) => port >= from && port <= to))
    return `must use a port WEBHOOK_LOCAL_PORTS names for local receivers (${port} is not one)`;
  return undefined;
};

/**
 * Why this URL may not receive webhooks, or undefined; `addresses` are what its host resolves
 * to, `local` the local mode (undefined: none, as in AWS).
 */
export const receiverProblem = (
  url: URL,
  addresses: readonly string[],
  local: LocalReceivers | undefined,
): string | undefined => {
  const isLocal = local !== undefined && LOCAL_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(isLocal && url.protocol === 'http:'))
    return local ? 'must be an https URL (or http to localhost, 127.0.0.1 or [::1])' : 'must be an https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (isLocal) {
    const problem = localPortProblem(portOf(url), local);
    if (problem) return problem;
  }
  if (addresses.length === 0) return 'its host does not resolve';
  const refused = addresses.find((a) => isForbiddenAddress(a) && !(isLocal && isLoopback(a)));
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
  const problem = receiverProblem(parsed, addresses, localReceivers());
  if (problem) throw refuse(problem);
  return { url: parsed, addresses };
};

/** `resolveReceiver` for insert and update: the parsed URL, or InvalidInput. */
export const checkReceiver = async (url: string, lookup: Lookup = systemLookup): Promise<URL> =>
  (await resolveReceiver(url, lookup)).url;
