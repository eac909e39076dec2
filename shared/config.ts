import * as z from 'zod/mini';

/**
 * Environment, parsed once at cold start; a bad value fails fast with a clear message.
 * Deployed functions get TABLE_NAME, BUCKET_NAME and CURSOR_SECRET_ARN from the stack; the local
 * server and the tests set DYNAMODB_ENDPOINT, S3_ENDPOINT and CURSOR_SECRET (generated into the data dir).
 */
const withDefault = <T extends z.ZodMiniType>(schema: T, value: z.output<T>) =>
  z._default(schema, value as never);
const atLeast = (n: number) => z.string().check(z.minLength(n));
const whole = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().check(z.int(), z.gte(min), z.lte(max));

/** `8080,9000-9009`: ports and inclusive ranges, each port 1-65535 (spaces ignored; empty: none). */
const portRangesOf = (text: string): [number, number][] =>
  text
    .replace(/\s/g, '')
    .split(',')
    .filter((entry) => entry !== '')
    .map((entry) => {
      const [from, to = from] = entry.split('-').map(Number) as [number, number?];
      return [from, to];
    });
const portRanges = z.pipe(
  z.string().check(
    z.regex(
      /^\s*(\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*)?\s*$/,
      'comma-separated ports or ranges (8080,9000-9009)',
    ),
    z.refine(
      (text) => portRangesOf(text).every(([from, to]) => from >= 1 && from <= to && to <= 65_535),
      'ports from 1 to 65535, a range low-high',
    ),
  ),
  z.transform(portRangesOf),
);

const schema = z.object({
  TABLE_NAME: withDefault(atLeast(3), 'helpdesk'),
  AWS_REGION: withDefault(atLeast(1), 'us-east-1'),
  /** The local server's port (`npm start` sets the one it listens on); unset in AWS. */
  PORT: z.optional(whole(0, 65_535)),
  /** Points the SDK at DynamoDB Local; unset in AWS. */
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  /** Overrides the base URL derived from the request (custom domains with a base path). */
  PUBLIC_BASE_URL: z.optional(z.url()),
  /**
   * Cursor signing key for local runs and tests (>= 32 characters): a plain key (kid `legacy`), or
   * JSON `{"kid","key"}` as rotation writes (store/cursor-key.ts).
   */
  CURSOR_SECRET: z.optional(atLeast(32)),
  /**
   * The key before CURSOR_SECRET, same forms, another kid: cursors it signed still verify. Tests of
   * the rotation path set it; in AWS the secret's AWSPREVIOUS version plays this part.
   */
  CURSOR_SECRET_PREVIOUS: z.optional(atLeast(32)),
  /** Secrets Manager secret holding the cursor signing key, in AWS. */
  CURSOR_SECRET_ARN: z.optional(atLeast(20)),
  /** Bucket of attachments and photos. */
  BUCKET_NAME: withDefault(atLeast(3), 'helpdesk-blobs'),
  /** Several regions: each region's attachments bucket, `region=bucket,…` (the stack sets it; blobs/s3.ts). */
  BUCKETS: z.optional(z.string()),
  /** Points the S3 calls at a local S3 server (path-style addressing); unset in AWS. */
  S3_ENDPOINT: z.optional(z.url()),
  /** Requests per minute per client, enforced across all instances (429 beyond). */
  RATE_LIMIT_PER_MINUTE: withDefault(whole(1), 1200),
  /**
   * Failed authentications per minute naming one clientId, known or not (401 up to it, 429
   * beyond). Only failures count: valid credentials of that client still pass.
   */
  AUTH_FAILURES_PER_MINUTE_PER_CLIENT: withDefault(whole(1), 20),
  /**
   * Failed authentications per minute from one source address (an IPv6 address counts as its
   * /64). Beyond it the address is refused (429) before any credential is checked.
   */
  AUTH_FAILURES_PER_MINUTE_PER_IP: withDefault(whole(1), 60),
  /** Access tokens issued per minute per client (each is a written item; 429 beyond, nothing written). */
  TOKEN_EXCHANGES_PER_MINUTE: withDefault(whole(1), 30),
  TOKEN_TTL_SECONDS: withDefault(whole(60, 86_400), 3600),
  /** Days the change feed keeps an event (DynamoDB's TTL deletes it after); an older cursor is a 410. */
  EVENT_RETENTION_DAYS: withDefault(whole(1, 365), 30),
  /**
   * How far behind the present the feed reads (ms): an event becomes readable this long after its
   * write was sent, so a write that commits after a later one (concurrent writers) is never
   * passed by a reader that already read the later one. It must exceed the longest a write can
   * take from being stamped to being committed: the functions' 10 s timeout (every call is
   * aborted before it) and 2 s for DynamoDB to finish a transaction it received
   * (docs/decisions.md, "Events"; test/infra/stack.test.ts holds the timeout under it).
   */
  EVENT_FEED_LAG_MS: withDefault(whole(0, 600_000), 12_000),
  /**
   * Webhook receivers may be `http:` on localhost, 127.0.0.1 or ::1, on the ports
   * WEBHOOK_LOCAL_PORTS names (and those hosts' loopback addresses pass the SSRF check:
   * domain/receiver-url.ts). Set by the local server and the tests; never in AWS, where every
   * receiver is https on a public address.
   */
  WEBHOOK_ALLOW_LOCAL_HTTP: withDefault(z.stringbool(), false),
  /**
   * With WEBHOOK_ALLOW_LOCAL_HTTP, the only ports a local receiver may use: `8080,9000-9009`.
   * Empty or unset: none, so no local receiver at all. The ports of the endpoints this process
   * talks to (DynamoDB Local, the S3 server, the queue, the API itself) are refused even when
   * listed (domain/receiver-url.ts). Ignored without WEBHOOK_ALLOW_LOCAL_HTTP.
   */
  WEBHOOK_LOCAL_PORTS: withDefault(portRanges, []),
  /**
   * The API's URL as webhook deliveries link to it (the feed cursor, attachments): the delivery
   * function has no request to take it from. The stack sets the API's URL (or PUBLIC_BASE_URL's
   * custom domain), the local server its own.
   */
  DELIVERY_BASE_URL: z.optional(z.url()),
  /**
   * The regions of a multi-region deployment (comma-separated; docs/regions.md), set by the
   * stack; unset in a single region. Event items then record the region they were written in.
   */
  REGIONS: z.optional(
    z.string().check(z.regex(/^[a-z0-9-]+(,[a-z0-9-]+)*$/, 'comma-separated region names')),
  ),
  /** The region clients created before regions existed are homed in (the stack sets it; default AWS_REGION). */
  PRIMARY_REGION: z.optional(z.string().check(z.regex(/^[a-z0-9-]+$/, 'a region name'))),
  /**
   * Local simulations only: the DynamoDB endpoint of each other region, `region=url,…`
   * (store/store-region.ts). In AWS each region's replica has its default endpoint.
   */
  REGION_ENDPOINTS: z.optional(z.string()),
  /**
   * A tenant's writes run against its home region's replica (docs/regions.md). Off only for
   * the simulation's negative control, which must then show the conflicts homing prevents.
   */
  REGION_HOMING: withDefault(z.stringbool(), true),
  /**
   * How long (ms) the new home refuses a re-homed tenant's writes while the old home's last writes
   * replicate (auth/clients.ts REHOME_SETTLE_MS, 10 s); the simulation shortens it.
   */
  REHOME_SETTLE_MS: z.optional(whole(0, 3_600_000)),
  /** The FIFO queue webhook deliveries wait in (infra/webhook-pipeline.ts; the local server's own). */
  WEBHOOK_QUEUE_URL: z.optional(z.url()),
  /** Points the SQS calls at the local queue server (local/sqs-local.ts); unset in AWS. */
  SQS_ENDPOINT: z.optional(z.url()),
  /**
   * The longest wait (ms) after each failed delivery attempt, comma-separated; every later attempt
   * waits at most the last (domain/webhook-retry.ts). Tests shorten it.
   */
  WEBHOOK_RETRY_CAPS_MS: withDefault(
    z.string().check(z.regex(/^\d+(,\d+)*$/, 'comma-separated whole milliseconds')),
    '5000,30000,120000,600000,1800000,3600000,7200000,14400000',
  ),
  /**
   * The most webhook subscriptions one tenant may have (a 409 `webhook-limit` past it): each one
   * adds the delivery work of every event (docs/decisions.md, "Webhook fairness").
   */
  WEBHOOK_MAX_SUBSCRIPTIONS: withDefault(whole(1, 1000), 10),
  /**
   * How many webhook attempts of one tenant run at once, across all instances (store/delivery-slots.ts):
   * one tenant's slow or silent receivers hold at most this much of the delivery concurrency.
   */
  WEBHOOK_TENANT_CONCURRENCY: withDefault(whole(1, 100), 4),
  /** How long (ms) an event's deliveries fail before the subscription is disabled (24 h; tests shorten it). */
  WEBHOOK_RETRY_HORIZON_MS: withDefault(whole(1000), 86_400_000),
  /**
   * Set by the stack while an existing table moves to the current indexes one step at a time
   * (store/migrations/legacy.ts `indexesAtStep`): which indexes exist, so the code uses those. Unset:
   * the table has the current indexes.
   */
  INDEX_MIGRATION_STEP: z.optional(whole(0, 18)),
});

export type Config = z.infer<typeof schema>;

let cached: Config | undefined;

export const config = (): Config => {
  if (!cached) {
    const parsed = schema.safeParse(process.env);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(`Invalid configuration: ${fields}`);
    }
    cached = parsed.data;
  }
  return cached;
};

/** Tests and the local server change the environment between runs. */
export const resetConfig = (): void => {
  cached = undefined;
};
