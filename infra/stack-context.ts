import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { routes } from '../shared/routes';
import { INDEX_MIGRATION_STEPS } from '../shared/store/migrations/legacy';
import { DEFAULT_MEMORY_MB } from './api-function';

/** Everything a deployment may vary, read from CDK context (cdk.json or `-c key=value`). */
export interface StackContext {
  readonly stage: string;
  readonly removalPolicy: RemovalPolicy;
  readonly deletionProtection: boolean;
  readonly logRetention: RetentionDays;
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  /**
   * `-c indexMigrationStep=<0..18>` while a table created before issue 12 moves to the current
   * indexes, one index per deployment (store/migrations/legacy.ts `indexesAtStep`; docs/performance.md);
   * undefined: the current indexes.
   */
  readonly indexMigrationStep?: number;
  /** `-c cursorKeyRotationDays=<1..1000>`: days between rotations of the cursor-signing key (90). */
  readonly cursorKeyRotationDays: number;
  /**
   * `-c existingTableName=<name> -c existingTableStreamArn=<arn>`: the stack creates no table and
   * grants on this one (a point-in-time restore, whose stream and TTL the operator enables first).
   * The stream ARN is required with the name: the webhook fan-out reads the stream.
   */
  readonly existingTable?: { readonly name: string; readonly streamArn: string };
  /** `-c existingBucketName=<name>`: the stack creates no attachments bucket and grants on this one. */
  readonly existingBucketName?: string;
  /**
   * `-c tracing=true`: Lambda active tracing (X-Ray) on every function, with Powertools Tracer
   * bundled in (infra/bundling.ts, shared/observability/tracing.ts). Off by default: it costs
   * cold start beyond the functions' ×1.3 goal (496 KB, still under 500 KB; `npm run bench -- --only=cold`).
   */
  readonly tracing: boolean;
  /**
   * Memory (MB, 128 to 10240) of each route's function: `-c functionMemory=1536` for every route,
   * or by operationId, `-c 'functionMemory={"ticketList":1536,"ticketInsert":2048}'`, the others
   * keeping the default, 1024 MB (infra/api-function.ts DEFAULT_MEMORY_MB).
   */
  readonly functionMemory: Readonly<Record<string, number>>;
  /**
   * Reserved concurrency of route functions, by operationId (absent: none reserved, the default):
   * `-c reservedConcurrency=20` for every route, or `-c 'reservedConcurrency={"ticketList":50}'`
   * for some. It caps the route and sets that much of the account's unreserved concurrency aside
   * for it (Lambda refuses a deployment that would leave fewer than 100 unreserved). 0 stops the
   * route: every invocation is throttled.
   */
  readonly reservedConcurrency: Readonly<Partial<Record<string, number>>>;
  /** `-c alarmEmail=ops@example.com`: subscribes the address to the alarm topic; absent: no subscription. */
  readonly alarmEmail?: string;
  /**
   * The account's Lambda concurrency quota in this region (`-c accountConcurrencyLimit=N`, default 1000):
   * the account-concurrency alarm fires at 80 % of it (infra/monitoring.ts).
   */
  readonly accountConcurrencyLimit: number;
  /**
   * The most Aurora capacity units the search cluster scales to (`-c searchMaxCapacity=N`, 1 to
   * 256, default 16): infra/search.ts. It pauses at 0 when idle whatever this is.
   */
  readonly searchMaxCapacity: number;
}

// Defaults keep data safe when a context key is missing: retain, protect, keep logs a month.
const DEFAULTS = {
  stage: 'dev',
  removalPolicy: 'retain',
  deletionProtection: true,
  logRetentionDays: 30,
  throttleRate: 50,
  throttleBurst: 100,
  cursorKeyRotationDays: 90,
  tracing: false,
  // Lambda's default concurrency quota per account and region.
  accountConcurrencyLimit: 1000,
  searchMaxCapacity: 16,
} as const;

const REMOVAL_POLICIES: Record<string, RemovalPolicy> = {
  retain: RemovalPolicy.RETAIN,
  destroy: RemovalPolicy.DESTROY,
};

// CloudWatch accepts only these day counts; RetentionDays is a numeric enum of exactly them.
const RETENTION_DAYS = new Set<number>(Object.values(RetentionDays).filter((v) => typeof v === 'number'));

const fail = (key: string, value: unknown, expected: string): never => {
  throw new Error(`Context '${key}' must be ${expected}, got ${JSON.stringify(value)}`);
};

// `-c key=value` always arrives as a string; cdk.json gives real JSON types. Accept both.
const readBoolean = (node: Node, key: string, fallback: boolean): boolean => {
  const value: unknown = node.tryGetContext(key) ?? fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return fail(key, value, 'true or false');
};

const readNumber = (node: Node, key: string, fallback: number): number => {
  const value: unknown = node.tryGetContext(key) ?? fallback;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0) return fail(key, value, 'a positive integer');
  return n;
};

/** Aurora Serverless v2 scales to at most 256 ACU. */
const readSearchCapacity = (node: Node): number => {
  const acu = readNumber(node, 'searchMaxCapacity', DEFAULTS.searchMaxCapacity);
  return acu <= 256 ? acu : fail('searchMaxCapacity', acu, 'at most 256 (ACU)');
};

const readStage = (node: Node): string => {
  const value: unknown = node.tryGetContext('stage') ?? DEFAULTS.stage;
  // The stage ends up in the stack name, which CloudFormation restricts to these characters.
  if (typeof value !== 'string' || !/^[A-Za-z][A-Za-z0-9-]{0,63}$/.test(value)) {
    return fail('stage', value, 'a name of letters, digits and dashes');
  }
  return value;
};

// Secrets Manager's bounds for a rotation schedule (4 hours to 1000 days), in whole days.
const readRotationDays = (node: Node): number => {
  const days = readNumber(node, 'cursorKeyRotationDays', DEFAULTS.cursorKeyRotationDays);
  return days <= 1000 ? days : fail('cursorKeyRotationDays', days, 'at most 1000 (days)');
};

const readStep = (node: Node): number | undefined => {
  const value: unknown = node.tryGetContext('indexMigrationStep');
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > INDEX_MIGRATION_STEPS)
    return fail('indexMigrationStep', value, `an integer from 0 to ${INDEX_MIGRATION_STEPS}`);
  return n;
};

const TABLE_NAME = /^[a-zA-Z0-9_.-]{3,255}$/;
// arn:<partition>:dynamodb:<region>:<account>:table/<name>/stream/<label>
const STREAM_ARN =
  /^arn:aws[a-z-]*:dynamodb:[a-z0-9-]+:\d{12}:table\/([a-zA-Z0-9_.-]{3,255})\/stream\/[^\s/]+$/;
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

const readName = (node: Node, key: string, pattern: RegExp, expected: string): string | undefined => {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !pattern.test(value)) return fail(key, value, expected);
  return value;
};

const readExistingTable = (node: Node): StackContext['existingTable'] => {
  const name = readName(node, 'existingTableName', TABLE_NAME, 'a DynamoDB table name');
  const streamArn = readName(
    node,
    'existingTableStreamArn',
    STREAM_ARN,
    "a DynamoDB stream ARN ('.../table/<name>/stream/<label>')",
  );
  if (name === undefined && streamArn === undefined) return undefined;
  if (name === undefined)
    throw new Error(
      "Context 'existingTableStreamArn' is given without 'existingTableName': give both, or neither",
    );
  if (streamArn === undefined)
    throw new Error(
      `Context 'existingTableStreamArn' is required with 'existingTableName': the webhook fan-out reads the table's stream. ` +
        `Enable it on ${name} (NEW_AND_OLD_IMAGES) and pass its LatestStreamArn (aws dynamodb describe-table --table-name ${name}).`,
    );
  const streamTable = STREAM_ARN.exec(streamArn)?.[1];
  if (streamTable !== name)
    throw new Error(`Context 'existingTableStreamArn' is a stream of table ${streamTable}, not of ${name}`);
  return { name, streamArn };
};

/** The `tracing` key alone: what each function reads for its own settings (infra/api-function.ts). */
export const readTracing = (node: Node): boolean => readBoolean(node, 'tracing', DEFAULTS.tracing);
const OPERATIONS = new Set<string>(routes.map((r) => r.operationId));
const MEMORY = { min: 128, max: 10_240 } as const;

/**
 * A per-route setting: one number for every route, or an object of numbers keyed by operationId.
 * `-c key=value` gives a string (a number, or JSON for the object); cdk.json gives JSON types.
 */
const readPerRoute = (
  node: Node,
  key: string,
  expected: string,
  valid: (n: number) => boolean,
): { all?: number; byRoute: Record<string, number> } => {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined) return { byRoute: {} };
  let value: unknown = raw;
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (text.startsWith('{')) {
      try {
        value = JSON.parse(text);
      } catch {
        return fail(key, raw, `${expected}, or a JSON object of them by operationId (not valid JSON)`);
      }
    } else value = text === '' ? raw : Number(text);
  }
  const number = (v: unknown): number | undefined =>
    typeof v === 'number' && Number.isInteger(v) && valid(v) ? v : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const all = number(value);
    if (all === undefined) return fail(key, raw, `${expected}, or an object of them by operationId`);
    return { all, byRoute: {} };
  }
  const byRoute: Record<string, number> = {};
  for (const [operationId, v] of Object.entries(value)) {
    if (!OPERATIONS.has(operationId)) {
      throw new Error(
        `Context '${key}' names no route '${operationId}': keys are operationIds of shared/routes.ts, e.g. ticketList`,
      );
    }
    const n = number(v);
    if (n === undefined) return fail(`${key}.${operationId}`, v, expected);
    byRoute[operationId] = n;
  }
  return { byRoute };
};

const readFunctionMemory = (node: Node): StackContext['functionMemory'] => {
  const { all, byRoute } = readPerRoute(
    node,
    'functionMemory',
    `an integer number of MB from ${MEMORY.min} to ${MEMORY.max}`,
    (n) => n >= MEMORY.min && n <= MEMORY.max,
  );
  return Object.fromEntries(
    // DEFAULT_MEMORY_MB is read here, not in DEFAULTS: api-function.ts imports this module, so at
    // this module's top level (app.ts's import order) it is not initialised yet.
    routes.map((r) => [r.operationId, byRoute[r.operationId] ?? all ?? DEFAULT_MEMORY_MB]),
  );
};

const readReservedConcurrency = (node: Node): StackContext['reservedConcurrency'] => {
  const { all, byRoute } = readPerRoute(
    node,
    'reservedConcurrency',
    'an integer of 0 or more',
    (n) => n >= 0,
  );
  return Object.fromEntries(
    routes.flatMap((r) => {
      const n = byRoute[r.operationId] ?? all;
      return n === undefined ? [] : [[r.operationId, n]];
    }),
  );
};

const readEmail = (node: Node): string | undefined => {
  const value: unknown = node.tryGetContext('alarmEmail');
  if (value === undefined) return undefined;
  // A plausible address, not RFC 5322: SNS asks the recipient to confirm it anyway.
  if (typeof value !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value))
    return fail('alarmEmail', value, 'an e-mail address');
  return value;
};

export const readStackContext = (node: Node): StackContext => {
  const policy: unknown = node.tryGetContext('removalPolicy') ?? DEFAULTS.removalPolicy;
  const removalPolicy = typeof policy === 'string' ? REMOVAL_POLICIES[policy] : undefined;
  const logRetentionDays = readNumber(node, 'logRetentionDays', DEFAULTS.logRetentionDays);
  if (!RETENTION_DAYS.has(logRetentionDays)) {
    fail('logRetentionDays', logRetentionDays, `one of ${[...RETENTION_DAYS].join(', ')}`);
  }
  return {
    stage: readStage(node),
    removalPolicy: removalPolicy ?? fail('removalPolicy', policy, "'retain' or 'destroy'"),
    deletionProtection: readBoolean(node, 'deletionProtection', DEFAULTS.deletionProtection),
    logRetention: logRetentionDays as RetentionDays,
    throttle: {
      rateLimit: readNumber(node, 'throttleRate', DEFAULTS.throttleRate),
      burstLimit: readNumber(node, 'throttleBurst', DEFAULTS.throttleBurst),
    },
    indexMigrationStep: readStep(node),
    cursorKeyRotationDays: readRotationDays(node),
    existingTable: readExistingTable(node),
    existingBucketName: readName(node, 'existingBucketName', BUCKET_NAME, 'an S3 bucket name'),
    tracing: readTracing(node),
    functionMemory: readFunctionMemory(node),
    reservedConcurrency: readReservedConcurrency(node),
    alarmEmail: readEmail(node),
    accountConcurrencyLimit: readNumber(node, 'accountConcurrencyLimit', DEFAULTS.accountConcurrencyLimit),
    searchMaxCapacity: readSearchCapacity(node),
  };
};
