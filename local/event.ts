import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { type Route, routeKey } from '../shared/routes';

/**
 * Builds the Lambda event an API Gateway HTTP API (payload format 2.0) would send, so the
 * handlers run locally and in tests exactly as deployed. Rules mirrored from API Gateway:
 * lower-case header names, duplicates joined by ','; the Cookie header moved to `cookies`;
 * query values decoded (`+` is a space), duplicates joined by ','; text bodies as UTF-8,
 * anything else base64; empty maps and bodies left undefined; x-forwarded-* headers added.
 */
export interface HttpRequestInput {
  readonly method: string;
  /** Path plus query string as received, e.g. `/ticket/list?page=2`. */
  readonly rawUrl: string;
  /** Node's `req.rawHeaders` (flat name/value list) or a plain header object. */
  readonly headers: readonly string[] | Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly body?: Buffer;
  readonly route: Route;
  /** API Gateway's `$default` for a request no route matched (routes.ts `fallback`); else the route's. */
  readonly routeKey?: string;
  readonly pathParameters: Readonly<Record<string, string>>;
  readonly remoteAddress?: string;
  /** Used when the request has no Host header. */
  readonly host?: string;
  /** Reported as x-forwarded-port (API Gateway reports 443). */
  readonly localPort?: number;
}

const TEXT_TYPES = /^(text\/|application\/([\w.+-]*\+)?(json|xml|x-www-form-urlencoded|javascript)\b)/i;

/** A request's headers as name/value pairs, whichever form they came in. */
export const headerPairs = (headers: HttpRequestInput['headers']): [string, string][] => {
  if (Array.isArray(headers)) {
    const pairs: [string, string][] = [];
    for (let i = 0; i + 1 < headers.length; i += 2)
      pairs.push([headers[i] as string, headers[i + 1] as string]);
    return pairs;
  }
  return Object.entries(headers as Record<string, string | readonly string[] | undefined>).flatMap(
    ([name, value]): [string, string][] =>
      value === undefined
        ? []
        : (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, v]),
  );
};

const joinDuplicates = (pairs: Iterable<[string, string]>): Record<string, string> => {
  const joined: Record<string, string> = {};
  for (const [name, value] of pairs) joined[name] = name in joined ? `${joined[name]},${value}` : value;
  return joined;
};

const nonEmpty = <T extends object>(map: T): T | undefined => (Object.keys(map).length ? map : undefined);

/** `12/Mar/2020:19:03:58 +0000`, the requestContext.time format. */
const clfTime = (date: Date): string => {
  const [, day, month, year, time] = date.toUTCString().split(' ');
  return `${day}/${month}/${year}:${time} +0000`;
};

export const buildEvent = (input: HttpRequestInput): APIGatewayProxyEventV2 => {
  const queryStart = input.rawUrl.indexOf('?');
  const rawPath = queryStart < 0 ? input.rawUrl : input.rawUrl.slice(0, queryStart);
  const rawQueryString = queryStart < 0 ? '' : input.rawUrl.slice(queryStart + 1);

  const pairs = headerPairs(input.headers).map(([name, value]): [string, string] => [
    name.toLowerCase(),
    value,
  ]);
  const headers = joinDuplicates(pairs.filter(([name]) => name !== 'cookie'));
  const cookies = pairs
    .filter(([name]) => name === 'cookie')
    .flatMap(([, value]) => value.split(';'))
    .map((c) => c.trim())
    .filter(Boolean);
  headers.host ??= input.host ?? 'localhost';
  const sourceIp = (input.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  headers['x-forwarded-for'] = headers['x-forwarded-for']
    ? `${headers['x-forwarded-for']}, ${sourceIp}`
    : sourceIp;
  headers['x-forwarded-proto'] ??= 'http';
  headers['x-forwarded-port'] ??= String(input.localPort ?? 80);

  const query = joinDuplicates(new URLSearchParams(rawQueryString));
  const body = input.body?.length ? input.body : undefined;
  const isText = TEXT_TYPES.test(headers['content-type'] ?? '');
  const now = new Date();
  const requestId = randomBytes(11).toString('base64'); // the shape of API Gateway's ids
  const domainName = headers.host;
  const key = input.routeKey ?? routeKey(input.route);

  return {
    version: '2.0',
    routeKey: key,
    rawPath,
    rawQueryString,
    ...(cookies.length ? { cookies } : {}),
    headers,
    queryStringParameters: nonEmpty(query),
    pathParameters: nonEmpty({ ...input.pathParameters }),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split(/[.:]/)[0] ?? domainName,
      http: {
        method: input.method.toUpperCase(),
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: key,
      stage: '$default',
      time: clfTime(now),
      timeEpoch: now.getTime(),
    },
    body: body && (isText ? body.toString('utf8') : body.toString('base64')),
    isBase64Encoded: Boolean(body && !isText),
  };
};
