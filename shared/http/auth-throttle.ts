import { isIPv4, isIPv6 } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { config } from '../config';
import { Unauthorized } from '../store/errors';
import { rateSubjects } from '../store/keys';
import { HttpError } from './errors';
import { secondsToNextWindow, storeAdmission } from './rate-limit';

/**
 * Throttling around authentication, with the leases of rate-limit.ts on budgets of their own
 * (docs/decisions.md):
 * - failed authentications (well-formed credentials that the store does not confirm: unknown
 *   client, wrong secret or token, expired, revoked) are counted per presented clientId
 *   (AUTH_FAILURES_PER_MINUTE_PER_CLIENT) and per source address
 *   (AUTH_FAILURES_PER_MINUTE_PER_IP); past either budget a failure is answered 429 instead
 *   of 401. Only failures are counted, so a flood naming a client does not stop that client's
 *   valid credentials. Missing or malformed credentials are refused from memory, uncounted;
 * - an address known (on this instance) to have spent its failure budget is refused before any
 *   credential is read: a flood from one address costs no store call;
 * - token exchanges are counted per client (TOKEN_EXCHANGES_PER_MINUTE): each writes a token
 *   item, so past the budget the exchange is refused and nothing is written.
 * A valid request costs nothing here: one in-memory lookup of its address.
 */

/**
 * Leases of the auth budgets: a tenth of the budget (≤ 50). At the defaults counting a failure
 * costs 1/2 + 1/6 of a write (leases of 2 of 20 per client, 6 of 60 per address), nothing once a
 * budget is known spent; an exchange 1/3 of one (3 of 30). An instance may strand part of a
 * lease, so with several instances a budget can run out a little early; never late.
 */
export const authLeaseSize = (limit: number): number => Math.max(1, Math.min(50, Math.ceil(limit / 10)));

const failuresNaming = storeAdmission(authLeaseSize);
const failuresFrom = storeAdmission(authLeaseSize);
const exchanges = storeAdmission(authLeaseSize);

/**
 * The key an address's failures are counted under: an IPv4 address as it is (IPv4-mapped IPv6
 * unwrapped), an IPv6 address as its /64 (one subscriber is handed a whole /64, and could
 * otherwise take a fresh address per attempt). Undefined for anything else.
 */
export const addressKey = (sourceIp: string | undefined): string | undefined => {
  const ip = (sourceIp ?? '').trim().replace(/%.*$/, '');
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return undefined;
  const groups = hextets(ip);
  if (groups.slice(0, 6).join(':') === '0:0:0:0:0:ffff') {
    const [high, low] = groups.slice(6).map((g) => Number.parseInt(g, 16)) as [number, number];
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
};

/** The eight groups of a valid IPv6 address, in lower-case hex without leading zeros. */
const hextets = (ip: string): string[] => {
  let text = ip;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16));
};

const tooMany = (detail: string, resetSeconds: number): HttpError =>
  new HttpError(429, 'rate-limited', 'Too Many Requests', detail, undefined, {
    'retry-after': String(resetSeconds),
  });

const FROM_ADDRESS =
  'Too many failed authentications from this address this minute; retry after Retry-After.';
const NAMING_CLIENT =
  'Too many failed authentications for this clientId this minute; retry after Retry-After.';

type Caller = Pick<APIGatewayProxyEventV2, 'requestContext'>;

/**
 * Authenticates under the failure budgets: refused at once (429) when the caller's address is
 * known to be over its budget; then `read` takes the credentials from the request (a 401 for
 * missing or malformed ones, refused from memory and not counted: they cost nothing and can
 * never succeed) and `verify` checks them against the store. A failed check is counted against
 * the presented clientId and the address, and becomes a 429 past either budget. Anything else
 * thrown passes through uncounted.
 */
export const throttledAuthentication = async <C extends { clientId: string }>(
  event: Caller,
  read: () => C,
  verify: (credentials: C) => Promise<void>,
): Promise<C> => {
  const budgets = config();
  const perAddress = budgets.AUTH_FAILURES_PER_MINUTE_PER_IP;
  // The caller's address is named only once some address has failed here (else none is blocked).
  const fromAddress = () => {
    const address = addressKey(event.requestContext?.http?.sourceIp);
    return address === undefined ? undefined : rateSubjects.authFailuresFrom(address);
  };
  if (failuresFrom.holdsAny()) {
    const before = Date.now();
    const subject = fromAddress();
    if (subject && failuresFrom.blocked(subject, before, perAddress)) {
      throw tooMany(FROM_ADDRESS, secondsToNextWindow(before));
    }
  }
  const credentials = read();
  try {
    await verify(credentials);
    return credentials;
  } catch (error) {
    if (!(error instanceof Unauthorized)) throw error;
    const now = Date.now();
    const subject = fromAddress();
    const [byClient, byAddress] = await Promise.all([
      failuresNaming.admit(
        rateSubjects.authFailures(credentials.clientId),
        now,
        budgets.AUTH_FAILURES_PER_MINUTE_PER_CLIENT,
      ),
      subject === undefined ? undefined : failuresFrom.admit(subject, now, perAddress),
    ]);
    if (byAddress && !byAddress.allowed) throw tooMany(FROM_ADDRESS, byAddress.resetSeconds);
    if (!byClient.allowed) throw tooMany(NAMING_CLIENT, byClient.resetSeconds);
    throw error;
  }
};

/** Admits one token exchange of an authenticated client, or refuses it (429) before anything is written. */
export const admitTokenExchange = async (clientId: string): Promise<void> => {
  const limit = config().TOKEN_EXCHANGES_PER_MINUTE;
  const decision = await exchanges.admit(rateSubjects.tokenExchanges(clientId), Date.now(), limit);
  if (!decision.allowed) {
    throw tooMany(
      `This client was issued its ${limit} access tokens for this minute; use the one it holds until it expires.`,
      decision.resetSeconds,
    );
  }
};
