import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, Billing, ProjectionType, StreamViewType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { type Route, routes } from '../shared/routes';
import { ALL_INDEXES, TABLE_KEY, TTL_ATTRIBUTE } from '../shared/store/table-schema';
import { ApiFunction } from './api-function';
import type { StackContext } from './stack-context';

export interface HelpdeskStackProps extends StackProps {
  readonly settings: StackContext;
}

const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
// Only list routes hand out page cursors, so only they may read the signing key.
export const signsCursors = (r: Route): boolean => r.operationId.endsWith('List');

/** The whole help-desk: one table, one cursor-signing secret, one HTTP API with a function per route. */
export class HelpdeskStack extends Stack {
  constructor(scope: Construct, id: string, props: HelpdeskStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const removalPolicy = settings.removalPolicy;

    // TableV2 (AWS::DynamoDB::GlobalTable): the table is heading for replicas in several regions,
    // which TableV2 adds in place; moving a classic Table there later means a delete-and-import.
    const str = (name: string) => ({ name, type: AttributeType.STRING });
    const table = new TableV2(this, 'Table', {
      partitionKey: str(TABLE_KEY.partition),
      sortKey: str(TABLE_KEY.sort),
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: settings.deletionProtection,
      removalPolicy,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES,
      globalSecondaryIndexes: ALL_INDEXES.map((index) => ({
        indexName: index.name,
        partitionKey: str(index.partition),
        sortKey: str(index.sort),
        projectionType: ProjectionType.ALL,
      })),
    });

    const cursorSecret = new Secret(this, 'CursorSecret', {
      description: 'HMAC key that signs list page cursors',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy,
    });

    const api = new HttpApi(this, 'Api', {
      apiName: this.stackName,
      // The default stage is added below: HttpApi's own one takes no throttle settings.
      createDefaultStage: false,
    });
    const stage = api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: settings.throttle,
    });

    // API Gateway picks the most specific route, so `GET /ticket/list` wins over `GET /ticket/{id}`.
    for (const route of routes) {
      const name = pascal(route.operationId);
      const fn = new ApiFunction(this, `${name}Function`, {
        handlerFile: route.handler,
        table,
        tableAccess: route.access,
        logRetention: settings.logRetention,
        removalPolicy,
        environment: signsCursors(route) ? { CURSOR_SECRET_ARN: cursorSecret.secretArn } : {},
      });
      if (signsCursors(route)) cursorSecret.grantRead(fn);
      new HttpRoute(this, `${name}Route`, {
        httpApi: api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${name}Integration`, fn),
      });
    }

    new CfnOutput(this, 'ApiUrl', { value: stage.url });
    new CfnOutput(this, 'TableName', { value: table.tableName });
  }
}
