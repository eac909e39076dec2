import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  ApplicationLogLevel,
  Architecture,
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
import type { Construct } from 'constructs';
import { RATE_PREFIX } from '../shared/store/keys';
import { FUNCTION_NODE_OPTIONS, type FunctionBundling, functionBundling } from './bundling';
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
  ...asIs
}: FunctionBundling): BundlingOptions => ({
  ...asIs,
  format: format === 'esm' ? OutputFormat.ESM : OutputFormat.CJS,
  mainFields: [...mainFields],
  externalModules: [...externalModules],
  define: { ...define },
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

export interface ApiFunctionProps {
  /** File name under functions/ without `.ts`, as in the route table. */
  readonly handlerFile: string;
  /** Absent for public routes (`auth: 'none'`): no grant on the table and no TABLE_NAME. */
  readonly table?: ITableV2;
  /** `read` gets a read-only grant on the table and its indexes. */
  readonly tableAccess: 'read' | 'write' | 'none';
  /** Bearer routes claim rate-limit leases: read routes then may update `RATE#` items, nothing else. */
  readonly rateLimited: boolean;
  /** The attachments bucket and the route's `blobs` access; absent means no S3 permission at all. */
  readonly blobs?: { readonly bucket: IBucket; readonly access: 'read' | 'write' };
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
 * One handler (an API route's, or the webhook pipeline's) with every house default, and
 * least-privilege access to the table and bucket. Logs: Lambda's JSON log format into the
 * function's own group, application and system lines from INFO (the metrics' EMF lines have no
 * `level`, which Lambda reads as INFO: a higher application level would drop the metrics).
 */
export class ApiFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    // An explicit group: retention and removal are ours, and no LogRetention custom resource.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    // Our own role instead of AWSLambdaBasicExecutionRole, which may create any log group and write
    // to all of them: this one may only write streams of the function's own group.
    const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    const tracing = props.tracing ?? readTracing(scope.node);
    const bundling = bundlingProps(functionBundling({ tracing }));
    super(scope, id, {
      entry: entryOf(props.handlerFile),
      handler: 'handler',
      projectRoot: repoRoot,
      depsLockFilePath: `${repoRoot}package-lock.json`,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      // Memory buys CPU: 1024 MB keeps cold starts of a bundled SDK short at little cost.
      memorySize: 1024,
      // Below API Gateway's 30 s integration limit: no invocation may still be writing after the
      // client was told the request failed.
      timeout: props.timeout ?? Duration.seconds(10),
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      systemLogLevelV2: SystemLogLevel.INFO,
      ...(tracing ? { tracing: Tracing.ACTIVE } : {}),
      environment: {
        NODE_OPTIONS: FUNCTION_NODE_OPTIONS,
        POWERTOOLS_SERVICE_NAME: 'helpdesk',
        LOG_LEVEL: 'INFO',
        ...(props.table ? { TABLE_NAME: props.table.tableName } : {}),
        ...(props.blobs ? { BUCKET_NAME: props.blobs.bucket.bucketName } : {}),
        ...props.environment,
      },
      bundling: props.files?.length ? { ...bundling, commandHooks: copyNextToBundle(props.files) } : bundling,
    });
    if (tracing) {
      // Active tracing adds xray:PutTraceSegments and xray:PutTelemetryRecords on `*` to the role.
      const policy = this.role?.node.tryFindChild('DefaultPolicy');
      if (policy) {
        Validations.of(policy).acknowledge({
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason:
            'X-Ray trace segments and telemetry cannot be scoped to a resource; only with -c tracing=true, for the Lambda active tracing the stack was asked for.',
        });
      }
    }
    // Without a table (public routes) there is no grant at all, and no rate-limit leases.
    if (props.table && props.tableAccess !== 'none')
      this.grantTable(props.table, props.tableAccess, props.rateLimited);
    // `read` presigns downloads and reads photos. `write` also puts, copies out of staging, deletes
    // and presigns uploads (a presigned PUT acts with the signer's permissions, so it needs
    // PutObject). grantReadWrite already includes grantDelete's s3:DeleteObject*.
    if (props.blobs?.access === 'read') props.blobs.bucket.grantRead(this);
    else if (props.blobs?.access === 'write') props.blobs.bucket.grantReadWrite(this);
  }

  private grantTable(table: ITableV2, access: 'read' | 'write', rateLimited: boolean): void {
    if (access === 'write') {
      table.grantReadWriteData(this);
      return;
    }
    table.grantReadData(this);
    if (rateLimited) {
      this.addToRolePolicy(
        new PolicyStatement({
          actions: ['dynamodb:UpdateItem'],
          resources: [table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${RATE_PREFIX}*`] } },
        }),
      );
    }
  }
}
