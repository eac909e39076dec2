import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import {
  type AddToPrincipalPolicyResult,
  type IGrantable,
  type IPrincipal,
  PolicyDocument,
  PolicyStatement,
  type PrincipalPolicyFragment,
  Role,
  ServicePrincipal,
} from 'aws-cdk-lib/aws-iam';
import {
  ApplicationLogLevel,
  Architecture,
  type CfnFunction,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import {
  type BundlingOptions,
  type ICommandHooks,
  LogLevel,
  NodejsFunction,
  OutputFormat,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct, IConstruct } from 'constructs';
import {
  BLOB_AREAS,
  type BlobAccess,
  type BlobArea,
  type DynamoAction,
  type ObjectAction,
} from '../shared/routes';
import { RATE_PREFIX } from '../shared/store/keys';
import { type FunctionBundling, functionBundling } from './bundling';
import { readTracing } from './stack-context';

// Resolved from this file, not the cwd, so synth and tests work from any directory.
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const entryOf = (handlerFile: string): string =>
  fileURLToPath(new URL(`../functions/${handlerFile}.ts`, import.meta.url));

/** NodejsFunction's `bundling` props, from the settings the benchmark bundles with too. */
const bundlingProps = ({
  format,
  mainFields,
  externalModules,
  define,
  alias,
  ...asIs
}: FunctionBundling): BundlingOptions => ({
  ...asIs,
  format: format === 'esm' ? OutputFormat.ESM : OutputFormat.CJS,
  mainFields: [...mainFields],
  externalModules: [...externalModules],
  define: { ...define },
  // NodejsFunction has no `alias` prop: esbuild's own flag.
  esbuildArgs: Object.fromEntries(Object.entries(alias).map(([from, to]) => [`--alias:${from}`, to])),
  // esbuild's own summary (file sizes, timing) per function is noise in synth and tests; warnings stay.
  logLevel: LogLevel.WARNING,
});

/**
 * Copies files of the repository next to the bundle (`index.mjs`), where the handler reads them
 * (shared/http/static-file.ts). Runs after esbuild, in the bundling environment (the local shell,
 * or the container when bundling falls back to Docker), with paths that environment sees.
 */
export const copyNextToBundle = (files: readonly string[]): ICommandHooks => ({
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (inputDir, outputDir) =>
    files.map((file) => `cp "${inputDir}/${file}" "${outputDir}/${basename(file)}"`),
});

/**
 * Memory of a function unless the stack context says otherwise (`functionMemory`). Memory buys
 * CPU: 1024 MB keeps cold starts of a bundled SDK short at little cost (docs/performance.md).
 */
export const DEFAULT_MEMORY_MB = 1024;

/**
 * The DynamoDB actions of a function outside the route table (the webhook pipeline's), by its
 * coarse access: reads by key, batches and queries of the table and its indexes; `write` adds the
 * item writes a transaction is made of. Neither has Scan, BatchWriteItem, PartiQL, DescribeTable
 * or a stream action (the fan-out reads the stream through its event source mapping).
 */
export const COARSE_DYNAMO: Record<'read' | 'write', readonly DynamoAction[]> = {
  read: ['GetItem', 'BatchGetItem', 'Query', 'index:Query'],
  write: [
    'GetItem',
    'BatchGetItem',
    'Query',
    'index:Query',
    'PutItem',
    'UpdateItem',
    'DeleteItem',
    'ConditionCheckItem',
  ],
};

export interface ApiFunctionProps {
  /** File name under functions/ without `.ts`, as in the route table. */
  readonly handlerFile: string;
  /** Absent for public routes (`auth: 'none'`): no grant on the table and no TABLE_NAME. */
  readonly table?: ITableV2;
  /**
   * Several regions (infra/regions.ts): the table's replicas in the other regions, granted the
   * same actions as the table (a tenant's writes go to its home region's replica). Rate-limit
   * leases stay on the table: each region counts its own windows.
   */
  readonly replicaTableArns?: readonly string[];
  /** `none`: no grant on the table. Otherwise the grant is `dynamo`, or without it COARSE_DYNAMO of this. */
  readonly tableAccess: 'read' | 'write' | 'none';
  /**
   * Exactly the DynamoDB actions granted (a route's `dynamoActions`, shared/routes.ts): table
   * actions on the table, `index:` ones on its indexes only.
   */
  readonly dynamo?: readonly DynamoAction[];
  /** Authenticated routes claim rate-limit leases: an UpdateItem of `RATE#` items, unless UpdateItem is granted anyway. */
  readonly rateLimited: boolean;
  /**
   * The attachments bucket and the route's `blobs` access; absent means no S3 permission at all.
   * Several regions: `otherBuckets`, the other regions' buckets, are granted alike (a tenant's
   * files are in its home region's bucket).
   */
  readonly blobs?: {
    readonly bucket: IBucket;
    readonly access: BlobAccess;
    readonly otherBuckets?: readonly IBucket[];
  };
  /** MB; DEFAULT_MEMORY_MB unless given (the stack context's `functionMemory`). */
  readonly memorySize?: number;
  /** Reserved concurrency (the stack context's `reservedConcurrency`); none unless given. */
  readonly reservedConcurrentExecutions?: number;
  readonly logRetention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
  readonly environment?: Record<string, string>;
  /** Files of the repository (paths from its root) shipped next to the bundle, as the route's `files`. */
  readonly files?: readonly string[];
  /** Absent for API handlers (10 s, below); functions outside the API (the webhook pipeline) set theirs. */
  readonly timeout?: Duration;
  /**
   * Lambda active tracing (X-Ray) with Powertools Tracer bundled in; absent: the `tracing`
   * context key (`-c tracing=true`, infra/stack-context.ts), off by default.
   */
  readonly tracing?: boolean;
}

/**
 * A role as a grantee whose grants land in `document`, the role's inline policy, instead of its
 * `DefaultPolicy` (a separate AWS::IAM::Policy resource per role): CDK's grant methods
 * (`logGroup.grantWrite`, `secret.grantRead`, a key's `grantDecrypt`) given this write the very
 * statements they would write for the role, into the role itself. A stack holds at most 500
 * resources, and each function's policy resource was one of them.
 *
 * The role now refers to what it is granted on. A resource whose own policy names the role, and
 * that the role's grants refer to, would make a dependency cycle CloudFormation refuses: e.g. a
 * KMS key (its key policy is part of the key) encrypting a secret granted here names the role
 * in that policy. No such key exists today; grant through the function itself in that case.
 */
class InlineGrantee implements IPrincipal {
  readonly grantPrincipal: IPrincipal = this;

  constructor(
    private readonly role: Role,
    private readonly document: PolicyDocument,
  ) {}

  get assumeRoleAction(): string {
    return this.role.assumeRoleAction;
  }

  get policyFragment(): PrincipalPolicyFragment {
    return this.role.policyFragment;
  }

  get principalAccount(): string | undefined {
    return this.role.principalAccount;
  }

  addToPrincipalPolicy(statement: PolicyStatement): AddToPrincipalPolicyResult {
    this.document.addStatements(statement);
    // The policy is part of the role: whatever must wait for the grant waits for the role.
    return { statementAdded: true, policyDependable: this.role };
  }
}

/**
 * One handler (an API route's, or the webhook pipeline's) with every house default, and
 * least-privilege access to the table and bucket. Logs: Lambda's JSON log format into the
 * function's own group, application and system lines from INFO (the metrics' EMF lines have no
 * `level`, which Lambda reads as INFO: a higher application level would drop the metrics).
 */
export class ApiFunction extends NodejsFunction {
  /**
   * The function's role as a grantee whose grants land in the role's inline policy (`grants`):
   * grant to this, not to the function, so that no AWS::IAM::Policy resource is added for them.
   * What CDK grants on its own (event sources, X-Ray, a secret's rotation) still goes to the
   * role's `DefaultPolicy`.
   */
  readonly inlineGrantee: IGrantable;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    // An explicit group: retention and removal are ours, and no LogRetention custom resource.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    // Our own role instead of AWSLambdaBasicExecutionRole, which may create any log group and write
    // to all of them: this one may only write streams of the function's own group.
    // Its grants are an inline policy of the role, not a policy resource of their own (InlineGrantee).
    // The document is resolved at synthesis: statements added after this still land in it. It is
    // never empty: the log group's grant is always there.
    const grants = new PolicyDocument();
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      inlinePolicies: { grants },
    });
    const inlineGrantee = new InlineGrantee(role, grants);
    logGroup.grantWrite(inlineGrantee);
    const tracing = props.tracing ?? readTracing(scope.node);
    const bundling = bundlingProps(functionBundling({ tracing }));
    super(scope, id, {
      entry: entryOf(props.handlerFile),
      handler: 'handler',
      projectRoot: repoRoot,
      depsLockFilePath: `${repoRoot}package-lock.json`,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? DEFAULT_MEMORY_MB,
      ...(props.reservedConcurrentExecutions === undefined
        ? {}
        : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
      // Below API Gateway's 30 s integration limit: no invocation may still be writing after the
      // client was told the request failed.
      timeout: props.timeout ?? Duration.seconds(10),
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      systemLogLevelV2: SystemLogLevel.INFO,
      // Active tracing is set below: CDK's `tracing` prop puts its grant in a policy resource.
      environment: {
        POWERTOOLS_SERVICE_NAME: 'helpdesk',
        LOG_LEVEL: 'INFO',
        ...(props.table ? { TABLE_NAME: props.table.tableName } : {}),
        ...(props.blobs ? { BUCKET_NAME: props.blobs.bucket.bucketName } : {}),
        ...props.environment,
      },
      bundling: props.files?.length ? { ...bundling, commandHooks: copyNextToBundle(props.files) } : bundling,
    });
    this.inlineGrantee = inlineGrantee;
    if (tracing) {
      // Lambda active tracing, with the grant it needs (xray:PutTraceSegments and
      // xray:PutTelemetryRecords on `*`, what CDK's `tracing: Tracing.ACTIVE` grants) in the role's
      // inline policy: CDK's would add a DefaultPolicy resource to every function, ~70 resources
      // the stack has no room for under CloudFormation's 500.
      (this.node.defaultChild as CfnFunction).tracingConfig = { mode: Tracing.ACTIVE };
      this.addToInlinePolicy(
        new PolicyStatement({
          actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
          resources: ['*'],
        }),
      );
      Validations.of(role.node.defaultChild as IConstruct).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'X-Ray trace segments and telemetry cannot be scoped to a resource; only with -c tracing=true, for the Lambda active tracing the stack was asked for.',
      });
    }
    // Without a table (public routes) there is no grant at all, and no rate-limit leases.
    if (props.table && props.tableAccess !== 'none') {
      grantDynamo(
        this.inlineGrantee,
        props.table,
        props.replicaTableArns ?? [],
        props.dynamo ?? COARSE_DYNAMO[props.tableAccess],
        props.rateLimited,
      );
    }
    if (props.blobs)
      grantBlobs(
        this.inlineGrantee,
        [props.blobs.bucket, ...(props.blobs.otherBuckets ?? [])],
        props.blobs.access,
      );
  }

  /** A statement for the role's inline policy: what `addToRolePolicy` does, without a policy resource. */
  addToInlinePolicy(statement: PolicyStatement): void {
    this.inlineGrantee.grantPrincipal.addToPrincipalPolicy(statement);
  }
}

const sorted = (actions: Iterable<string>): string[] => [...new Set(actions)].sort();

/**
 * Exactly `actions` on the table and its replicas (and `index:` ones on their `index/*`), instead of CDK's grantReadData
 * and grantReadWriteData, which add Scan, BatchWriteItem, DescribeTable, PartiQL and the stream's
 * GetRecords and GetShardIterator. TransactWriteItems needs no action of its own: each of its items
 * is authorised as PutItem, UpdateItem, DeleteItem or ConditionCheckItem.
 */
const grantDynamo = (
  grantee: IGrantable,
  table: ITableV2,
  replicaArns: readonly string[],
  actions: readonly DynamoAction[],
  rateLimited: boolean,
): void => {
  const add = (statement: PolicyStatement) => grantee.grantPrincipal.addToPrincipalPolicy(statement);
  const tables = [table.tableArn, ...replicaArns];
  const onTable = sorted(actions.filter((a) => !a.startsWith('index:')).map((a) => `dynamodb:${a}`));
  const onIndexes = sorted(
    actions.filter((a) => a.startsWith('index:')).map((a) => `dynamodb:${a.slice(6)}`),
  );
  if (onTable.length > 0) add(new PolicyStatement({ actions: onTable, resources: tables }));
  if (onIndexes.length > 0) {
    add(new PolicyStatement({ actions: onIndexes, resources: tables.map((arn) => `${arn}/index/*`) }));
  }
  // Rate-limit leases: UpdateItem of RATE# items only (a function granted UpdateItem anyway needs no more).
  if (rateLimited && !onTable.includes('dynamodb:UpdateItem')) {
    add(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${RATE_PREFIX}*`] } },
      }),
    );
  }
  // A customer-managed key (none today: AWS-owned encryption) needs its own grant, as CDK's grants give.
  if (table.encryptionKey) {
    table.encryptionKey.grantDecrypt(grantee);
    if (rateLimited || actions.some((a) => /^(Put|Update|Delete|BatchWrite)Item$/.test(a))) {
      table.encryptionKey.grantEncrypt(grantee);
    }
  }
};

/**
 * The object actions of each area on that area's objects only (BLOB_AREAS), and s3:ListBucket on
 * the bucket where a missing object must answer 404, in each of `buckets` (one but with several
 * regions). A presigned address acts with these same permissions when a client uses it.
 */
const grantBlobs = (grantee: IGrantable, buckets: readonly IBucket[], access: BlobAccess): void => {
  const add = (statement: PolicyStatement) => grantee.grantPrincipal.addToPrincipalPolicy(statement);
  const byAction = new Map<ObjectAction, BlobArea[]>();
  for (const [area, actions] of Object.entries(access) as [
    BlobArea | 'listBucket' | 'listVersions',
    readonly ObjectAction[] | true,
  ][]) {
    if (area === 'listBucket' || area === 'listVersions') continue;
    for (const action of actions as readonly ObjectAction[])
      byAction.set(action, [...(byAction.get(action) ?? []), area]);
  }
  // One statement per set of areas, listing the actions allowed on all of them.
  const byAreas = new Map<string, { areas: BlobArea[]; actions: string[] }>();
  for (const [action, areas] of byAction) {
    const key = sorted(areas).join(',');
    const entry = byAreas.get(key) ?? { areas: sorted(areas) as BlobArea[], actions: [] };
    entry.actions.push(`s3:${action}`);
    byAreas.set(key, entry);
  }
  for (const { areas, actions } of byAreas.values()) {
    add(
      new PolicyStatement({
        actions: sorted(actions),
        resources: buckets.flatMap((bucket) => areas.map((area) => bucket.arnForObjects(BLOB_AREAS[area]))),
      }),
    );
  }
  if (access.listBucket) {
    add(new PolicyStatement({ actions: ['s3:ListBucket'], resources: buckets.map((b) => b.bucketArn) }));
  }
  if (access.listVersions) {
    add(
      new PolicyStatement({ actions: ['s3:ListBucketVersions'], resources: buckets.map((b) => b.bucketArn) }),
    );
  }
  for (const bucket of buckets) {
    if (!bucket.encryptionKey) continue;
    if (byAction.has('GetObject')) bucket.encryptionKey.grantDecrypt(grantee);
    if (byAction.has('PutObject')) bucket.encryptionKey.grantEncrypt(grantee);
  }
};
