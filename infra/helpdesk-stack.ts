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
  TableV2,
} from 'aws-cdk-lib/aws-dynamodb';
import { CfnPermission } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { claimsRateLeases, dynamoActions, type Route, routes } from '../shared/routes';
import {
  INDEX_MIGRATION_STEPS,
  indexesAtStep,
  projectionOf,
  TABLE_KEY,
  TTL_ATTRIBUTE,
} from '../shared/store/table-schema';
import { workers } from '../shared/workers';
import { ApiFunction } from './api-function';
import { AttachmentsBucket } from './attachments-bucket';
import { HelpdeskMonitoring } from './monitoring';
import type { StackContext } from './stack-context';
import { WebhookPipeline } from './webhook-pipeline';

export interface HelpdeskStackProps extends StackProps {
  readonly settings: StackContext;
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

const workerHandler = (name: string): string => {
  const worker = workers.find((w) => w.name === name);
  if (!worker) throw new Error(`no worker ${name} in shared/workers.ts`);
  return worker.handler;
};

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
 * with a function per route, and the webhook delivery pipeline. The public fields are what
 * infra/nag-suppressions.ts acknowledges on.
 */
export class HelpdeskStack extends Stack {
  /** Created here, or adopted (context existingTableName: adoptTable below). */
  readonly table: ITableV2;
  readonly cursorSecret: Secret;
  /** Rotates the cursor secret on its schedule (functions/cursor-key-rotation.ts). */
  readonly cursorKeyRotation: ApiFunction;
  readonly attachments: AttachmentsBucket;
  /** By operationId. */
  readonly functions = new Map<string, ApiFunction>();
  /** By operationId. */
  readonly routes = new Map<string, HttpRoute>();
  /** The stream fan-out, the delivery queue and function, and their alarms. */
  readonly webhooks: WebhookPipeline;
  /** Alarms on all of the above, their topic and the dashboard (a nested stack). */
  readonly monitoring: HelpdeskMonitoring;

  constructor(scope: Construct, id: string, props: HelpdeskStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const removalPolicy = settings.removalPolicy;

    // TableV2 (AWS::DynamoDB::GlobalTable): the table is heading for replicas in several regions,
    // which TableV2 adds in place; moving a classic Table there later means a delete-and-import.
    const str = (name: string) => ({ name, type: AttributeType.STRING });
    const table = settings.existingTable
      ? adoptTable(this, settings.existingTable)
      : new TableV2(this, 'Table', {
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
                ...('NonKeyAttributes' in projection
                  ? { nonKeyAttributes: projection.NonKeyAttributes }
                  : {}),
              };
            },
          ),
        });
    this.table = table;

    const cursorSecret = new Secret(this, 'CursorSecret', {
      description: 'HMAC key that signs list page cursors',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy,
    });
    this.cursorSecret = cursorSecret;
    // Rotation keeps the key before the new one (AWSPREVIOUS): cursors in flight still verify.
    this.cursorKeyRotation = new ApiFunction(this, 'CursorKeyRotationFunction', {
      handlerFile: workerHandler('cursorKeyRotation'),
      tableAccess: 'none',
      rateLimited: false,
      logRetention: settings.logRetention,
      removalPolicy,
    });
    cursorSecret.addRotationSchedule('Rotation', {
      rotationLambda: this.cursorKeyRotation,
      automaticallyAfter: Duration.days(settings.cursorKeyRotationDays),
      // Rotating while a deployment replaces the functions would let a function of the previous
      // release read the new JSON value as its key. The first rotation comes on schedule, or
      // earlier by `aws secretsmanager rotate-secret` once the deployment is done.
      rotateImmediatelyOnUpdate: false,
    });
    // CDK's invoke grant names the service alone: only this account's Secrets Manager may call it.
    for (const child of this.cursorKeyRotation.node.children)
      if (child instanceof CfnPermission) child.sourceAccount = this.account;

    this.attachments = new AttachmentsBucket(this, 'Attachments', {
      removalPolicy,
      accessLogDays: settings.logRetention,
      existingBucketName: settings.existingBucketName,
    });
    const { bucket } = this.attachments;

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

    // Which indexes exist while the table migrates (shared/store/indexes.ts).
    const migrationEnv: Record<string, string> =
      settings.indexMigrationStep === undefined
        ? {}
        : { INDEX_MIGRATION_STEP: String(settings.indexMigrationStep) };

    // API Gateway picks the most specific route, so `GET /ticket/list` wins over `GET /ticket/{id}`.
    for (const route of routes) {
      const name = pascal(route.operationId);
      const fn = new ApiFunction(this, `${name}Function`, {
        handlerFile: route.handler,
        // Public routes (the docs) get no table at all.
        ...(route.access === 'none' ? {} : { table }),
        tableAccess: route.access,
        dynamo: dynamoActions(route),
        rateLimited: claimsRateLeases(route),
        blobs: route.blobs && { bucket, access: route.blobs },
        memorySize: settings.functionMemory[route.operationId],
        reservedConcurrentExecutions: settings.reservedConcurrency[route.operationId],
        logRetention: settings.logRetention,
        removalPolicy,
        environment: {
          ...(signsCursors(route) ? { CURSOR_SECRET_ARN: cursorSecret.secretArn } : {}),
          ...migrationEnv,
        },
        ...(route.files ? { files: route.files } : {}),
      });
      if (signsCursors(route)) cursorSecret.grantRead(fn);
      const httpRoute = new HttpRoute(this, `${name}Route`, {
        httpApi: api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${name}Integration`, fn),
      });
      this.functions.set(route.operationId, fn);
      this.routes.set(route.operationId, httpRoute);
    }

    this.webhooks = new WebhookPipeline(this, 'Webhooks', {
      table,
      cursorSecret,
      publicBaseUrl: stage.url,
      logRetention: settings.logRetention,
      removalPolicy,
      environment: migrationEnv,
    });

    // Last: it watches everything above.
    this.monitoring = new HelpdeskMonitoring(this, 'Monitoring', {
      api,
      stage,
      functions: this.functions,
      webhooks: this.webhooks,
      table,
      alarmEmail: settings.alarmEmail,
      accountConcurrencyLimit: settings.accountConcurrencyLimit,
      removalPolicy,
    });

    new CfnOutput(this, 'ApiUrl', { value: stage.url });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'BucketName', { value: bucket.bucketName });
    new CfnOutput(this, 'WebhookQueueUrl', { value: this.webhooks.queue.queueUrl });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn });
  }
}
