/**
 * Environment, read once at cold start; a bad value fails fast with a clear message.
 * Deployed functions get TABLE_NAME, BUCKET_NAME and CURSOR_SECRET_ARN from the stack; the local
 * server and the tests set DYNAMODB_ENDPOINT, S3_ENDPOINT and CURSOR_SECRET (generated into the data dir).
 *
 * Read by a table of small readers, not a zod schema: every function reads the whole environment
 * at start, and building a zod schema of these ~35 fields (~150 schema instances) cost 2.2 ms of
 * every cold start (docs/performance.md, "Issue 21: cold start under ×1.25"). Request bodies stay zod's.
 */

/** Reads one variable's raw value (undefined when unset); answers the value or a message. */
type Reader<T> = (raw: string | undefined) => { value: T } | { problem: string };

const MAX = Number.MAX_SAFE_INTEGER;

const text =
  (rule: { min?: number; pattern?: RegExp; message?: string; default?: string } = {}): Reader<string> =>
  (raw) => {
    if (raw === undefined)
      return rule.default === undefined ? { problem: 'required' } : { value: rule.default };
    if (rule.min !== undefined && raw.length < rule.min)
      return { problem: `must have at least ${rule.min} characters` };
    if (rule.pattern && !rule.pattern.test(raw)) return { problem: rule.message ?? 'invalid' };
    return { value: raw };
  };

/** A whole number from min to max; an empty value reads as 0 (as `Number('')`). */
const whole =
  (min: number, max = MAX, fallback?: number): Reader<number> =>
  (raw) => {
    if (raw === undefined) return fallback === undefined ? { problem: 'required' } : { value: fallback };
    const n = Number(raw);
    if (!Number.isInteger(n)) return { problem: 'must be a whole number' };
    if (n < min) return { problem: `must be at least ${min}` };
    if (n > max) return { problem: `must be at most ${max}` };
    return { value: n };
  };

const url: Reader<string> = (raw) => {
  if (raw === undefined) return { problem: 'required' };
  return URL.canParse(raw) ? { value: raw } : { problem: 'must be an absolute URL' };
};

const TRUE = new Set(['true', '1', 'yes', 'on', 'y', 'enabled']);
const FALSE = new Set(['false', '0', 'no', 'off', 'n', 'disabled']);
/** true/1/yes/on/y/enabled or false/0/no/off/n/disabled, any case. */
const flag =
  (fallback: boolean): Reader<boolean> =>
  (raw) => {
    if (raw === undefined) return { value: fallback };
    const word = raw.trim().toLowerCase();
    if (TRUE.has(word)) return { value: true };
    if (FALSE.has(word)) return { value: false };
    return { problem: 'must be true or false' };
  };

const optional =
  <T>(read: Reader<T>): Reader<T | undefined> =>
  (raw) =>
    raw === undefined ? { value: undefined } : read(raw);

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
const PORT_LIST = /^\s*(\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*)?\s*$/;
const portRanges: Reader<[number, number][]> = (raw) => {
  if (raw === undefined) return { value: [] };
  if (!PORT_LIST.test(raw)) return { problem: 'comma-separated ports or ranges (8080,9000-9009)' };
  const ranges = portRangesOf(raw);
  return ranges.every(([from, to]) => from >= 1 && from <= to && to <= 65_535)
    ? { value: ranges }
    : { problem: 'ports from 1 to 65535, a range low-high' };
};

const READERS = {
  TABLE_NAME: text({ min: 3, default: 'helpdesk' }),
  AWS_REGION: text({ min: 1, default: 'us-east-1' }),
  /** The local server's port (`npm start` sets the one it listens on); unset in AWS. */
  PORT: optional(whole(0, 65_535)),
  /** Points the SDK at DynamoDB Local; unset in AWS. */
  DYNAMODB_ENDPOINT: optional(url),
  /** Overrides the base URL derived from the request (custom domains with a base path). */
  PUBLIC_BASE_URL: optional(url),
  /**
   * Cursor signing key for local runs and tests (>= 32 characters): a plain key (kid `legacy`), or
   * JSON `{"kid","key"}` as rotation writes (store/cursor-key.ts).
   */
  CURSOR_SECRET: optional(text({ min: 32 })),
  /**
   * The key before CURSOR_SECRET, same forms, another kid: cursors it signed still verify. Tests of
   * the rotation path set it; in AWS the secret's AWSPREVIOUS version plays this part.
   */
  CURSOR_SECRET_PREVIOUS: optional(text({ min: 32 })),
  /** Secrets Manager secret holding the cursor signing key, in AWS. */
  CURSOR_SECRET_ARN: optional(text({ min: 20 })),
  /** Bucket of attachments and photos. */
  BUCKET_NAME: text({ min: 3, default: 'helpdesk-blobs' }),
  /** Several regions: each region's attachments bucket, `region=bucket,…` (the stack sets it; blobs/s3.ts). */
  BUCKETS: optional(text()),
  /** Points the S3 calls at a local S3 server (path-style addressing); unset in AWS. */
  S3_ENDPOINT: optional(url),
  /** Requests per minute per client, enforced across all instances (429 beyond). */
  RATE_LIMIT_PER_MINUTE: whole(1, MAX, 1200),
  /**
   * Failed authentications per minute naming one clientId, known or not (401 up to it, 429
   * beyond). Only failures count: valid credentials of that client still pass.
   */
  AUTH_FAILURES_PER_MINUTE_PER_CLIENT: whole(1, MAX, 20),
  /**
   * Failed authentications per minute from one source address (an IPv6 address counts as its
   * /64). Beyond it the address is refused (429) before any credential is checked.
   */
  AUTH_FAILURES_PER_MINUTE_PER_IP: whole(1, MAX, 60),
  /** Access tokens issued per minute per client (each is a written item; 429 beyond, nothing written). */
  TOKEN_EXCHANGES_PER_MINUTE: whole(1, MAX, 30),
  TOKEN_TTL_SECONDS: whole(60, 86_400, 3600),
  /** Days the change feed keeps an event (DynamoDB's TTL deletes it after); an older cursor is a 410. */
  EVENT_RETENTION_DAYS: whole(1, 365, 30),
  /**
   * How far behind the present the feed reads (ms): an event becomes readable this long after its
   * write was sent, so a write that commits after a later one (concurrent writers) is never
   * passed by a reader that already read the later one. It must exceed the longest a write can
   * take from being stamped to being committed: the functions' 10 s timeout (every call is
   * aborted before it) and 2 s for DynamoDB to finish a transaction it received
   * (docs/decisions.md, "Events"; test/infra/stack.test.ts holds the timeout under it).
   */
  EVENT_FEED_LAG_MS: whole(0, 600_000, 12_000),
  /**
   * Webhook receivers may be `http:` on localhost, 127.0.0.1 or ::1, on the ports
   * WEBHOOK_LOCAL_PORTS names (and those hosts' loopback addresses pass the SSRF check:
   * domain/receiver-url.ts). Set by the local server and the tests; never in AWS, where every
   * receiver is https on a public address.
   */
  WEBHOOK_ALLOW_LOCAL_HTTP: flag(false),
  /**
   * With WEBHOOK_ALLOW_LOCAL_HTTP, the only ports a local receiver may use: `8080,9000-9009`.
   * Empty or unset: none, so no local receiver at all. The ports of the endpoints this process
   * talks to (DynamoDB Local, the S3 server, the queue, the API itself) are refused even when
   * listed (domain/receiver-url.ts). Ignored without WEBHOOK_ALLOW_LOCAL_HTTP.
   */
  WEBHOOK_LOCAL_PORTS: portRanges,
  /**
   * The API's URL as webhook deliveries link to it (the feed cursor, attachments): the delivery
   * function has no request to take it from. The stack sets the API's URL (or PUBLIC_BASE_URL's
   * custom domain), the local server its own.
   */
  DELIVERY_BASE_URL: optional(url),
  /**
   * The regions of a multi-region deployment (comma-separated; docs/regions.md), set by the
   * stack; unset in a single region. Event items then record the region they were written in.
   */
  REGIONS: optional(text({ pattern: /^[a-z0-9-]+(,[a-z0-9-]+)*$/, message: 'comma-separated region names' })),
  /** The region clients created before regions existed are homed in (the stack sets it; default AWS_REGION). */
  PRIMARY_REGION: optional(text({ pattern: /^[a-z0-9-]+$/, message: 'a region name' })),
  /**
   * Local simulations only: the DynamoDB endpoint of each other region, `region=url,…`
   * (store/store-region.ts). In AWS each region's replica has its default endpoint.
   */
  REGION_ENDPOINTS: optional(text()),
  /**
   * A tenant's writes run against its home region's replica (docs/regions.md). Off only for
   * the simulation's negative control, which must then show the conflicts homing prevents.
   */
  REGION_HOMING: flag(true),
  /**
   * How long (ms) the new home refuses a re-homed tenant's writes while the old home's last writes
   * replicate (auth/clients.ts REHOME_SETTLE_MS, 10 s); the simulation shortens it.
   */
  REHOME_SETTLE_MS: optional(whole(0, 3_600_000)),
  /**
   * The search index (docs/search.md). In AWS the stack sets the region's Aurora cluster, the secret
   * of its user and the database, reached through the RDS Data API; unset, the index is PGlite in
   * this process, kept under SEARCH_DATA_DIR (unset: in memory, as the tests use it).
   */
  SEARCH_CLUSTER_ARN: optional(text({ pattern: /^arn:aws[\w-]*:rds:/, message: 'an RDS cluster ARN' })),
  SEARCH_SECRET_ARN: optional(text({ pattern: /^arn:aws[\w-]*:secretsmanager:/, message: 'a secret ARN' })),
  SEARCH_DATABASE: text({
    pattern: /^[a-z_][a-z0-9_]{0,62}$/,
    message: 'a database name',
    default: 'helpdesk',
  }),
  SEARCH_DATA_DIR: optional(text({ min: 1 })),
  /** How long a search sent with `Helpdesk-Min-Position` waits for the index (then 503 `index-behind`). */
  SEARCH_WAIT_MS: whole(0, 30_000, 5000),
  /** The FIFO queue webhook deliveries wait in (infra/webhook-pipeline.ts; the local server's own). */
  WEBHOOK_QUEUE_URL: optional(url),
  /** The import queue (infra/import-pipeline.ts; locally local/sqs-local.ts): each step of an import job. */
  IMPORT_QUEUE_URL: optional(url),
  /** Bytes of an import file one read takes (domain/import-run.ts); 1 MiB. Tests make it small. */
  IMPORT_CHUNK_BYTES: whole(256, 64 << 20, 1 << 20),
  /** Points the SQS calls at the local queue server (local/sqs-local.ts); unset in AWS. */
  SQS_ENDPOINT: optional(url),
  /**
   * The longest wait (ms) after each failed delivery attempt, comma-separated; every later attempt
   * waits at most the last (domain/webhook-retry.ts). Tests shorten it.
   */
  WEBHOOK_RETRY_CAPS_MS: text({
    pattern: /^\d+(,\d+)*$/,
    message: 'comma-separated whole milliseconds',
    default: '5000,30000,120000,600000,1800000,3600000,7200000,14400000',
  }),
  /**
   * The most webhook subscriptions one tenant may have (a 409 `webhook-limit` past it): each one
   * adds the delivery work of every event (docs/decisions.md, "Webhook fairness").
   */
  WEBHOOK_MAX_SUBSCRIPTIONS: whole(1, 1000, 10),
  /**
   * How many webhook attempts of one tenant run at once, across all instances (store/delivery-slots.ts):
   * one tenant's slow or silent receivers hold at most this much of the delivery concurrency.
   */
  WEBHOOK_TENANT_CONCURRENCY: whole(1, 100, 4),
  /** How long (ms) an event's deliveries fail before the subscription is disabled (24 h; tests shorten it). */
  WEBHOOK_RETRY_HORIZON_MS: whole(1000, MAX, 86_400_000),
  /**
   * Set by the stack while an existing table moves to the current indexes one step at a time
   * (store/migrations/legacy.ts `indexesAtStep`): which indexes exist, so the code uses those. Unset:
   * the table has the current indexes.
   */
  INDEX_MIGRATION_STEP: optional(whole(0, 18)),
} satisfies Record<string, Reader<unknown>>;

export type Config = {
  readonly [K in keyof typeof READERS]: ReturnType<(typeof READERS)[K]> extends infer R
    ? R extends { value: infer T }
      ? T
      : never
    : never;
};

let cached: Config | undefined;

export const config = (): Config => {
  if (!cached) {
    const values: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const [name, read] of Object.entries(READERS) as [string, Reader<unknown>][]) {
      const result = read(process.env[name]);
      if ('problem' in result) problems.push(`${name}: ${result.problem}`);
      else values[name] = result.value;
    }
    if (problems.length > 0) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
    cached = values as Config;
  }
  return cached;
};

/** Tests and the local server change the environment between runs. */
export const resetConfig = (): void => {
  cached = undefined;
};
