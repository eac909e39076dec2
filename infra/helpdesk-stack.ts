import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  AttributeType,
  Billing,
  type ITableV2,
  ProjectionType,
  StreamViewType,
  type TablePropsV2,
  TableV2,
} from 'aws-cdk-lib/aws-dynamodb';
import { CfnPermission } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { type ISecret, Secret, type SecretProps } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { claimsRateLeases, dynamoActions, type Route, routes } from '../shared/routes';
import { INDEX_MIGRATION_STEPS, indexesAtStep } from '../shared/store/migrations/legacy';
import { projectionOf, TABLE_KEY, TTL_ATTRIBUTE } from '../shared/store/table-schema';
import { handlerOf } from '../shared/workers';
import { ApiFunction } from './api-function';
import { AttachmentsBucket } from './attachments-bucket';
import { CascadeWorker } from './cascade-worker';
import { ImportPipeline } from './import-pipeline';
import { HelpdeskMonitoring } from './monitoring';
import type { RegionalStack } from './regions';
import { SearchIndex } from './search';
import type { StackContext } from './stack-context';
import { WebhookPipeline } from './webhook-pipeline';

export interface HelpdeskStackProps extends StackProps {
  readonly settings: StackContext;
  /**
   * Several regions (infra/regions.ts, docs/regions.md): this stack's region among them. Absent:
   * the one region-agnostic stack, exactly as without regions.
   */
  readonly regional?: RegionalStack;
}

const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
// Only routes that hand out page cursors may read the signing key.
export const signsCursors = (r: Route): boolean => r.cursors === true;

// One JSON line per request. No headers and no query string: they carry tokens, e-mails and cursors.
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    userAgent: '$context.identity.userAgent',
    requestTime: '$context.requestTimeEpoch',
    routeKey: '$context.routeKey',
    path: '$context.path',
    status: '$context.status',
    responseLength: '$context.responseLength',
    responseLatency: '$context.responseLatency',
    integrationLatency: '$context.integrationLatency',
    integrationStatus: '$context.integrationStatus',
    integrationError: '$context.integrationErrorMessage',
  }),
);

/**
 * A table the stack does not own (context existingTableName, e.g. a point-in-time restore): the
 * functions are granted on it and on all its indexes, and the fan-out reads the given stream. Its
 * ARN is the stream's without `/stream/<label>`, so both name one table in one account and region.
 * Stream, TTL, point-in-time recovery and deletion protection are the operator's to enable on it.
 */
const adoptTable = (scope: Construct, existing: NonNullable<StackContext['existingTable']>): ITableV2 =>
  TableV2.fromTableAttributes(scope, 'Table', {
    tableArn: existing.streamArn.slice(0, existing.streamArn.indexOf('/stream/')),
    tableStreamArn: existing.streamArn,
    grantIndexPermissions: true,
  });

/**
 * The whole help-desk: one table, one cursor-signing secret, one attachments bucket, one HTTP API
 * with a function per route, the webhook delivery pipeline and the import pipeline. With several
 * regions, one region's stack (`regional`, infra/regions.ts). The public fields are what
 * infra/nag-suppressions.ts acknowledges on.
 */
export class HelpdeskStack extends Stack {
  /**
   * Created here, adopted (context existingTableName: adoptTable below), or (several regions, not
   * the primary) this region's replica of the primary's.
   */
  readonly table: ITableV2;
  /** Created here, or (several regions, not the primary) this region's replica of the primary's. */
  readonly cursorSecret: ISecret;
  /** Several regions: this stack's part (infra/regions.ts). */
  readonly regional?: RegionalStack;
  /** The rotation function: this stack's, unless it is a non-primary region's (see cursorKeyRotation). */
  readonly #cursorKeyRotation: ApiFunction | undefined;
  readonly attachments: AttachmentsBucket;
  /** By operationId. */
  readonly functions = new Map<string, ApiFunction>();
  /** By operationId. */
  readonly routes = new Map<string, HttpRoute>();
  /** `$default`: what no route matches, answered by the fallback route's function (shared/http/no-route.ts). */
  fallbackRoute?: HttpRoute;
  /** The stream fan-out, the delivery queue and function, and their alarms. */
  readonly webhooks: WebhookPipeline;
  /** The durable cascade of removals (infra/cascade-worker.ts). */
  readonly cascades: CascadeWorker;
  /** The search index: its cluster, schema migration and indexer (infra/search.ts). */
  readonly search: SearchIndex;
  /** Import jobs: their queue, worker and alarms (infra/import-pipeline.ts). */
  readonly imports: ImportPipeline;
  /** Alarms on all of the above, their topic and the dashboard (a nested stack). */
  readonly monitoring: HelpdeskMonitoring;

  /**
   * Whether this stack rotates the cursor secret: always without several regions; with them only
   * the primary's stack, whose secret Secrets Manager replicates (each new version, with its
   * staging labels) to the regions whose stacks reference it.
   */
  get rotatesCursorKey(): boolean {
    return this.#cursorKeyRotation !== undefined;
  }

  /**
   * Rotates the cursor secret on its schedule (functions/cursor-key-rotation.ts). Several regions:
   * only on the primary's stack (rotatesCursorKey); asking a non-primary region's stack throws.
   */
  get cursorKeyRotation(): ApiFunction {
    if (!this.#cursorKeyRotation)
      throw new Error(
        `${this.stackName} does not rotate the cursor secret: the primary region's stack (${this.regional?.primaryRegion}) does, on the secret it replicates here`,
      );
    return this.#cursorKeyRotation;
  }

  constructor(scope: Construct, id: string, props: HelpdeskStackProps) {
    super(scope, id, props);
    const { settings, regional } = props;
    this.regional = regional;
    const removalPolicy = settings.removalPolicy;

    // TableV2 (AWS::DynamoDB::GlobalTable): the table is heading for replicas in several regions,
    // which TableV2 adds in place; moving a classic Table there later means a delete-and-import.
    const str = (name: string) => ({ name, type: AttributeType.STRING });
    const tableProps: TablePropsV2 = {
      partitionKey: str(TABLE_KEY.partition),
      sortKey: str(TABLE_KEY.sort),
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: settings.deletionProtection,
      removalPolicy,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES,
      // One index added or deleted per deployment while an older table migrates (indexMigrationStep).
      globalSecondaryIndexes: indexesAtStep(settings.indexMigrationStep ?? INDEX_MIGRATION_STEPS).map(
        (index) => {
          const projection = projectionOf(index);
          return {
            indexName: index.name,
            partitionKey: str(index.partition),
            sortKey: str(index.sort),
            projectionType: ProjectionType[projection.ProjectionType],
            ...('NonKeyAttributes' in projection ? { nonKeyAttributes: projection.NonKeyAttributes } : {}),
          };
        },
      ),
    };
    // Several regions create the global table under a fixed name: adopting one is refused there
    // (readRegionsContext names the key; this is for a stack built without it).
    if (regional && (settings.existingTable || settings.existingBucketName))
      throw new Error(
        "Context 'existingTableName' / 'existingBucketName' (adopting an existing table or bucket) cannot be combined with 'regions'. Not supported.",
      );
    const table = settings.existingTable
      ? adoptTable(this, settings.existingTable)
      : regional
        ? regional.table(this, tableProps, { logRetention: settings.logRetention, removalPolicy })
        : new TableV2(this, 'Table', tableProps);
    this.table = table;

    const secretProps: SecretProps = {
      description: 'HMAC key that signs list page cursors',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy,
    };
    const cursorSecret = regional
      ? regional.cursorSecret(this, secretProps)
      : new Secret(this, 'CursorSecret', secretProps);
    this.cursorSecret = cursorSecret;
    // Rotation keeps the key before the new one (AWSPREVIOUS): cursors in flight still verify.
    // Several regions: the primary's secret alone rotates; the replicas follow it.
    if (!regional || regional.isPrimary) {
      const rotation = new ApiFunction(this, 'CursorKeyRotationFunction', {
        handlerFile: handlerOf('cursorKeyRotation'),
        tableAccess: 'none',
        rateLimited: false,
        logRetention: settings.logRetention,
        removalPolicy,
      });
      cursorSecret.addRotationSchedule('Rotation', {
        rotationLambda: rotation,
        automaticallyAfter: Duration.days(settings.cursorKeyRotationDays),
        // Rotating while a deployment replaces the functions would let a function of the previous
        // release read the new JSON value as its key. The first rotation comes on schedule, or
        // earlier by `aws secretsmanager rotate-secret` once the deployment is done.
        rotateImmediatelyOnUpdate: false,
      });
      // CDK's invoke grant names the service alone: only this account's Secrets Manager may call it.
      for (const child of rotation.node.children)
        if (child instanceof CfnPermission) child.sourceAccount = this.account;
      this.#cursorKeyRotation = rotation;
    } else this.#cursorKeyRotation = undefined;

    this.attachments = new AttachmentsBucket(this, 'Attachments', {
      removalPolicy,
      accessLogDays: settings.logRetention,
      existingBucketName: settings.existingBucketName,
    });
    const { bucket } = this.attachments;
    // Several regions: the other regions' buckets, which blob routes reach for tenants homed there.
    const otherBuckets = regional?.attachments(this, bucket);

    const api = new HttpApi(this, 'Api', {
      apiName: this.stackName,
      // The default stage is added below: HttpApi's own one takes no throttle settings.
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      retention: settings.logRetention,
      removalPolicy,
    });
    const stage = api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: settings.throttle,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: ACCESS_LOG_FORMAT },
    });

    // Which indexes exist while the table migrates (shared/store/migrations/legacy.ts).
    const migrationEnv: Record<string, string> =
      settings.indexMigrationStep === undefined
        ? {}
        : { INDEX_MIGRATION_STEP: String(settings.indexMigrationStep) };
    // Several regions: every function is told them (and the custom domain's URL, if any).
    const commonEnv = { ...migrationEnv, ...regional?.environment() };

    // The region's search index: its cluster, schema and indexer (infra/search.ts).
    this.search = new SearchIndex(this, 'Search', {
      table,
      replicaTableArns: regional?.replicaTableArns(this),
      logRetention: settings.logRetention,
      removalPolicy,
      deletionProtection: settings.deletionProtection,
      maxCapacity: settings.searchMaxCapacity,
      environment: commonEnv,
    });

    // Import jobs' queue and worker: before the routes, which queue their steps (`queue: 'import'`).
    this.imports = new ImportPipeline(this, 'Imports', {
      table,
      bucket,
      ...(otherBuckets ? { otherBuckets } : {}),
      logRetention: settings.logRetention,
      removalPolicy,
      environment: { ...commonEnv, ...regional?.bucketsEnvironment(this) },
    });

    // API Gateway picks the most specific route, so `GET /ticket/list` wins over `GET /ticket/{id}`.
    for (const route of routes) {
      const name = pascal(route.operationId);
      const fn = new ApiFunction(this, `${name}Function`, {
        handlerFile: route.handler,
        // Public routes (the docs) get no table at all.
        ...(route.access === 'none' ? {} : { table }),
        // A tenant's writes (and reads asked of its home) reach its home region's replica.
        replicaTableArns: regional?.replicaTableArns(this),
        tableAccess: route.access,
        dynamo: dynamoActions(route),
        rateLimited: claimsRateLeases(route),
        blobs: route.blobs && { bucket, access: route.blobs, otherBuckets },
        memorySize: settings.functionMemory[route.operationId],
        reservedConcurrentExecutions: settings.reservedConcurrency[route.operationId],
        logRetention: settings.logRetention,
        removalPolicy,
        environment: {
          ...(signsCursors(route) ? { CURSOR_SECRET_ARN: cursorSecret.secretArn } : {}),
          ...commonEnv,
          ...(route.blobs ? regional?.bucketsEnvironment(this) : {}),
          ...(route.search ? this.search.environment() : {}),
          ...(route.queue === 'import' ? this.imports.environment() : {}),
        },
        ...(route.files ? { files: route.files } : {}),
      });
      if (signsCursors(route)) cursorSecret.grantRead(fn.inlineGrantee);
      if (route.queue === 'import') this.imports.grantSend(fn);
      if (route.search) {
        this.search.grantStatements(fn);
        // Deployed once the schema it reads is.
        fn.node.addDependency(this.search.migrations);
      }
      const httpRoute = new HttpRoute(this, `${name}Route`, {
        httpApi: api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${name}Integration`, fn),
      });
      this.functions.set(route.operationId, fn);
      this.routes.set(route.operationId, httpRoute);
      // What no route matches goes to this route's function too (shared/http/no-route.ts).
      if (route.fallback)
        this.fallbackRoute = new HttpRoute(this, 'FallbackRoute', {
          httpApi: api,
          routeKey: HttpRouteKey.DEFAULT,
          integration: new HttpLambdaIntegration('FallbackIntegration', fn),
        });
    }

    regional?.addDomain(this, api, stage);

    this.webhooks = new WebhookPipeline(this, 'Webhooks', {
      table,
      cursorSecret,
      publicBaseUrl: regional?.publicBaseUrl ?? stage.url,
      logRetention: settings.logRetention,
      removalPolicy,
      environment: commonEnv,
      // Several regions: each region's fan-out takes the events written in it (its tenants' home).
      ...(regional ? { eventRegion: regional.region } : {}),
    });

    this.cascades = new CascadeWorker(this, 'Cascades', {
      table,
      bucket,
      ...(otherBuckets ? { otherBuckets } : {}),
      logRetention: settings.logRetention,
      removalPolicy,
      environment: { ...commonEnv, ...regional?.bucketsEnvironment(this) },
      // Several regions: each region runs the cascades written in it (its tenants' home).
      ...(regional ? { region: regional.region } : {}),
    });

    // Last: it watches everything above.
    this.monitoring = new HelpdeskMonitoring(this, 'Monitoring', {
      api,
      stage,
      functions: this.functions,
      webhooks: this.webhooks,
      cascades: this.cascades,
      imports: this.imports,
      search: this.search,
      table,
      ...(regional ? { replicatesTo: regional.regions.filter((r) => r !== regional.region) } : {}),
      alarmEmail: settings.alarmEmail,
      accountConcurrencyLimit: settings.accountConcurrencyLimit,
      removalPolicy,
    });

    new CfnOutput(this, 'ApiUrl', { value: stage.url });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'BucketName', { value: bucket.bucketName });
    new CfnOutput(this, 'WebhookQueueUrl', { value: this.webhooks.queue.queueUrl });
    new CfnOutput(this, 'ImportQueueUrl', { value: this.imports.queue.queueUrl });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn });
    // For `aws secretsmanager rotate-secret` (docs/operations.md). Several regions: outside the
    // primary's stack, the reference to this region's replica (which cannot be rotated).
    new CfnOutput(this, 'CursorSecretArn', { value: cursorSecret.secretArn });
  }
}
