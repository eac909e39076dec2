import type { LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { DomainError } from '../store/errors';
import { type Lookup, resolveReceiver } from './receiver-url';

/**
 * One delivery attempt of one event to one subscription, as the Standard Webhooks
 * specification has it (https://www.standardwebhooks.com): a JSON POST
 *
 *   { "type": "<event type>", "timestamp": "<ISO 8601: when it occurred>",
 *     "data": { "event": <the event as GET /event/list shows it>,
 *               "cursor": "<the feed's nextQuery right after this event>" } }
 *
 * with `webhook-id` (the event's id: the same on every retry, a receiver's deduplication key),
 * `webhook-timestamp` (seconds, when this attempt was signed) and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256>` by the `standardwebhooks` package). A receiver that was down
 * follows `data.cursor` to read everything after this event from the feed.
 *
 * The URL is checked again right before sending (domain/receiver-url.ts: DNS can change), and
 * the request connects only to the addresses that check resolved and approved: the host is
 * resolved once, never again by the connection (DNS rebinding), while the request still carries
 * the URL's host in `Host` and, over https, as the TLS server name that the certificate is
 * verified against. The request has a 5 s timeout, redirects are failures (never followed), and
 * at most 4 KB of the answer is read. Nothing here logs: neither the secret nor the payload may
 * reach a log.
 */
export interface DeliverySubscription {
  url: string;
  secret: string;
}

/** The event as the feed shows it (shared/http/views/event.ts). */
export interface DeliveredEvent {
  id: string;
  type: string;
  occurredAt: number;
  [field: string]: unknown;
}

export interface DeliveryOutcome {
  /** The receiver answered 2xx. */
  ok: boolean;
  /** Its status, when it answered. */
  status?: number;
  /** Why it is not ok. */
  error?: string;
  /** What the receiver answered, at most RESPONSE_BYTES of it (as text). */
  response?: string;
  /** How long the attempt took, checks included. */
  ms: number;
}

export const DELIVERY_TIMEOUT_MS = 5000;
export const RESPONSE_BYTES = 4096;

/** The body of a delivery (as sent and signed). */
export const deliveryBody = (event: DeliveredEvent, cursor: string): string =>
  JSON.stringify({
    type: event.type,
    timestamp: new Date(event.occurredAt).toISOString(),
    data: { event, cursor },
  });

/** The Standard Webhooks headers of `body`, signed with `secret` at `at`. */
export const signedHeaders = (
  secret: string,
  eventId: string,
  body: string,
  at: Date,
): Record<string, string> => ({
  'content-type': 'application/json',
  'webhook-id': eventId,
  'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
  'webhook-signature': new Webhook(secret).sign(eventId, at, body),
});

/**
 * A resolver for net.connect that answers only `addresses` (already checked) whatever it is
 * asked: the connection goes to one of them and nothing is resolved again.
 */
const pinnedLookup =
  (addresses: readonly string[]): LookupFunction =>
  (_host, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family || 0;
    const answers: LookupAddress[] = addresses
      .map((address) => ({ address, family: isIP(address) }))
      .filter((a) => a.family !== 0 && (family === 0 || a.family === family));
    const [first] = answers;
    process.nextTick(() => {
      if (!first)
        callback(Object.assign(new Error('no checked address of that family'), { code: 'ENOTFOUND' }), '');
      else if (options.all) callback(null, answers);
      else callback(null, first.address, first.family);
    });
  };

interface Answer {
  status: number;
  /** At most `RESPONSE_BYTES` of the body, as text. */
  response: string;
}

/**
 * POSTs `body` to `url` over a connection of its own (no pooled socket, which may have been
 * opened after another check) to one of `addresses`; reads at most RESPONSE_BYTES of the answer,
 * then lets the rest go. Redirects are answers like any other (node:http follows none).
 */
const post = (
  url: URL,
  addresses: readonly string[],
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const https = url.protocol === 'https:';
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const request = (https ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        // The URL's host, not the address connected to: in Host, and over https as the server
        // name sent (SNI) and the certificate is verified against (an IP literal sends none).
        headers: { ...headers, host: url.host, 'content-length': String(Buffer.byteLength(body)) },
        ...(https && isIP(hostname) === 0 ? { servername: hostname } : {}),
        lookup: pinnedLookup(addresses),
        agent: false,
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const response = Buffer.concat(chunks).subarray(0, RESPONSE_BYTES).toString('utf8');
          resolve({ status: res.statusCode ?? 0, response });
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.byteLength;
          if (size >= RESPONSE_BYTES) done();
        });
        res.on('end', done);
        res.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });

const failure = (error: unknown, timeoutMs: number, timedOut: boolean): string => {
  if (error instanceof DomainError) return error.message;
  if (timedOut || (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')))
    return `no answer within ${timeoutMs} ms`;
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return `request failed${typeof code === 'string' && code !== '' ? `: ${code}` : ''}`;
};

/** Sends `event` to the subscription once; never throws (the outcome says what happened). */
export const deliver = async (
  subscription: DeliverySubscription,
  event: DeliveredEvent,
  feedCursorUrl: string,
  options: { lookup?: Lookup; timeoutMs?: number } = {},
): Promise<DeliveryOutcome> => {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const ms = () => Math.round(performance.now() - started);
  let signal: AbortSignal | undefined;
  try {
    const { url, addresses } = await resolveReceiver(subscription.url, options.lookup);
    const body = deliveryBody(event, feedCursorUrl);
    signal = AbortSignal.timeout(timeoutMs);
    const headers = signedHeaders(subscription.secret, event.id, body, new Date());
    const { status, response } = await post(url, addresses, headers, body, signal);
    const ok = status >= 200 && status < 300;
    const error = ok
      ? undefined
      : status >= 300 && status < 400
        ? `redirect (${status}) not followed`
        : `answered ${status}`;
    return { ok, status, ...(error ? { error } : {}), response, ms: ms() };
  } catch (error) {
    return { ok: false, error: failure(error, timeoutMs, signal?.aborted === true), ms: ms() };
  }
};
