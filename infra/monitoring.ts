/**
 * Alarms and the dashboard of the help-desk (issue 14, part 3).
 *
 * **Library: cdk-monitoring-constructs** (its MonitoringFacade), not hand-written CloudWatch
 * constructs. The library is well kept, already a dependency, and gives in one place what we would
 * otherwise rebuild: typed alarms for the HTTP API, every function and the table, one alarm factory
 * that names every alarm after the stack and attaches the same action to all of them
 * (SnsAlarmActionStrategy: ALARM and OK to the one topic), a function's duration threshold as a
 * percentage of its own timeout, and a dashboard whose sections it builds from the same monitors
 * (with each alarm's threshold drawn on its graph).
 * What it has no typed alarm for goes through its own custom monitoring (`monitorCustom`, plain
 * CloudWatch `Metric` / `MathExpression` inside), so that these alarms get the same names, action
 * and dashboard: the API's 5xx percentage (5xx / Count, only with enough requests), DynamoDB's
 * ThrottledRequests and SystemErrors summed over the operations we call (the library's SystemErrors
 * leaves out transactions, our main write), read/write throttle events of the table *and* its indexes
 * (one Metrics Insights query each), TransactionConflict, and account-level Lambda concurrency.
 *
 * **A nested stack.** The stack already declares ~370 resources for ~50 routes; three alarms per
 * function alone would take it past CloudFormation's 500 (and CDK refuses to synthesize it). All of
 * this lives in one nested stack (one resource in the parent, its own 500), which reads the parent's
 * names through parameters; the workers' own alarms (the webhook and import pipelines', the cascade
 * worker's, the search indexer's) stay in the parent and only get the topic's actions.
 *
 * **The dashboard** has the library's sections for the API, the table, the queues and the workers;
 * the ~50 API functions share one section (invocations, errors, throttles, p99 duration: one line per
 * function). The library's 7 widgets per function would come near a dashboard's 500 widgets, and
 * made every synthesis (tests included) several times slower.
 *
 * Every alarm treats missing data as not breaching: functions, queues and tables that are idle
 * report nothing, and nothing is wrong with them.
 */
import { Duration, NestedStack, type RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { IHttpApi, IHttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  type Alarm,
  ComparisonOperator,
  LegendPosition,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { BillingMode, type ITableV2, Operation } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IDatabaseCluster } from 'aws-cdk-lib/aws-rds';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import {
  type CustomAlarmThreshold,
  type CustomMetricGroup,
  type CustomThreshold,
  DefaultDashboardFactory,
  type LambdaFunctionMonitoringProps,
  type MetricWithAlarmSupport,
  MonitoringFacade,
  SnsAlarmActionStrategy,
} from 'cdk-monitoring-constructs';
import { Construct } from 'constructs';
import { IMPORT_MAX_RECEIVES } from './import-pipeline';
import { STREAM_RETENTION } from './stream-worker';
import { MAX_DELIVERY_RECEIVES } from './webhook-pipeline';

/** How long one datapoint is, and how many of the last evaluation periods must breach. */
export interface AlarmEvaluation {
  readonly period: Duration;
  readonly evaluationPeriods: number;
  readonly datapointsToAlarm: number;
}
const evaluation = (
  minutes: number,
  datapointsToAlarm: number,
  evaluationPeriods: number,
): AlarmEvaluation => ({
  period: Duration.minutes(minutes),
  datapointsToAlarm,
  evaluationPeriods,
});

// --- Thresholds (docs and tests read these) -------------------------------------------------------
/** API: more than this percentage of requests answered 5xx in one 5-minute period… */
export const API_5XX_PERCENT = 1;
/** …counted only in periods with at least this many requests (one 5xx among three is not a trend). */
export const API_5XX_MIN_REQUESTS = 20;
export const API_5XX_EVALUATION = evaluation(5, 1, 1);
/** API: p99 latency (API Gateway's, integration included) above this… */
export const API_P99_LATENCY = Duration.seconds(3);
/** …in 3 of the last 5 minutes. */
export const API_LATENCY_EVALUATION = evaluation(1, 3, 5);

/** Per function: any error (a crash, a timeout, out of memory: handlers answer expected failures themselves). */
export const FUNCTION_ERRORS = 0;
/** Per function: any throttled invocation. */
export const FUNCTION_THROTTLES = 0;
export const FUNCTION_EVALUATION = evaluation(5, 1, 1);
/** Per function: p99 duration above this percentage of the function's own timeout… */
export const FUNCTION_DURATION_PERCENT_OF_TIMEOUT = 80;
/** …in 2 of the last 3 five-minute periods (a single timeout is already an error). */
export const FUNCTION_DURATION_EVALUATION = evaluation(5, 2, 3);

/** Table: any request throttled (on-demand should never throttle; a hot key or a table limit does). */
export const TABLE_THROTTLED_REQUESTS = 0;
/** Table and its indexes: any read or write throttle event. */
export const TABLE_THROTTLE_EVENTS = 0;
/** Table: any DynamoDB-side (HTTP 500) error. */
export const TABLE_SYSTEM_ERRORS = 0;
/** Table: transaction conflicts per 5 minutes. Conflicts are retried by the code: only a storm matters. */
export const TABLE_TRANSACTION_CONFLICTS = 50;
export const TABLE_EVALUATION = evaluation(5, 1, 1);

/** Account: claimed Lambda concurrency above this percentage of the account's limit… */
export const ACCOUNT_CONCURRENCY_PERCENT = 80;
/** …in 3 of the last 5 minutes. */
export const ACCOUNT_CONCURRENCY_EVALUATION = evaluation(1, 3, 5);
/** Several regions: average replication latency (ms) to another region's replica; normally about a second. */
export const REPLICATION_LATENCY_MS = 60_000;
export const REPLICATION_EVALUATION = evaluation(5, 2, 3);

/**
 * The operations whose ThrottledRequests and SystemErrors are summed: every one the data layer,
 * the stream reader and the operator tools call (no Scan: nothing scans). CloudWatch lets an alarm
 * read at most 10 metrics.
 */
export const TABLE_OPERATIONS: readonly Operation[] = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.BATCH_WRITE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
  Operation.TRANSACT_GET_ITEMS,
];
/** SystemErrors are also reported for the stream's GetRecords (the webhook fan-out reads it). */
export const SYSTEM_ERROR_OPERATIONS: readonly Operation[] = [...TABLE_OPERATIONS, Operation.GET_RECORDS];

/** The library appends a non-empty disambiguator to alarm names; we have one alarm per kind. */
const ONE = '';
const once = <T>(threshold: T): Record<string, T> => ({ [ONE]: threshold });

/** What the monitoring needs of the webhook pipeline (infra/webhook-pipeline.ts satisfies it). */
export interface MonitoredWebhooks {
  readonly fanout: LambdaFunction;
  readonly deliver: LambdaFunction;
  readonly queue: IQueue;
  readonly deadLetterQueue: IQueue;
  readonly fanoutFailures: IQueue;
  /** Its own alarms: they get the topic's actions here. */
  readonly alarms: readonly Alarm[];
}

/** What the monitoring needs of the cascade worker (infra/cascade-worker.ts satisfies it). */
export interface MonitoredCascades {
  readonly fn: LambdaFunction;
  readonly failures: IQueue;
  readonly alarms: readonly Alarm[];
}

/** What the monitoring needs of the import pipeline (infra/import-pipeline.ts satisfies it). */
export interface MonitoredImports {
  readonly worker: LambdaFunction;
  readonly queue: IQueue;
  readonly deadLetterQueue: IQueue;
  readonly alarms: readonly Alarm[];
}

/** What the monitoring needs of the search index (infra/search.ts satisfies it). */
export interface MonitoredSearch {
  readonly indexer: LambdaFunction;
  readonly failures: IQueue;
  readonly cluster: IDatabaseCluster;
  readonly alarms: readonly Alarm[];
}

export interface HelpdeskMonitoringProps {
  readonly api: IHttpApi;
  /** The stage whose metrics are read (`$default`). */
  readonly stage: IHttpStage;
  /** The API's functions by operationId. */
  readonly functions: ReadonlyMap<string, LambdaFunction>;
  readonly webhooks: MonitoredWebhooks;
  readonly cascades: MonitoredCascades;
  readonly imports: MonitoredImports;
  readonly search: MonitoredSearch;
  readonly table: ITableV2;
  /** Several regions: the regions this stack's replica replicates to (ReplicationLatency alarms). */
  readonly replicatesTo?: readonly string[];
  /** Subscribed to the topic by e-mail when given. */
  readonly alarmEmail?: string;
  /** The account's Lambda concurrency limit in this region. */
  readonly accountConcurrencyLimit: number;
  /** Of the topic's KMS key. */
  readonly removalPolicy: RemovalPolicy;
}

/**
 * One SNS topic receiving every alarm's ALARM and OK notifications, the alarms, and one dashboard
 * named after the stack, in a nested stack of their own.
 */
export class HelpdeskMonitoring extends Construct {
  /** The nested stack everything below lives in. */
  readonly stack: NestedStack;
  readonly topic: Topic;
  readonly facade: MonitoringFacade;
  readonly dashboardFactory: DefaultDashboardFactory;

  constructor(scope: Construct, id: string, props: HelpdeskMonitoringProps) {
    super(scope, id);
    // The parent's name, a literal: it prefixes every alarm name and names the dashboard.
    const stackName = Stack.of(this).stackName;
    const stack = new NestedStack(this, 'Stack', {
      description: `Alarms, their topic and the dashboard of ${stackName}`,
    });
    this.stack = stack;

    // --- Topic ------------------------------------------------------------------------------
    // A customer-managed key, not alias/aws/sns: CloudWatch alarms cannot publish to a topic under
    // the AWS-managed key, whose policy grants them nothing and cannot be changed.
    const key = new Key(stack, 'AlarmTopicKey', {
      description: `Encrypts the alarm topic of ${stackName}`,
      enableKeyRotation: true,
      removalPolicy: props.removalPolicy,
    });
    const cloudWatch = new ServicePrincipal('cloudwatch.amazonaws.com');
    key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsEncryptNotifications',
        principals: [cloudWatch],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );
    this.topic = new Topic(stack, 'AlarmTopic', {
      displayName: `${stackName} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    // The topic policy (enforceSSL's) replaces SNS's default one: let this account's alarms publish.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [cloudWatch],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          ArnLike: { 'aws:SourceArn': stack.formatArn({ service: 'cloudwatch', resource: 'alarm:*' }) },
        },
      }),
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const topicAction = new SnsAction(this.topic);
    for (const alarm of [
      ...props.webhooks.alarms,
      ...props.cascades.alarms,
      ...props.imports.alarms,
      ...props.search.alarms,
    ]) {
      alarm.addAlarmAction(topicAction);
      alarm.addOkAction(topicAction);
    }

    // --- Facade: one alarm factory (names, action), one dashboard -------------------------------
    this.dashboardFactory = new DefaultDashboardFactory(stack, 'Dashboards', {
      dashboardNamePrefix: stackName,
      createDashboard: true,
      createSummaryDashboard: false,
      createAlarmDashboard: false,
    });
    this.facade = new MonitoringFacade(stack, 'Monitoring', {
      alarmFactoryDefaults: {
        alarmNamePrefix: stackName,
        actionsEnabled: true,
        action: new SnsAlarmActionStrategy({ onAlarmTopic: this.topic, onOkTopic: this.topic }),
        datapointsToAlarm: 1,
      },
      dashboardFactory: this.dashboardFactory,
    });

    // In dashboard order: the API, what all functions share, the table, the queues, then each function.
    this.monitorApi(props);
    this.monitorAccountConcurrency(props.accountConcurrencyLimit);
    this.monitorTable(props.table);
    if (props.replicatesTo?.length) this.monitorReplication(props.table, props.replicatesTo);
    this.monitorQueues(props.webhooks, props.cascades, props.imports, props.search);
    this.facade.monitorAuroraCluster({
      cluster: props.search.cluster,
      alarmFriendlyName: 'SearchCluster',
      humanReadableName: 'Search index (Aurora Serverless v2: ACU, CPU, latency)',
    });
    this.monitorFunction('webhookFanOut', props.webhooks.fanout, FANOUT_NOTES, 'stream');
    this.monitorFunction('webhookDeliver', props.webhooks.deliver, DELIVER_NOTES, 'queue');
    this.monitorFunction('cascadeWorker', props.cascades.fn, CASCADE_NOTES, 'stream');
    this.monitorFunction('importWorker', props.imports.worker, IMPORT_NOTES, 'queue');
    this.monitorFunction('searchIndexer', props.search.indexer, SEARCH_NOTES, 'stream');
    for (const [name, fn] of props.functions) this.monitorFunction(name, fn, API_FUNCTION_NOTES);
    this.functionsOverview(props.functions);
  }

  private monitorApi({ api, stage }: HelpdeskMonitoringProps): void {
    const dimensionsMap = { ApiId: api.apiId, Stage: stage.stageName };
    const apiMetric = (metricName: string) =>
      new Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap,
        statistic: Stats.SUM,
        period: API_5XX_EVALUATION.period,
      });
    this.facade.monitorApiGatewayV2HttpApi({
      api,
      apiStage: stage.stageName,
      alarmFriendlyName: 'Api',
      humanReadableName: 'HTTP API ($default stage)',
      addLatencyP99Alarm: once({
        maxLatency: API_P99_LATENCY,
        ...alarming(API_LATENCY_EVALUATION),
        alarmDescriptionOverride:
          `The API's p99 latency was above ${API_P99_LATENCY.toMilliseconds()} ms in ` +
          `${API_LATENCY_EVALUATION.datapointsToAlarm} of the last ${API_LATENCY_EVALUATION.evaluationPeriods} ` +
          'minutes: one request in a hundred is slow. First look at the Duration alarms and graphs of the ' +
          'functions (which routes are slow) and at the table (throttling, system errors, conflicts); ' +
          'cold starts alone rarely reach this.',
      }),
    });
    this.facade.monitorCustom({
      alarmFriendlyName: 'Api',
      humanReadableName: 'HTTP API: 5xx rate',
      metricGroups: [
        {
          title: `5xx responses (% of requests, periods with at least ${API_5XX_MIN_REQUESTS})`,
          metrics: [
            {
              alarmFriendlyName: '5xx-Rate',
              metric: new MathExpression({
                // No datapoint (missing, not breaching) below the minimum number of requests.
                expression: `IF(requests >= ${API_5XX_MIN_REQUESTS}, 100 * FILL(errors, 0) / requests)`,
                usingMetrics: { errors: apiMetric('5xx'), requests: apiMetric('Count') },
                period: API_5XX_EVALUATION.period,
                label: '5xx (%)',
              }),
              addAlarm: once(
                custom(
                  API_5XX_PERCENT,
                  API_5XX_EVALUATION,
                  `More than ${API_5XX_PERCENT} % of the API's requests were answered 5xx in ` +
                    `${API_5XX_EVALUATION.period.toMinutes()} min (counted when at least ${API_5XX_MIN_REQUESTS} ` +
                    'requests came in). A 500 is a bug or a crash; a 503 the store (or S3) busy or away, ' +
                    "nothing written; a 504 a write whose outcome is unknown. First check which functions' " +
                    'Errors alarms fire, then search the API access log group for status >= 500 to find the ' +
                    'routes and request ids.',
                ),
              ),
            },
          ],
        },
      ],
    });
  }

  private monitorAccountConcurrency(limit: number): void {
    const threshold = Math.floor((limit * ACCOUNT_CONCURRENCY_PERCENT) / 100);
    this.facade.monitorCustom({
      alarmFriendlyName: 'Lambda',
      humanReadableName: 'Lambda: account concurrency',
      metricGroups: [
        {
          title: `Claimed account concurrency (limit ${limit})`,
          metrics: [
            {
              alarmFriendlyName: 'AccountConcurrency',
              metric: new Metric({
                namespace: 'AWS/Lambda',
                metricName: 'ClaimedAccountConcurrency',
                statistic: Stats.MAXIMUM,
                period: ACCOUNT_CONCURRENCY_EVALUATION.period,
              }),
              addAlarm: once(
                custom(
                  threshold,
                  ACCOUNT_CONCURRENCY_EVALUATION,
                  `Lambda concurrency claimed in this account and region was above ${threshold} ` +
                    `(${ACCOUNT_CONCURRENCY_PERCENT} % of the limit of ${limit}, context accountConcurrencyLimit) in ` +
                    `${ACCOUNT_CONCURRENCY_EVALUATION.datapointsToAlarm} of the last ` +
                    `${ACCOUNT_CONCURRENCY_EVALUATION.evaluationPeriods} minutes: every function of the account ` +
                    'is close to being throttled. First find who claims it (ConcurrentExecutions per function, ' +
                    'other stacks included): a traffic surge, slow functions holding on to invocations (Duration ' +
                    'alarms), or a runaway consumer; then lower the API throttle (throttleRate/throttleBurst) or ' +
                    'ask for a higher quota.',
                ),
              ),
            },
          ],
        },
      ],
    });
  }

  /**
   * Errors, Throttles and p99 Duration of one function; `notes` says what its failures mean. A worker
   * gets the library's dashboard section, an API function only a line in the functions' overview.
   */
  private monitorFunction(
    name: string,
    fn: LambdaFunction,
    notes: FunctionNotes,
    worker?: 'stream' | 'queue',
  ): void {
    const timeout = fn.timeout;
    if (!timeout) throw new Error(`${fn.node.path} has no timeout to alarm against`);
    const near = Math.floor((timeout.toSeconds() * FUNCTION_DURATION_PERCENT_OF_TIMEOUT) / 100);
    const functionProps: LambdaFunctionMonitoringProps = {
      lambdaFunction: fn,
      alarmFriendlyName: name,
      humanReadableName: `Function ${name}`,
      // Only the stream readers (the fan-out, the cascade worker) get an iterator-age graph.
      isIterator: worker === 'stream',
      addFaultCountAlarm: once({
        maxErrorCount: FUNCTION_ERRORS,
        ...alarming(FUNCTION_EVALUATION),
        alarmDescriptionOverride:
          `Function ${name} failed (threw, timed out or ran out of memory) in the last ` +
          `${FUNCTION_EVALUATION.period.toMinutes()} min. ${notes.errors} First read its log group around ` +
          'the alarm time (ERROR lines, "Task timed out"), then fix and redeploy.',
      }),
      addThrottlesCountAlarm: once({
        maxErrorCount: FUNCTION_THROTTLES,
        ...alarming(FUNCTION_EVALUATION),
        alarmDescriptionOverride:
          `Lambda refused invocations of ${name} for lack of concurrency in the last ` +
          `${FUNCTION_EVALUATION.period.toMinutes()} min. ${notes.throttles} First check the account ` +
          'concurrency alarm and graph: the account limit is shared with every other function of the account.',
      }),
      addLatencyP99Alarm: once({
        maxLatencyPercentageOfTimeout: FUNCTION_DURATION_PERCENT_OF_TIMEOUT,
        ...alarming(FUNCTION_DURATION_EVALUATION),
        alarmDescriptionOverride:
          `The p99 duration of ${name} was above ${FUNCTION_DURATION_PERCENT_OF_TIMEOUT} % of its ` +
          `${timeout.toSeconds()} s timeout (${near} s) in ${FUNCTION_DURATION_EVALUATION.datapointsToAlarm} of ` +
          `the last ${FUNCTION_DURATION_EVALUATION.evaluationPeriods} periods of ` +
          `${FUNCTION_DURATION_EVALUATION.period.toMinutes()} min: invocations are close to being killed. ` +
          `${notes.duration} First look at the table's alarms (throttling, system errors) and the function's ` +
          'logs for the slow requests.',
      }),
    };
    // The workers get the library's section; the API functions share the overview (functionsOverview).
    this.facade.monitorLambdaFunction(
      worker ? functionProps : { ...functionProps, addToDetailDashboard: false },
    );
  }

  /** The API's functions on the dashboard: one graph per metric, one line per function. */
  private functionsOverview(functions: ReadonlyMap<string, LambdaFunction>): void {
    const period = FUNCTION_EVALUATION.period;
    const group = (
      title: string,
      metric: (fn: LambdaFunction, label: string) => Metric,
    ): CustomMetricGroup => ({
      title,
      graphWidgetWidth: 12,
      graphWidgetLegend: LegendPosition.RIGHT,
      metrics: [...functions].map(([name, fn]) => metric(fn, name)),
    });
    this.facade.monitorCustom({
      alarmFriendlyName: 'Functions',
      humanReadableName: 'API functions',
      metricGroups: [
        group('Invocations', (fn, label) => fn.metricInvocations({ label, period, statistic: Stats.SUM })),
        group('Errors', (fn, label) => fn.metricErrors({ label, period, statistic: Stats.SUM })),
        group('Throttles', (fn, label) => fn.metricThrottles({ label, period, statistic: Stats.SUM })),
        group('Duration p99 (ms)', (fn, label) =>
          fn.metricDuration({ label, period, statistic: Stats.p(99) }),
        ),
      ],
    });
  }

  /**
   * Several regions: how far behind each other region's replica is with this region's writes
   * (AWS/DynamoDB ReplicationLatency, emitted here per receiving region). Readers there see the
   * data that old; writes are unaffected (they run at the tenant's home, docs/regions.md).
   */
  private monitorReplication(table: ITableV2, receivingRegions: readonly string[]): void {
    const e = REPLICATION_EVALUATION;
    this.facade.monitorCustom({
      alarmFriendlyName: 'Replication',
      humanReadableName: 'Global table: replication latency',
      metricGroups: [
        {
          title: 'Replication latency to each other region (ms, average)',
          metrics: receivingRegions.map((region) => ({
            alarmFriendlyName: `Latency-${region}`,
            metric: new Metric({
              namespace: 'AWS/DynamoDB',
              metricName: 'ReplicationLatency',
              dimensionsMap: { TableName: table.tableName, ReceivingRegion: region },
              statistic: Stats.AVERAGE,
              period: e.period,
              label: region,
            }),
            addAlarm: once(
              custom(
                REPLICATION_LATENCY_MS,
                e,
                `Writes made in this region reached the replica in ${region} more than ` +
                  `${REPLICATION_LATENCY_MS / 1000} s late on average in ${e.datapointsToAlarm} of the last ` +
                  `${e.evaluationPeriods} periods of ${e.period.toMinutes()} min. Readers in ${region} see ` +
                  "this region's tenants that far behind (reads with Helpdesk-Read-Home: true do not); " +
                  'writes are unaffected. Check the AWS Health Dashboard for DynamoDB in both regions. ' +
                  'Do not re-home tenants away from this region while it lasts: what has not replicated ' +
                  'would be left behind (docs/regions.md, re-homing).',
              ),
            ),
          })),
        },
      ],
    });
  }

  private monitorTable(table: ITableV2): void {
    const perOperation = (metricName: string, operations: readonly Operation[]) =>
      new MathExpression({
        // SUM of an array adds what each timestamp has; `a + b` would drop timestamps one lacks.
        expression: `SUM([${operations.map((_, i) => `m${i}`).join(', ')}])`,
        usingMetrics: Object.fromEntries(
          operations.map((operation, i) => [
            `m${i}`,
            new Metric({
              namespace: 'AWS/DynamoDB',
              metricName,
              dimensionsMap: { TableName: table.tableName, Operation: operation },
              statistic: Stats.SUM,
              period: TABLE_EVALUATION.period,
            }),
          ]),
        ),
        period: TABLE_EVALUATION.period,
        label: metricName,
      });
    // Metrics Insights: the table's series and every index's (GlobalSecondaryIndexName) in one sum.
    const throttleEvents = (metricName: string) =>
      new MathExpression({
        expression: `SELECT SUM(${metricName}) FROM "AWS/DynamoDB" WHERE TableName = '${table.tableName}'`,
        usingMetrics: {},
        period: TABLE_EVALUATION.period,
        label: `${metricName} (table and indexes)`,
      });

    this.facade.monitorDynamoTable({
      table,
      billingMode: BillingMode.PAY_PER_REQUEST,
      alarmFriendlyName: 'Table',
      humanReadableName: 'DynamoDB table',
    });
    const alarmOn = (
      alarmFriendlyName: string,
      metric: MetricWithAlarmSupport,
      threshold: number,
      description: string,
    ): CustomMetricGroup['metrics'][number] => ({
      alarmFriendlyName,
      metric,
      addAlarm: once(custom(threshold, TABLE_EVALUATION, description)),
    });
    const minutes = TABLE_EVALUATION.period.toMinutes();
    this.facade.monitorCustom({
      alarmFriendlyName: 'Table',
      humanReadableName: 'DynamoDB table: throttling, errors, conflicts',
      metricGroups: [
        {
          title: 'Throttling',
          metrics: [
            alarmOn(
              'ThrottledRequests',
              perOperation('ThrottledRequests', TABLE_OPERATIONS),
              TABLE_THROTTLED_REQUESTS,
              `DynamoDB throttled requests to the table (or to one of its indexes) in the last ${minutes} min. ` +
                'The table is on-demand: this is one partition key written or read too hot (e.g. one ' +
                "tenant's counter), or the table's maximum throughput. The SDK retried them, but every retry " +
                'costs the request time. First find the operation on the graph and the hot key with ' +
                'CloudWatch Contributor Insights for DynamoDB.',
            ),
            alarmOn(
              'ReadThrottleEvents',
              throttleEvents('ReadThrottleEvents'),
              TABLE_THROTTLE_EVENTS,
              `Reads of the table or of one of its indexes were throttled in the last ${minutes} min. ` +
                'First see on the dashboard which index (GlobalSecondaryIndexName) and which operation, then ' +
                'look for a hot partition key (Contributor Insights).',
            ),
            alarmOn(
              'WriteThrottleEvents',
              throttleEvents('WriteThrottleEvents'),
              TABLE_THROTTLE_EVENTS,
              `Writes to the table or to one of its indexes were throttled in the last ${minutes} min. An ` +
                "index that cannot keep up throttles the table's writes too. First see which index, then " +
                'look for a hot partition key (Contributor Insights), e.g. a counter item.',
            ),
          ],
        },
        {
          title: 'Errors and transaction conflicts',
          metrics: [
            alarmOn(
              'SystemErrors',
              perOperation('SystemErrors', SYSTEM_ERROR_OPERATIONS),
              TABLE_SYSTEM_ERRORS,
              `DynamoDB answered requests with an internal error (HTTP 500) in the last ${minutes} min. ` +
                'The SDK retried them; those still failing were answered 503. First check the AWS ' +
                'Health Dashboard for DynamoDB in this region; if it persists, open a support case.',
            ),
            alarmOn(
              'TransactionConflicts',
              new Metric({
                namespace: 'AWS/DynamoDB',
                metricName: 'TransactionConflict',
                dimensionsMap: { TableName: table.tableName },
                statistic: Stats.SUM,
                period: TABLE_EVALUATION.period,
              }),
              TABLE_TRANSACTION_CONFLICTS,
              `More than ${TABLE_TRANSACTION_CONFLICTS} transaction conflicts on the table in ${minutes} min. ` +
                'The code retries a conflict, so a few are normal; a storm means many writers on the same items ' +
                "(one ticket, one tenant's counter): slow writes, and 503s once the retries run out. First find " +
                'the routes with rising Duration and the items they share.',
            ),
          ],
        },
      ],
    });
  }

  /** Dashboard only: the pipeline's own alarms (in the parent stack) watch these queues. */
  private monitorQueues(
    webhooks: MonitoredWebhooks,
    cascades: MonitoredCascades,
    imports: MonitoredImports,
    search: MonitoredSearch,
  ): void {
    this.facade.monitorSqsQueue({
      queue: search.failures,
      alarmFriendlyName: 'SearchIndexFailures',
      humanReadableName: 'Search indexer failures',
    });
    this.facade.monitorSqsQueueWithDlq({
      queue: webhooks.queue,
      deadLetterQueue: webhooks.deadLetterQueue,
      alarmFriendlyName: 'WebhookDelivery',
      humanReadableName: 'Webhook delivery queue',
    });
    this.facade.monitorSqsQueue({
      queue: cascades.failures,
      alarmFriendlyName: 'CascadeFailures',
      humanReadableName: 'Cascade failures',
    });
    this.facade.monitorSqsQueue({
      queue: webhooks.fanoutFailures,
      alarmFriendlyName: 'WebhookFanoutFailures',
      humanReadableName: 'Webhook fan-out failures',
    });
    this.facade.monitorSqsQueueWithDlq({
      queue: imports.queue,
      deadLetterQueue: imports.deadLetterQueue,
      alarmFriendlyName: 'ImportSteps',
      humanReadableName: 'Import queue (steps of running jobs)',
    });
  }
}

/** What a function's failures mean, in its alarms' descriptions. */
interface FunctionNotes {
  readonly errors: string;
  readonly throttles: string;
  readonly duration: string;
}
const API_FUNCTION_NOTES: FunctionNotes = {
  errors:
    'Handlers turn whatever they throw into a problem+json answer (a bug is a logged 500, which the API ' +
    '5xx alarm sees), so this is what they cannot catch: a failed cold start (the configuration is parsed ' +
    'then and fails fast), a timeout, or running out of memory. The client got a 5xx from API Gateway.',
  throttles: 'Those requests failed without reaching the handler.',
  duration:
    'Near its timeout a handler abandons its store calls and answers 503 (nothing written) or 504 ' +
    '(outcome unknown).',
};
const FANOUT_NOTES: FunctionNotes = {
  errors:
    'Records it cannot queue are reported one by one, not as errors: this is a crash, a timeout or a ' +
    `failed cold start. The batch is retried (bisected) until its records are ${STREAM_RETENTION.toHours()} h ` +
    'old, then given up to the fan-out failures queue; watch the iterator-age alarm.',
  throttles: 'The stream is read later: webhook deliveries fall behind.',
  duration:
    'A timed-out batch is retried whole: its events are queued late (deduplication keeps them single).',
};
const CASCADE_NOTES: FunctionNotes = {
  errors:
    'Cascades it cannot finish are reported one by one, not as errors: this is a crash, a timeout or a failed ' +
    `cold start. The batch is retried (bisected) for ${STREAM_RETENTION.toHours()} h, then given up to the ` +
    'cascade failures queue; the cascade items stay in the table for `helpdesk cascades drain`.',
  throttles: "The stream is read later: removed records' leftovers are cleaned late.",
  duration: 'A timed-out batch is retried whole (every cascade can be repeated).',
};
const SEARCH_NOTES: FunctionNotes = {
  errors:
    'A batch it cannot apply is reported failed, not thrown: this is a crash, a timeout or a failed cold start. ' +
    `The batch is retried (bisected) for ${STREAM_RETENTION.toHours()} h, then given up to the search ` +
    'failures queue; `helpdesk search reindex` rebuilds what it missed.',
  throttles: 'The stream is read later: searches answer from an older index meanwhile.',
  duration: 'A timed-out batch is retried whole (every write is version-guarded and can be repeated).',
};
const IMPORT_NOTES: FunctionNotes = {
  errors:
    'A step that fails (the table or S3 refusing) is reported failed, not thrown: this is a crash, a timeout ' +
    'or a failed cold start. The step is received again after its visibility timeout and goes on from where ' +
    `its job's last write left it; after ${IMPORT_MAX_RECEIVES} receives it goes to the import dead-letter ` +
    'queue (docs/operations.md, "Importing a help desk").',
  throttles: 'Steps wait in the queue: imports are slower, nothing is lost.',
  duration:
    'A step stops starting lines a minute before its timeout: nearing it means single lines (a long ' +
    'ticket, its documents) take that long. A timed-out step is received again and skips what it wrote.',
};
const DELIVER_NOTES: FunctionNotes = {
  errors:
    "A receiver's refusal is not an error (it is recorded as an attempt and retried with backoff): this is a " +
    'crash, a timeout or a failed cold start. The message is received again after its visibility timeout; ' +
    `after ${MAX_DELIVERY_RECEIVES} receives it goes to the dead-letter queue.`,
  throttles: 'Deliveries wait in the queue: they are late, not lost.',
  duration:
    'A timed-out delivery is received again: the receiver may get it twice (its webhook-id is the same).',
};

/** The evaluation settings of an alarm, missing data not breaching. */
const alarming = (e: AlarmEvaluation): CustomAlarmThreshold => ({
  period: e.period,
  evaluationPeriods: e.evaluationPeriods,
  datapointsToAlarm: e.datapointsToAlarm,
  treatMissingDataOverride: TreatMissingData.NOT_BREACHING,
});

/** A custom alarm: above `threshold`, with its evaluation and description. */
const custom = (threshold: number, e: AlarmEvaluation, description: string): CustomThreshold => ({
  threshold,
  comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
  ...alarming(e),
  alarmDescriptionOverride: description,
});
