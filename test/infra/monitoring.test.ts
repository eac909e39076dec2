import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { buildHelpdeskStack } from '../../infra/app';
import type { HelpdeskStack } from '../../infra/helpdesk-stack';
import {
  ACCOUNT_CONCURRENCY_EVALUATION,
  ACCOUNT_CONCURRENCY_PERCENT,
  type AlarmEvaluation,
  API_5XX_EVALUATION,
  API_5XX_MIN_REQUESTS,
  API_5XX_PERCENT,
  API_LATENCY_EVALUATION,
  API_P99_LATENCY,
  FUNCTION_DURATION_EVALUATION,
  FUNCTION_DURATION_PERCENT_OF_TIMEOUT,
  FUNCTION_ERRORS,
  FUNCTION_EVALUATION,
  FUNCTION_THROTTLES,
  SYSTEM_ERROR_OPERATIONS,
  TABLE_EVALUATION,
  TABLE_OPERATIONS,
  TABLE_SYSTEM_ERRORS,
  TABLE_THROTTLE_EVENTS,
  TABLE_THROTTLED_REQUESTS,
  TABLE_TRANSACTION_CONFLICTS,
} from '../../infra/monitoring';
import { routes } from '../../shared/routes';

type Json = Record<string, unknown>;
interface Resource {
  Type: string;
  Properties: Json;
}
interface TemplateJson {
  Resources: Record<string, Resource>;
  Outputs?: Record<string, { Value: unknown }>;
  Parameters?: Record<string, unknown>;
}

// As test/infra/stack.test.ts: bundling is skipped, these tests read the templates.
const build = (context: Json = {}) => {
  const app = new App({
    context: {
      'aws:cdk:bundling-stacks': [],
      removalPolicy: 'destroy',
      deletionProtection: 'false',
      ...context,
    },
  });
  const stack = buildHelpdeskStack(app);
  const parent = Template.fromStack(stack).toJSON() as TemplateJson;
  const nested = Template.fromStack(stack.monitoring.stack).toJSON() as TemplateJson;
  return { stack, parent, nested };
};

const { stack, parent, nested } = build();
// One more synthesis for the context keys of the monitoring (each one takes seconds).
const configured = build({ alarmEmail: 'ops@example.com', accountConcurrencyLimit: '3000' });
const idIn = (s: HelpdeskStack | HelpdeskStack['monitoring']['stack'], c: IConstruct): string =>
  s.getLogicalId(c.node.defaultChild as CfnElement);
const idOf = (c: IConstruct): string => idIn(stack, c);
const ofType = (t: TemplateJson, type: string): [string, Resource][] =>
  Object.entries(t.Resources).filter(([, r]) => r.Type === type);

// The nested stack reads the parent's names through parameters; `inParent` swaps each parameter
// reference for what the parent passes, so values compare against the parent's logical ids.
const nestedResourceId = stack.getLogicalId(stack.monitoring.stack.nestedStackResource as CfnElement);
const passed = (parent.Resources[nestedResourceId] as Resource).Properties.Parameters as Json;
const inParent = <T>(value: T): T =>
  JSON.parse(JSON.stringify(value), (_key, v) =>
    v && typeof v === 'object' && typeof v.Ref === 'string' && v.Ref in passed ? passed[v.Ref] : v,
  );
const ref = (id: string) => ({ Ref: id });
const topicRef = ref(idIn(stack.monitoring.stack, stack.monitoring.topic));

/** One metric an alarm reads, in either of the template's two forms, with the parent's values. */
interface MetricView {
  namespace: string;
  metricName: string;
  dimensions: Json;
  stat: string;
  period: number;
}
interface AlarmView {
  id: string;
  props: Json;
  /** The expression of a math alarm (a Fn::Join of a Metrics Insights query is joined). */
  expression?: string;
  metrics: Record<string, MetricView>;
}
const dimensionsOf = (dims: unknown): Json =>
  Object.fromEntries(((dims ?? []) as { Name: string; Value: unknown }[]).map((d) => [d.Name, d.Value]));
/** A Fn::Join as one string: each reference as its JSON, or as `token` makes it. */
const joined = (v: unknown, token: (part: unknown) => string = (part) => JSON.stringify(part)): string =>
  typeof v === 'string'
    ? v
    : ((v as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1] ?? [])
        .map((p) => (typeof p === 'string' ? p : token(p)))
        .join('');
const viewOf = (id: string, props: Json): AlarmView => {
  const p = inParent(props);
  if (p.MetricName) {
    return {
      id,
      props: p,
      metrics: {
        m: {
          namespace: p.Namespace as string,
          metricName: p.MetricName as string,
          dimensions: dimensionsOf(p.Dimensions),
          stat: (p.Statistic ?? p.ExtendedStatistic) as string,
          period: p.Period as number,
        },
      },
    };
  }
  const entries = p.Metrics as Json[];
  const returned = entries.filter((m) => m.ReturnData !== false);
  expect(returned, id).toHaveLength(1);
  const metrics: Record<string, MetricView> = {};
  for (const m of entries) {
    const stat = m.MetricStat as { Metric: Json; Period: number; Stat: string } | undefined;
    if (!stat) continue;
    metrics[m.Id as string] = {
      namespace: stat.Metric.Namespace as string,
      metricName: stat.Metric.MetricName as string,
      dimensions: dimensionsOf(stat.Metric.Dimensions),
      stat: stat.Stat,
      period: stat.Period,
    };
  }
  const top = returned[0] as Json;
  return { id, props: p, metrics, ...(top.Expression ? { expression: joined(top.Expression) } : {}) };
};
const nestedAlarms = ofType(nested, 'AWS::CloudWatch::Alarm').map(([id, r]) => viewOf(id, r.Properties));
const parentAlarms = ofType(parent, 'AWS::CloudWatch::Alarm');

/** The alarms reading `metricName` (in a metric or in a Metrics Insights query). */
const alarmsOn = (metricName: string): AlarmView[] =>
  nestedAlarms.filter(
    (a) =>
      Object.values(a.metrics).some((m) => m.metricName === metricName) ||
      (a.expression?.startsWith('SELECT') && a.expression.includes(`(${metricName})`)),
  );
const onlyAlarmOn = (metricName: string): AlarmView => {
  const found = alarmsOn(metricName);
  expect(found, metricName).toHaveLength(1);
  return found[0] as AlarmView;
};
const expectEvaluation = (a: AlarmView, e: AlarmEvaluation, threshold: number) => {
  expect(a.props, a.id).toMatchObject({
    Threshold: threshold,
    ComparisonOperator: 'GreaterThanThreshold',
    EvaluationPeriods: e.evaluationPeriods,
    DatapointsToAlarm: e.datapointsToAlarm,
    TreatMissingData: 'notBreaching',
  });
  // Every metric's period, and a Metrics Insights query's own.
  const periods = [
    ...Object.values(a.metrics).map((m) => m.period),
    ...((a.props.Metrics ?? []) as Json[]).filter((m) => m.Period !== undefined).map((m) => m.Period),
  ];
  expect(periods.length, a.id).toBeGreaterThan(0);
  for (const period of periods) expect(period, a.id).toBe(e.period.toSeconds());
};

const apiDimensions = { ApiId: ref(idOf(stack.node.findChild('Api'))), Stage: '$default' };
const tableName = ref(idOf(stack.table));
const functionIds = [
  ...routes.map((r) => {
    const fn = stack.functions.get(r.operationId);
    if (!fn) throw new Error(`no function for ${r.operationId}`);
    return idOf(fn);
  }),
  idOf(stack.webhooks.fanout),
  idOf(stack.webhooks.deliver),
  idOf(stack.cascades.fn),
  idOf(stack.imports.worker),
];

/** The most resources the parent stack may hold: 500 is CloudFormation's (and CDK's) limit. */
const MAIN_STACK_MOST = 480;

describe('nested stack', () => {
  it('holds the monitoring, leaving room under CloudFormation’s limits in both stacks', () => {
    // The monitoring's and the search index's (infra/search.ts).
    expect(ofType(parent, 'AWS::CloudFormation::Stack').map(([id]) => id)).toEqual(
      expect.arrayContaining([nestedResourceId]),
    );
    expect(ofType(parent, 'AWS::CloudFormation::Stack')).toHaveLength(2);
    // 500 resources per stack (CDK refuses to synthesize more), 200 parameters, 1 MB template.
    // Each route costs 6 (function, role with its grants inline, log group, permission,
    // integration, route: infra/api-function.ts). The import routes and pipeline (issue 24) took
    // the parent to about 475: the next routes go in nested stacks (docs/decisions.md, "Import
    // jobs"), which this bound keeps from being forgotten.
    expect(Object.keys(parent.Resources).length).toBeLessThan(MAIN_STACK_MOST);
    expect(Object.keys(nested.Resources).length).toBeLessThan(450);
    expect(Object.keys(nested.Parameters ?? {}).length).toBeLessThan(150);
    expect(JSON.stringify(nested).length).toBeLessThan(800_000);
  });
});

describe('alarm topic', () => {
  it('is one topic under a rotated customer-managed key that CloudWatch may use', () => {
    const [[topicId, topic]] = ofType(nested, 'AWS::SNS::Topic') as [[string, Resource]];
    expect(ofType(parent, 'AWS::SNS::Topic')).toHaveLength(0);
    expect(ref(topicId)).toEqual(topicRef);
    const [[keyId, key]] = ofType(nested, 'AWS::KMS::Key') as [[string, Resource]];
    expect(topic.Properties.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    expect(key.Properties.EnableKeyRotation).toBe(true);
    const keyStatements = (key.Properties.KeyPolicy as { Statement: Json[] }).Statement;
    expect(keyStatements).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      }),
    );
  });

  it('only takes TLS publishes, and lets this account’s alarms publish', () => {
    const [[, policy]] = ofType(nested, 'AWS::SNS::TopicPolicy') as [[string, Resource]];
    expect(policy.Properties.Topics).toEqual([topicRef]);
    const statements = (policy.Properties.PolicyDocument as { Statement: Json[] }).Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 'sns:Publish',
        Principal: '*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
    const allow = statements.find((s) => s.Effect === 'Allow') as Json;
    expect(allow).toMatchObject({
      Action: 'sns:Publish',
      Principal: { Service: 'cloudwatch.amazonaws.com' },
    });
    expect(joined((allow.Condition as { ArnLike: Json }).ArnLike['aws:SourceArn'])).toMatch(
      /:cloudwatch:.*:alarm:\*$/,
    );
  });

  it('has an e-mail subscription only with -c alarmEmail', () => {
    expect(ofType(nested, 'AWS::SNS::Subscription')).toHaveLength(0);
    const withEmail = configured;
    const subscriptions = ofType(withEmail.nested, 'AWS::SNS::Subscription');
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]?.[1].Properties).toMatchObject({
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: ref(idIn(withEmail.stack.monitoring.stack, withEmail.stack.monitoring.topic)),
    });
    expect(() => build({ alarmEmail: 'not an address' })).toThrow(/alarmEmail/);
  });

  it('is the output AlarmTopicArn', () => {
    const value = parent.Outputs?.AlarmTopicArn?.Value as { 'Fn::GetAtt': [string, string] };
    expect(value['Fn::GetAtt'][0]).toBe(nestedResourceId);
    const output = value['Fn::GetAtt'][1].replace(/^Outputs\./, '');
    expect(nested.Outputs?.[output]?.Value).toEqual(topicRef);
  });
});

describe('alarms', () => {
  const perFunction = 3;
  const api = 2;
  const table = 5;
  const account = 1;

  it('are three per function (every route and the five workers), two of the API, five of the table, one of the account', () => {
    expect(functionIds).toHaveLength(routes.length + 4);
    expect(new Set(functionIds).size).toBe(functionIds.length);
    // The search indexer's three besides: it is in the search index's nested stack.
    const indexer = 1;
    expect(nestedAlarms).toHaveLength((functionIds.length + indexer) * perFunction + api + table + account);
    // Plus the webhook pipeline's four, the cascade worker's two, the import pipeline's two and the
    // search indexer's two in the parent stack.
    expect(parentAlarms).toHaveLength(10);
  });

  it('all send ALARM and OK to the one topic, treat missing data as fine and say what to do', () => {
    for (const a of nestedAlarms) {
      expect(a.props.AlarmActions, a.id).toEqual([topicRef]);
      expect(a.props.OKActions, a.id).toEqual([topicRef]);
      expect(a.props.ActionsEnabled, a.id).toBe(true);
      expect(a.props.TreatMissingData, a.id).toBe('notBreaching');
      expect(String(a.props.AlarmDescription).length, a.id).toBeGreaterThan(150);
      expect(a.props.AlarmDescription, a.id).toMatch(/First /);
      expect(a.props.AlarmName, a.id).toMatch(new RegExp(`^${stack.stackName}-`));
    }
  });

  it("give the webhook and import pipelines', the cascade worker's and the search indexer's own alarms the topic's actions too", () => {
    expect(
      [...stack.webhooks.alarms, ...stack.cascades.alarms, ...stack.imports.alarms, ...stack.search.alarms]
        .map((a) => idOf(a))
        .sort(),
    ).toEqual(parentAlarms.map(([id]) => id).sort());
    type GetAtt = { 'Fn::GetAtt': [string, string] };
    for (const [id, a] of parentAlarms) {
      const actions = a.Properties.AlarmActions as GetAtt[];
      expect(actions, id).toHaveLength(1);
      expect(a.Properties.OKActions, id).toEqual(actions);
      const [resource, attribute] = (actions[0] as GetAtt)['Fn::GetAtt'];
      expect(resource).toBe(nestedResourceId);
      expect(nested.Outputs?.[attribute.replace(/^Outputs\./, '')]?.Value).toEqual(topicRef);
    }
  });

  describe('API', () => {
    it(`fires when more than ${API_5XX_PERCENT} % of at least ${API_5XX_MIN_REQUESTS} requests in 5 min are 5xx`, () => {
      const a = onlyAlarmOn('5xx');
      expect(a.expression).toBe(`IF(requests >= ${API_5XX_MIN_REQUESTS}, 100 * FILL(errors, 0) / requests)`);
      const metric = { namespace: 'AWS/ApiGateway', dimensions: apiDimensions, stat: 'Sum' };
      expect(a.metrics.errors).toMatchObject({ ...metric, metricName: '5xx' });
      expect(a.metrics.requests).toMatchObject({ ...metric, metricName: 'Count' });
      expectEvaluation(a, API_5XX_EVALUATION, API_5XX_PERCENT);
      expect(a.props).toMatchObject({ Threshold: 1, EvaluationPeriods: 1, DatapointsToAlarm: 1 });
      expect(a.metrics.errors?.period).toBe(300);
    });

    it('fires when p99 latency stays above 3 s in 3 of 5 minutes', () => {
      const a = onlyAlarmOn('Latency');
      expect(Object.values(a.metrics)).toEqual([
        {
          namespace: 'AWS/ApiGateway',
          metricName: 'Latency',
          dimensions: apiDimensions,
          stat: 'p99',
          period: 60,
        },
      ]);
      expectEvaluation(a, API_LATENCY_EVALUATION, API_P99_LATENCY.toMilliseconds());
      expect(a.props).toMatchObject({ Threshold: 3000, EvaluationPeriods: 5, DatapointsToAlarm: 3 });
    });
  });

  describe('functions', () => {
    const fnAlarms = (functionId: string) =>
      nestedAlarms.filter((a) =>
        Object.values(a.metrics).some(
          (m) =>
            m.namespace === 'AWS/Lambda' &&
            JSON.stringify(m.dimensions.FunctionName) === JSON.stringify(ref(functionId)),
        ),
      );
    const single = (a: AlarmView): MetricView => {
      const metrics = Object.values(a.metrics);
      expect(metrics, a.id).toHaveLength(1);
      return metrics[0] as MetricView;
    };

    it('each have exactly their Errors, Throttles and p99 Duration alarms', () => {
      for (const id of functionIds) {
        const names = fnAlarms(id).map((a) => `${single(a).metricName}/${single(a).stat}`);
        expect(names.sort(), id).toEqual(['Duration/p99', 'Errors/Sum', 'Throttles/Sum']);
      }
    });

    it('fire on any error and any throttle in 5 minutes', () => {
      for (const id of functionIds) {
        for (const [metricName, threshold] of [
          ['Errors', FUNCTION_ERRORS],
          ['Throttles', FUNCTION_THROTTLES],
        ] as const) {
          const a = fnAlarms(id).find((x) => single(x).metricName === metricName) as AlarmView;
          expectEvaluation(a, FUNCTION_EVALUATION, threshold);
          expect(a.props, id).toMatchObject({ Threshold: 0, EvaluationPeriods: 1, DatapointsToAlarm: 1 });
          expect(single(a)).toMatchObject({ namespace: 'AWS/Lambda', stat: 'Sum', period: 300 });
        }
      }
    });

    it("fire when p99 duration is above 80 % of the function's own timeout in 2 of 3 periods", () => {
      expect(FUNCTION_DURATION_PERCENT_OF_TIMEOUT).toBe(80);
      const timeouts = new Set<number>();
      for (const id of functionIds) {
        const timeout = (parent.Resources[id] as Resource).Properties.Timeout as number;
        timeouts.add(timeout);
        const a = fnAlarms(id).find((x) => single(x).metricName === 'Duration') as AlarmView;
        expectEvaluation(a, FUNCTION_DURATION_EVALUATION, timeout * 1000 * 0.8);
        expect(a.props, id).toMatchObject({ EvaluationPeriods: 3, DatapointsToAlarm: 2 });
      }
      // The API's 10 s and the workers' own: each threshold follows its function.
      expect(timeouts.size).toBeGreaterThan(1);
    });
  });

  describe('table', () => {
    const perOperation = (a: AlarmView, metricName: string, operations: readonly string[]) => {
      const ids = operations.map((_, i) => `m${i}`);
      expect(a.expression).toBe(`SUM([${ids.join(', ')}])`);
      expect(Object.keys(a.metrics).sort()).toEqual([...ids].sort());
      expect(Object.values(a.metrics)).toEqual(
        operations.map((operation) => ({
          namespace: 'AWS/DynamoDB',
          metricName,
          dimensions: { TableName: tableName, Operation: operation },
          stat: 'Sum',
          period: 300,
        })),
      );
    };

    it('fires on any throttled request, summed over every operation we call', () => {
      const a = onlyAlarmOn('ThrottledRequests');
      perOperation(a, 'ThrottledRequests', TABLE_OPERATIONS);
      expect(TABLE_OPERATIONS).toEqual(expect.arrayContaining(['TransactWriteItems', 'Query', 'UpdateItem']));
      expectEvaluation(a, TABLE_EVALUATION, TABLE_THROTTLED_REQUESTS);
      expect(a.props).toMatchObject({ Threshold: 0, EvaluationPeriods: 1, DatapointsToAlarm: 1 });
    });

    it('fires on any read or write throttle event of the table or any of its indexes', () => {
      for (const metricName of ['ReadThrottleEvents', 'WriteThrottleEvents']) {
        const a = onlyAlarmOn(metricName);
        expect(a.metrics).toEqual({});
        expect(a.expression).toBe(
          `SELECT SUM(${metricName}) FROM "AWS/DynamoDB" WHERE TableName = '${JSON.stringify(tableName)}'`,
        );
        expect((a.props.Metrics as Json[])[0]).toMatchObject({ Period: 300, ReturnData: true });
        expectEvaluation(a, TABLE_EVALUATION, TABLE_THROTTLE_EVENTS);
      }
    });

    it('fires on any system error, transactions and the stream included', () => {
      const a = onlyAlarmOn('SystemErrors');
      perOperation(a, 'SystemErrors', SYSTEM_ERROR_OPERATIONS);
      expect(SYSTEM_ERROR_OPERATIONS).toEqual(expect.arrayContaining(['TransactWriteItems', 'GetRecords']));
      // CloudWatch lets an alarm read at most 10 metrics.
      expect(SYSTEM_ERROR_OPERATIONS.length).toBeLessThanOrEqual(10);
      expectEvaluation(a, TABLE_EVALUATION, TABLE_SYSTEM_ERRORS);
    });

    it(`fires on more than ${TABLE_TRANSACTION_CONFLICTS} transaction conflicts in 5 minutes`, () => {
      const a = onlyAlarmOn('TransactionConflict');
      expect(Object.values(a.metrics)).toEqual([
        {
          namespace: 'AWS/DynamoDB',
          metricName: 'TransactionConflict',
          dimensions: { TableName: tableName },
          stat: 'Sum',
          period: 300,
        },
      ]);
      expectEvaluation(a, TABLE_EVALUATION, TABLE_TRANSACTION_CONFLICTS);
      expect(a.props.Threshold).toBe(50);
    });
  });

  describe('account concurrency', () => {
    const alarmOf = (t: TemplateJson) =>
      ofType(t, 'AWS::CloudWatch::Alarm')
        .map(([id, r]) => viewOf(id, r.Properties))
        .filter((a) => Object.values(a.metrics).some((m) => m.metricName === 'ClaimedAccountConcurrency'));

    it(`fires above ${ACCOUNT_CONCURRENCY_PERCENT} % of the account's limit (default 1000) in 3 of 5 minutes`, () => {
      const [a] = alarmOf(nested) as [AlarmView];
      expect(alarmOf(nested)).toHaveLength(1);
      expect(Object.values(a.metrics)).toEqual([
        {
          namespace: 'AWS/Lambda',
          metricName: 'ClaimedAccountConcurrency',
          dimensions: {},
          stat: 'Maximum',
          period: 60,
        },
      ]);
      expectEvaluation(a, ACCOUNT_CONCURRENCY_EVALUATION, 800);
      expect(a.props).toMatchObject({ EvaluationPeriods: 5, DatapointsToAlarm: 3 });
    });

    it('takes the limit from -c accountConcurrencyLimit', () => {
      expect((alarmOf(configured.nested)[0] as AlarmView).props.Threshold).toBe(2400);
      expect(() => build({ accountConcurrencyLimit: 'lots' })).toThrow(/accountConcurrencyLimit/);
    });
  });
});

describe('dashboard', () => {
  const dashboards = ofType(nested, 'AWS::CloudWatch::Dashboard');
  const props = (dashboards[0] as [string, Resource])[1].Properties;
  // References become `ref:<parent logical id>` inside the body's JSON strings.
  const body = JSON.parse(
    joined(inParent(props.DashboardBody), (p) => {
      const id = (p as { Ref?: string }).Ref;
      return id && !id.startsWith('AWS::') ? `ref:${id}` : 'token';
    }),
  ) as {
    widgets: { type: string; properties: { title?: string; markdown?: string; metrics?: unknown[][] } }[];
  };

  it('is one, named after the stack', () => {
    expect(ofType(parent, 'AWS::CloudWatch::Dashboard')).toHaveLength(0);
    expect(dashboards).toHaveLength(1);
    expect(props.DashboardName).toBe(stack.stackName);
    // CloudWatch takes up to 500 widgets on a dashboard and 500 metrics on a graph. A worker with its
    // queue takes about 15 (the import pipeline's: 16, to 102 in all); the API's functions share 5.
    expect(body.widgets.length).toBeLessThan(120);
    for (const w of body.widgets) expect(w.properties.metrics?.length ?? 0).toBeLessThan(500);
  });

  it('shows the API, the table, the queues and each worker in its own section', () => {
    const headers = body.widgets.map((w) => w.properties.markdown ?? '').join('\n');
    for (const title of [
      'HTTP API',
      'DynamoDB table',
      'Webhook delivery queue',
      'Webhook fan-out failures',
      'Import queue (steps of running jobs)',
      'Function webhookFanOut]',
      'Function webhookDeliver]',
      'Function importWorker]',
    ])
      expect(headers).toContain(title);
  });

  it("shows every API function's invocations, errors, throttles and p99 duration, one line each", () => {
    const graphs = new Map(
      body.widgets
        .filter((w) => (w.properties.metrics?.length ?? 0) === routes.length)
        .map((w) => [w.properties.title, w.properties.metrics as unknown[][]]),
    );
    expect([...graphs.keys()].sort()).toEqual(['Duration p99 (ms)', 'Errors', 'Invocations', 'Throttles']);
    const expected = routes.map((r) => [
      ref(idOf(stack.functions.get(r.operationId) as IConstruct)).Ref,
      r.operationId,
    ]);
    const shown: Record<string, [string, string]> = {
      Invocations: ['Invocations', 'Sum'],
      Errors: ['Errors', 'Sum'],
      Throttles: ['Throttles', 'Sum'],
      'Duration p99 (ms)': ['Duration', 'p99'],
    };
    for (const [title, metrics] of graphs) {
      const lines = metrics.map((m) => [
        String(m[3]).replace(/^ref:/, ''),
        (m[4] as { label: string }).label,
      ]);
      expect(lines, title).toEqual(expected);
      const [metricName, stat] = shown[title as string] as [string, string];
      for (const m of metrics) {
        expect(m.slice(0, 3), title).toEqual(['AWS/Lambda', metricName, 'FunctionName']);
        expect(m[4], title).toMatchObject({ stat });
      }
    }
  });
});
