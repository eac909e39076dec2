import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { INDEX_MIGRATION_STEPS } from '../shared/store/table-schema';

/** Everything a deployment may vary, read from CDK context (cdk.json or `-c key=value`). */
export interface StackContext {
  readonly stage: string;
  readonly removalPolicy: RemovalPolicy;
  readonly deletionProtection: boolean;
  readonly logRetention: RetentionDays;
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  /**
   * `-c indexMigrationStep=<0..18>` while a table created before issue 12 moves to the current
   * indexes, one index per deployment (table-schema.ts `indexesAtStep`; docs/performance.md);
   * undefined: the current indexes.
   */
  readonly indexMigrationStep?: number;
  /** `-c alarmEmail=ops@example.com`: subscribes the address to the alarm topic; absent: no subscription. */
  readonly alarmEmail?: string;
  /**
   * The account's Lambda concurrency quota in this region (`-c accountConcurrencyLimit=N`, default 1000):
   * the account-concurrency alarm fires at 80 % of it (infra/monitoring.ts).
   */
  readonly accountConcurrencyLimit: number;
}

// Defaults keep data safe when a context key is missing: retain, protect, keep logs a month.
const DEFAULTS = {
  stage: 'dev',
  removalPolicy: 'retain',
  deletionProtection: true,
  logRetentionDays: 30,
  throttleRate: 50,
  throttleBurst: 100,
  // Lambda's default concurrency quota per account and region.
  accountConcurrencyLimit: 1000,
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

const readStage = (node: Node): string => {
  const value: unknown = node.tryGetContext('stage') ?? DEFAULTS.stage;
  // The stage ends up in the stack name, which CloudFormation restricts to these characters.
  if (typeof value !== 'string' || !/^[A-Za-z][A-Za-z0-9-]{0,63}$/.test(value)) {
    return fail('stage', value, 'a name of letters, digits and dashes');
  }
  return value;
};

const readStep = (node: Node): number | undefined => {
  const value: unknown = node.tryGetContext('indexMigrationStep');
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > INDEX_MIGRATION_STEPS)
    return fail('indexMigrationStep', value, `an integer from 0 to ${INDEX_MIGRATION_STEPS}`);
  return n;
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
    alarmEmail: readEmail(node),
    accountConcurrencyLimit: readNumber(node, 'accountConcurrencyLimit', DEFAULTS.accountConcurrencyLimit),
  };
};
