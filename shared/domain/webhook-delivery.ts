import { Webhook } from 'standardwebhooks';
import { DomainError } from '../store/errors';
import { checkReceiver, type Lookup } from './receiver-url';

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
 * The URL is checked again right before sending (domain/receiver-url.ts: DNS can change); the
 * request has a 5 s timeout, redirects are failures (never followed), and at most 4 KB of the
 * answer is read. Nothing here logs: neither the secret nor the payload may reach a log.
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

/** Reads at most `max` bytes of a body, then lets the rest go. */
const readCapped = async (body: ReadableStream<Uint8Array> | null, max: number): Promise<string> => {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < max) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
};

const failure = (error: unknown, timeoutMs: number): string => {
  if (error instanceof DomainError) return error.message;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return `request failed${cause?.code ? `: ${cause.code}` : ''}`;
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
  try {
    const url = await checkReceiver(subscription.url, options.lookup);
    const body = deliveryBody(event, feedCursorUrl);
    const signal = AbortSignal.timeout(timeoutMs);
    const res = await fetch(url, {
      method: 'POST',
      headers: signedHeaders(subscription.secret, event.id, body, new Date()),
      body,
      redirect: 'manual',
      signal,
    });
    const response = await readCapped(res.body, RESPONSE_BYTES);
    const ok = res.status >= 200 && res.status < 300;
    const error = ok
      ? undefined
      : res.status >= 300 && res.status < 400
        ? `redirect (${res.status}) not followed`
        : `answered ${res.status}`;
    return { ok, status: res.status, ...(error ? { error } : {}), response, ms: ms() };
  } catch (error) {
    return { ok: false, error: failure(error, timeoutMs), ms: ms() };
  }
};
