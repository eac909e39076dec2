import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildHelpdeskStack } from '../../infra/app';
import { signsCursors } from '../../infra/helpdesk-stack';
import { readStackContext } from '../../infra/stack-context';
import { config, resetConfig } from '../../shared/config';
import {
  BLOB_AREAS,
  type BlobArea,
  claimsRateLeases,
  type DynamoAction,
  dynamoActions,
  type Route,
  routeKey,
  routes,
} from '../../shared/routes';
import { INDEX_MIGRATION_STEPS } from '../../shared/store/migrations/legacy';
import { ALL_INDEXES, PAGE_ATTRIBUTES, TABLE_KEY, TTL_ATTRIBUTE } from '../../shared/store/table-schema';
import { functionStatements, type Resources, roleIdOf } from './iam';

type Json = Record<string, unknown>;
/** The environment variables of a function resource. */
const variablesOf = (fn: { Properties: Json }): Record<string, unknown> =>
  (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
interface Resource {
  Type: string;
  Properties: Json;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

// Bundling is skipped for every stack: these tests check the template, not the bundles.
const synth = (context: Json = {}): Template => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  return Template.fromStack(buildHelpdeskStack(app));
};

const resources = (t: Template, type: string): [string, Resource][] =>
  Object.entries(t.findResources(type) as Record<string, Resource>);

const only = <T>(items: T[]): T => {
  expect(items).toHaveLength(1);
  return items[0] as T;
};

const ref = (value: unknown): string => (value as { Ref: string }).Ref;
const getAttId = (value: unknown): string => (value as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];

const DYNAMO_WRITES = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:TransactWriteItems',
  'dynamodb:PartiQLInsert',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
];

const template = synth({ removalPolicy: 'destroy', deletionProtection: 'false', logRetentionDays: 14 });
const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const functionIdOf = (r: Route): string => {
  const ids = resources(template, 'AWS::Lambda::Function')
    .map(([id]) => id)
    .filter((id) => id.startsWith(`${pascal(r.operationId)}Function`));
  return only(ids);
};

/** Every IAM statement reachable by a function's role: inline and attached policies. */
const statementsOf = (t: Template, functionId: string): Json[] => {
  const all = t.toJSON().Resources as Resources;
  const role = all[roleIdOf(all, functionId)] as Resource;
  // No managed policy at all: AWSLambdaBasicExecutionRole may write every log group, and any
  // other could smuggle in table or bucket writes.
  expect(role.Properties.ManagedPolicyArns, functionId).toBeUndefined();
  return functionStatements(all, functionId);
};
const actionsIn = (statements: Json[]): string[] => statements.flatMap((s) => [s.Action].flat() as string[]);
const actionsOf = (t: Template, functionId: string): string[] => actionsIn(statementsOf(t, functionId));

describe('template', () => {
  // CloudFormation's resource schemas catch what CDK lets through, e.g. DynamoDB's 3-255 char index names.
  it("passes CloudFormation's own schema validation", () => {
    expect(() => synth({ '@aws-cdk/core:validateAgainstDefaultRules': true })).not.toThrow();
  });

  it('gives every index a name DynamoDB accepts', () => {
    for (const spec of ALL_INDEXES) expect(spec.name, spec.name).toMatch(/^[a-zA-Z0-9_.-]{3,255}$/);
  });
});

describe('stack context', () => {
  it('names the stack after the stage', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], stage: 'prod' } });
    expect(buildHelpdeskStack(app).stackName).toBe('Helpdesk-prod');
  });

  it('defaults to dev, retain, protected, 30 days, 50/100 throttling', () => {
    const ctx = readStackContext(new App().node);
    expect(ctx).toMatchObject({ stage: 'dev', deletionProtection: true, logRetention: 30 });
    expect(ctx.removalPolicy).toBe('retain');
    expect(ctx.throttle).toEqual({ rateLimit: 50, burstLimit: 100 });
  });

  it('leaves tracing off unless -c tracing=true', () => {
    expect(readStackContext(new App().node).tracing).toBe(false);
    expect(readStackContext(new App({ context: { tracing: 'true' } }).node).tracing).toBe(true);
    expect(() => readStackContext(new App({ context: { tracing: 'yes' } }).node)).toThrow(/tracing/);
  });

  it('sizes functions at 1024 MB with no reserved concurrency unless told', () => {
    const ctx = readStackContext(new App().node);
    expect(Object.keys(ctx.functionMemory).sort()).toEqual(routes.map((r) => r.operationId).sort());
    expect(new Set(Object.values(ctx.functionMemory))).toEqual(new Set([1024]));
    expect(ctx.reservedConcurrency).toEqual({});
    for (const [, fn] of resources(template, 'AWS::Lambda::Function')) {
      expect(fn.Properties.MemorySize).toBe(1024);
      expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
  });

  it('takes memory and reserved concurrency per route from context: a number for all, or JSON by operationId', () => {
    /** A function's properties in a stack synthesized with `context` (logical ids do not change). */
    const propsIn = (context: Json) => {
      const synthesized = synth(context).toJSON().Resources as Record<string, Resource>;
      return (op: string) =>
        (synthesized[functionIdOf(routes.find((r) => r.operationId === op) as Route)] as Resource).Properties;
    };
    const byRoute = propsIn({
      functionMemory: '{"ticketList":1536,"ticketInsert":2048}',
      reservedConcurrency: '{"ticketList":50}',
    });
    expect(byRoute('ticketList')).toMatchObject({ MemorySize: 1536, ReservedConcurrentExecutions: 50 });
    expect(byRoute('ticketInsert').MemorySize).toBe(2048);
    expect(byRoute('ticketInsert').ReservedConcurrentExecutions).toBeUndefined();
    expect(byRoute('ticketDetail').MemorySize).toBe(1024);
    // One number for every route (-c gives strings, cdk.json numbers).
    const all = propsIn({ functionMemory: '2048', reservedConcurrency: 5 });
    for (const r of routes) {
      expect(all(r.operationId), r.operationId).toMatchObject({
        MemorySize: 2048,
        ReservedConcurrentExecutions: 5,
      });
    }
    const fromJson = readStackContext(
      new App({ context: { functionMemory: { eventList: 512 }, reservedConcurrency: { eventList: 0 } } })
        .node,
    );
    expect(fromJson.functionMemory.eventList).toBe(512);
    expect(fromJson.functionMemory.ticketList).toBe(1024);
    expect(fromJson.reservedConcurrency).toEqual({ eventList: 0 });
  });

  it('rejects per-route values it cannot honour, naming the key', () => {
    const read = (context: Json) => () => readStackContext(new App({ context }).node);
    expect(read({ functionMemory: '64' })).toThrow(
      /'functionMemory' must be an integer number of MB from 128 to 10240/,
    );
    expect(read({ functionMemory: '10241' })).toThrow(/functionMemory/);
    expect(read({ functionMemory: 'lots' })).toThrow(/functionMemory/);
    expect(read({ functionMemory: '{"ticketList":1536' })).toThrow(/functionMemory.*not valid JSON/);
    expect(read({ functionMemory: '{"ticketLst":1536}' })).toThrow(
      /'functionMemory' names no route 'ticketLst'/,
    );
    expect(read({ functionMemory: '{"ticketList":"big"}' })).toThrow(/'functionMemory.ticketList' must be/);
    expect(read({ functionMemory: '[1024]' })).toThrow(/functionMemory/);
    expect(read({ reservedConcurrency: '-1' })).toThrow(
      /'reservedConcurrency' must be an integer of 0 or more/,
    );
    expect(read({ reservedConcurrency: { ticketList: 2.5 } })).toThrow(/reservedConcurrency.ticketList/);
    expect(() => synth({ reservedConcurrency: '{"nope":1}' })).toThrow(/reservedConcurrency.*nope/);
  });

  it('rejects values it cannot honour', () => {
    const read = (context: Json) => () => readStackContext(new App({ context }).node);
    expect(read({ deletionProtection: 'yes' })).toThrow(/deletionProtection/);
    expect(read({ removalPolicy: 'snapshot' })).toThrow(/removalPolicy/);
    expect(read({ logRetentionDays: 31 })).toThrow(/logRetentionDays/);
    expect(read({ throttleRate: '-1' })).toThrow(/throttleRate/);
    expect(read({ stage: 'no spaces' })).toThrow(/stage/);
  });
});

describe('functions', () => {
  const functions = resources(template, 'AWS::Lambda::Function');
  // The webhook pipeline's two (test/infra/webhooks.test.ts), the cascade worker
  // (test/infra/cascades.test.ts), the import worker (test/infra/imports.test.ts) and the cursor
  // key's rotation (test/infra/operations.test.ts); every other function serves a route.
  const webhookIds = new Set(
    functions.map(([id]) => id).filter((id) => /^Webhooks(Fanout|Deliver)Function/.test(id)),
  );
  const cascadeIds = new Set(functions.map(([id]) => id).filter((id) => /^CascadesFunction/.test(id)));
  const importIds = new Set(functions.map(([id]) => id).filter((id) => /^ImportsWorkerFunction/.test(id)));
  const rotationIds = new Set(
    functions.map(([id]) => id).filter((id) => /^CursorKeyRotationFunction/.test(id)),
  );
  const routeFunctions = functions.filter(
    ([id]) => !webhookIds.has(id) && !cascadeIds.has(id) && !importIds.has(id) && !rotationIds.has(id),
  );

  it('has exactly one function per route, the two webhook functions, the cascade and import workers, the key rotation and nothing else (no custom resources)', () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(webhookIds.size).toBe(2);
    expect(cascadeIds.size).toBe(1);
    expect(importIds.size).toBe(1);
    expect(rotationIds.size).toBe(1);
    expect(routeFunctions).toHaveLength(routes.length);
    expect(new Set(routeFunctions.map(([id]) => id))).toEqual(new Set(routes.map(functionIdOf)));
    const types = Object.values(template.toJSON().Resources as Record<string, Resource>).map((r) => r.Type);
    expect(
      types.filter((t) => t.startsWith('Custom::') || t === 'AWS::CloudFormation::CustomResource'),
    ).toEqual([]);
  });

  it('runs every function on nodejs24.x arm64 with the house defaults', () => {
    const publicIds = new Set(routes.filter((r) => r.auth === 'none').map(functionIdOf));
    for (const [id, fn] of functions) {
      expect(fn.Properties, id).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: 1024,
        // The API's functions; the workers' own timeouts are in webhooks.test.ts, cascades.test.ts
        // and imports.test.ts.
        ...(webhookIds.has(id) || cascadeIds.has(id) || importIds.has(id) ? {} : { Timeout: 10 }),
        Handler: 'index.handler',
      });
      const env = (fn.Properties.Environment as { Variables: Json }).Variables;
      expect(env, id).toMatchObject({ POWERTOOLS_SERVICE_NAME: 'helpdesk', LOG_LEVEL: 'INFO' });
      // No --enable-source-maps: error lines map their stacks themselves (shared/observability/source-stack.ts).
      expect(env.NODE_OPTIONS, id).toBeUndefined();
      // Public routes (the docs) and the key rotation are told of no table: they have none.
      const table = only(resources(template, 'AWS::DynamoDB::GlobalTable'))[0];
      if (publicIds.has(id) || rotationIds.has(id)) expect(env.TABLE_NAME, id).toBeUndefined();
      else expect(ref(env.TABLE_NAME), id).toBe(table);
    }
  });

  it("ends every function's writes before the change feed reads their events (EVENT_FEED_LAG_MS)", () => {
    // An event is stamped when its transaction is sent; the feed reads EVENT_FEED_LAG_MS behind
    // the present, which must outlast any write still in flight: the function's timeout, and 2 s
    // for DynamoDB to finish a transaction it received.
    const set = process.env.EVENT_FEED_LAG_MS;
    delete process.env.EVENT_FEED_LAG_MS;
    resetConfig();
    const lag = config().EVENT_FEED_LAG_MS; // the default the stack deploys with
    if (set !== undefined) process.env.EVENT_FEED_LAG_MS = set;
    resetConfig();
    // The webhook functions write no events: the fan-out has no write access, the delivery
    // function writes attempt items and subscriptions, whose changes are not feed events.
    for (const [id, fn] of routeFunctions)
      expect((fn.Properties.Timeout as number) * 1000 + 2000, id).toBeLessThanOrEqual(lag);
  });

  it('gives every function its own log group with retention and the removal policy', () => {
    const groups = new Map(resources(template, 'AWS::Logs::LogGroup'));
    const used = functions.map(([, fn]) => ref((fn.Properties.LoggingConfig as Json).LogGroup));
    expect(new Set(used).size).toBe(functions.length);
    for (const id of used) {
      const group = groups.get(id);
      expect(group?.Properties.RetentionInDays, id).toBe(14);
      expect(group?.DeletionPolicy, id).toBe('Delete');
    }
  });

  it("logs in Lambda's JSON format from INFO (the metrics' EMF lines count as INFO) and traces nothing by default", () => {
    for (const [id, fn] of functions) {
      expect(fn.Properties.LoggingConfig, id).toMatchObject({
        LogFormat: 'JSON',
        ApplicationLogLevel: 'INFO',
        SystemLogLevel: 'INFO',
      });
      expect(fn.Properties.TracingConfig, id).toBeUndefined();
      expect(
        actionsOf(template, id).filter((a) => a.startsWith('xray:')),
        id,
      ).toEqual([]);
    }
  });

  it('traces every function with -c tracing=true, its X-Ray grant acknowledged to cdk-nag', () => {
    const app = new App({
      context: {
        'aws:cdk:bundling-stacks': [],
        removalPolicy: 'destroy',
        deletionProtection: 'false',
        tracing: 'true',
      },
    });
    const stack = buildHelpdeskStack(app);
    expect(() => app.synth()).not.toThrow(); // an unacknowledged cdk-nag finding fails synthesis
    const traced = Template.fromStack(stack);
    const all = resources(traced, 'AWS::Lambda::Function');
    expect(all).toHaveLength(functions.length);
    for (const [id, fn] of all) {
      expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
      expect(actionsOf(traced, id), id).toEqual(
        expect.arrayContaining(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']),
      );
    }
    // In each role's inline policy: tracing adds no policy resource (the stack has no room for ~70).
    expect(resources(traced, 'AWS::IAM::Policy')).toHaveLength(
      resources(template, 'AWS::IAM::Policy').length,
    );
    expect(Object.keys(traced.toJSON().Resources).length).toBeLessThan(500);
  });

  it('keeps log groups when the removal policy is retain', () => {
    const retained = synth({ removalPolicy: 'retain', logRetentionDays: '90' });
    const groups = resources(retained, 'AWS::Logs::LogGroup');
    // One per function (the routes', the two webhook functions', the cascade worker's, the import
    // worker's, the key rotation's), plus the API's access logs.
    expect(groups).toHaveLength(routes.length + 2 + 1 + 1 + 1 + 1);
    for (const [id, g] of groups) {
      expect(g.DeletionPolicy, id).toBe('Retain');
      expect(g.Properties.RetentionInDays, id).toBe(90);
    }
  });
});

describe('HTTP API', () => {
  const routeResources = resources(template, 'AWS::ApiGatewayV2::Route');
  const integrations = new Map(resources(template, 'AWS::ApiGatewayV2::Integration'));

  it('has exactly the route keys of the route table, and $default', () => {
    const keys = routeResources.map(([, r]) => r.Properties.RouteKey as string);
    expect(keys).toHaveLength(routes.length + 1);
    expect(new Set(keys)).toEqual(new Set([...routes.map(routeKey), '$default']));
  });

  it("sends what no route matches to the fallback route's function (our 404, / and /docs/ to the docs)", () => {
    const [fallback] = routes.filter((r) => r.fallback);
    const [, res] = only(routeResources.filter(([, x]) => x.Properties.RouteKey === '$default'));
    const join = (res.Properties.Target as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
    const integration = integrations.get(ref(join[1]));
    expect(integration?.Properties).toMatchObject({
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
    });
    expect(fallback?.operationId).toBe('docsPage');
    expect(getAttId(integration?.Properties.IntegrationUri)).toBe(functionIdOf(fallback as Route));
  });

  it('sends each route to its own function through a payload 2.0 integration', () => {
    const targets = new Set<string>();
    for (const r of routes) {
      const [, res] = only(routeResources.filter(([, x]) => x.Properties.RouteKey === routeKey(r)));
      const join = (res.Properties.Target as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
      const integrationId = ref(join[1]);
      const integration = integrations.get(integrationId);
      expect(integration?.Properties, r.operationId).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
      });
      expect(getAttId(integration?.Properties.IntegrationUri)).toBe(functionIdOf(r));
      targets.add(integrationId);
    }
    expect(targets.size).toBe(routes.length);
  });

  it('throttles the auto-deployed $default stage from context', () => {
    const stage = (t: Template) => only(resources(t, 'AWS::ApiGatewayV2::Stage'))[1].Properties;
    expect(stage(template)).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
    });
    expect(stage(synth({ throttleRate: '7', throttleBurst: 9 })).DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: 7,
      ThrottlingBurstLimit: 9,
    });
  });

  it('writes one JSON access-log line per request to its own log group, without headers or query', () => {
    const stage = only(resources(template, 'AWS::ApiGatewayV2::Stage'))[1].Properties;
    const settings = stage.AccessLogSettings as { DestinationArn: unknown; Format: string };
    const group = resources(template, 'AWS::Logs::LogGroup').find(
      ([id]) => id === getAttId(settings.DestinationArn),
    );
    expect(group?.[1].Properties.RetentionInDays).toBe(14);
    expect(group?.[1].DeletionPolicy).toBe('Delete');
    const format = JSON.parse(settings.Format) as Record<string, string>;
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      routeKey: '$context.routeKey',
      status: '$context.status',
    });
    expect(settings.Format).not.toMatch(/header|querystring|authorization/i);
  });

  it('outputs the API URL, the table name and the bucket name', () => {
    const outputs = template.toJSON().Outputs as Json;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['ApiUrl', 'TableName', 'BucketName']));
  });

  it("outputs the cursor secret's ARN, for rotating it by hand (docs/operations.md)", () => {
    const [secretId] = only(resources(template, 'AWS::SecretsManager::Secret'));
    expect(outputRef(template, 'CursorSecretArn')).toBe(secretId);
  });
});

describe('table', () => {
  const table = (t: Template) => only(resources(t, 'AWS::DynamoDB::GlobalTable'))[1];

  it('is on-demand, keyed pk/sk, with TTL, stream and a generated name', () => {
    const p = table(template).Properties;
    expect(p.BillingMode).toBe('PAY_PER_REQUEST');
    expect(p.KeySchema).toEqual([
      { AttributeName: TABLE_KEY.partition, KeyType: 'HASH' },
      { AttributeName: TABLE_KEY.sort, KeyType: 'RANGE' },
    ]);
    expect(p.TimeToLiveSpecification).toEqual({ AttributeName: TTL_ATTRIBUTE, Enabled: true });
    expect(p.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(p.TableName).toBeUndefined();
  });

  it('has the ten indexes: list projecting ALL, search1v2..search9v2 projecting the page attributes', () => {
    const p = table(template).Properties;
    const indexes = p.GlobalSecondaryIndexes as Json[];
    expect(ALL_INDEXES).toHaveLength(10);
    expect(indexes).toHaveLength(10);
    const attrs = new Map((p.AttributeDefinitions as Json[]).map((a) => [a.AttributeName, a.AttributeType]));
    for (const spec of ALL_INDEXES) {
      expect(indexes).toContainEqual({
        IndexName: spec.name,
        KeySchema: [
          { AttributeName: spec.partition, KeyType: 'HASH' },
          { AttributeName: spec.sort, KeyType: 'RANGE' },
        ],
        Projection:
          spec.name === 'list'
            ? { ProjectionType: 'ALL' }
            : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...PAGE_ATTRIBUTES] },
      });
      expect(attrs.get(spec.partition)).toBe('S');
      expect(attrs.get(spec.sort)).toBe('S');
    }
    // Exact searches sort by the list order; the managedDate range by its own attribute.
    expect(ALL_INDEXES.filter((i) => i.sort !== 'listsk').map((i) => i.name)).toEqual(['search8v2']);
    // No function is told of a migration when none is under way.
    for (const [, fn] of resources(template, 'AWS::Lambda::Function'))
      expect(variablesOf(fn).INDEX_MIGRATION_STEP).toBeUndefined();
  });

  it('moves an older table to the current indexes one index per deployment (indexMigrationStep)', () => {
    const namesAt = (step: number) =>
      (table(synth({ indexMigrationStep: String(step) })).Properties.GlobalSecondaryIndexes as Json[]).map(
        (i) => i.IndexName as string,
      ) as string[];
    const legacy = ['list', ...Array.from({ length: 9 }, (_, i) => `search${i + 1}`)];
    expect(namesAt(0).sort()).toEqual(legacy.sort());
    let previous = namesAt(0);
    for (let step = 1; step <= INDEX_MIGRATION_STEPS; step++) {
      const now = namesAt(step);
      const added = now.filter((n) => !previous.includes(n));
      const removed = previous.filter((n) => !now.includes(n));
      // CloudFormation creates or deletes one global secondary index per update.
      expect(added.length + removed.length, `step ${step}`).toBe(1);
      previous = now;
    }
    expect(previous.sort()).toEqual(ALL_INDEXES.map((i) => i.name).sort());
    // The functions know the step, so they read the indexes that exist at it.
    const fns = resources(synth({ indexMigrationStep: '4' }), 'AWS::Lambda::Function').filter(
      ([, fn]) => variablesOf(fn).TABLE_NAME,
    );
    expect(fns.length).toBeGreaterThan(0);
    for (const [, fn] of fns) expect(variablesOf(fn).INDEX_MIGRATION_STEP).toBe('4');
    expect(() => synth({ indexMigrationStep: '19' })).toThrow(/indexMigrationStep/);
  }, 180_000); // 19 syntheses of the whole stack (its nested monitoring stack included)

  it('has point-in-time recovery, and deletion protection and removal policy from context', () => {
    const replica = (t: Template) => only(table(t).Properties.Replicas as Json[]);
    expect(replica(template).PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(replica(template).DeletionProtectionEnabled).toBe(false);
    expect(table(template).DeletionPolicy).toBe('Delete');

    const kept = synth({ removalPolicy: 'retain', deletionProtection: true });
    expect(replica(kept).DeletionProtectionEnabled).toBe(true);
    expect(table(kept).DeletionPolicy).toBe('Retain');
    expect(table(kept).UpdateReplacePolicy).toBe('Retain');
  });
});

const tableId = (): string => only(resources(template, 'AWS::DynamoDB::GlobalTable'))[0];
const tableArn = () => ({ 'Fn::GetAtt': [tableId(), 'Arn'] });
const indexesArn = () => ({ 'Fn::Join': ['', [tableArn(), '/index/*']] });
const dynamoStatements = (t: Template, functionId: string) =>
  statementsOf(t, functionId).filter((st) =>
    [st.Action].flat().some((a) => String(a).startsWith('dynamodb:')),
  );
/** The statements a route's declared DynamoDB actions must come to (infra/api-function.ts). */
const expectedDynamo = (r: Route): Json[] => {
  const actions: DynamoAction[] = dynamoActions(r);
  const onTable = actions.filter((a) => !a.startsWith('index:')).map((a) => `dynamodb:${a}`);
  const onIndexes = actions.filter((a) => a.startsWith('index:')).map((a) => `dynamodb:${a.slice(6)}`);
  const one = (list: string[]) => (list.length === 1 ? list[0] : list);
  return [
    ...(onTable.length ? [{ Effect: 'Allow', Action: one(onTable), Resource: tableArn() }] : []),
    ...(onIndexes.length ? [{ Effect: 'Allow', Action: one(onIndexes), Resource: indexesArn() }] : []),
    ...(claimsRateLeases(r) && !onTable.includes('dynamodb:UpdateItem')
      ? [
          {
            Effect: 'Allow',
            Action: 'dynamodb:UpdateItem',
            Resource: tableArn(),
            Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
          },
        ]
      : []),
  ];
};
const STREAM_ACTIONS = [
  'dynamodb:DescribeStream',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:ListStreams',
];

describe('least privilege', () => {
  it("gives each route's function exactly the DynamoDB actions the route declares, on the table or its indexes", () => {
    const authenticated = routes.filter((r) => r.auth !== 'none');
    expect(authenticated.length).toBeGreaterThan(30);
    for (const r of authenticated) {
      expect(dynamoStatements(template, functionIdOf(r)), r.operationId).toEqual(expectedDynamo(r));
    }
  });

  it('lets read routes write nothing but rate-limit leases (UpdateItem on RATE# keys only)', () => {
    const readRoutes = routes.filter((r) => r.access === 'read');
    expect(readRoutes.length).toBeGreaterThan(10);
    for (const r of readRoutes) {
      const statements = dynamoStatements(template, functionIdOf(r));
      const writing = statements.filter((st) => actionsIn([st]).some((a) => DYNAMO_WRITES.includes(a)));
      expect(writing, r.operationId).toEqual([
        {
          Effect: 'Allow',
          Action: 'dynamodb:UpdateItem',
          Resource: tableArn(),
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
        },
      ]);
    }
  });

  it('gives no function Scan, a wildcard or a PartiQL, DescribeTable or stream action; the stream readers read it through their event sources only', () => {
    const declaredScans = routes.filter((r) => dynamoActions(r).some((a) => a.endsWith('Scan')));
    expect(declaredScans).toEqual([]);
    for (const [id] of resources(template, 'AWS::Lambda::Function')) {
      const statements = dynamoStatements(template, id);
      const actions = actionsIn(statements);
      expect(
        actions.filter((a) => /Scan|PartiQL|DescribeTable|\*/.test(a)),
        id,
      ).toEqual([]);
      const stream = statements.filter((st) => actionsIn([st]).some((a) => STREAM_ACTIONS.includes(a)));
      if (!id.startsWith('WebhooksFanoutFunction') && !id.startsWith('CascadesFunction')) {
        expect(stream, id).toEqual([]);
        continue;
      }
      // The event source mapping's own grant (DynamoEventSource), on the stream alone.
      for (const st of stream) expect(st.Resource, id).toEqual({ 'Fn::GetAtt': [tableId(), 'StreamArn'] });
      expect(actionsIn(stream).sort(), id).toEqual([...STREAM_ACTIONS].sort());
    }
  });

  it('grants indexes only to routes that query them', () => {
    const onIndexes = routes.filter((r) =>
      dynamoStatements(template, functionIdOf(r)).some((st) =>
        JSON.stringify(st.Resource).includes('/index/*'),
      ),
    );
    expect(onIndexes.map((r) => r.operationId).sort()).toEqual(
      routes
        .filter((r) => dynamoActions(r).includes('index:Query'))
        .map((r) => r.operationId)
        .sort(),
    );
    expect(onIndexes.map((r) => r.operationId)).toContain('ticketList');
    expect(onIndexes.map((r) => r.operationId)).not.toContain('ticketDetail');
  });

  it('gives public routes (auth none) nothing but their own logs: no table, bucket or secret', () => {
    const publicRoutes = routes.filter((r) => r.auth === 'none');
    expect(publicRoutes.map((r) => r.operationId)).toEqual(
      expect.arrayContaining(['openapi', 'docsPage', 'docsRenderer']),
    );
    for (const r of publicRoutes) {
      const id = functionIdOf(r);
      expect(actionsOf(template, id), r.operationId).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
      const fn = template.toJSON().Resources[id] as Resource;
      const env = (fn.Properties.Environment as { Variables: Json }).Variables;
      expect(Object.keys(env).sort(), r.operationId).toEqual(['LOG_LEVEL', 'POWERTOOLS_SERVICE_NAME']);
    }
  });

  it('lets write routes write items beyond rate-limit leases, read routes not', () => {
    for (const r of routes.filter((x) => x.auth !== 'none')) {
      const writes = dynamoStatements(template, functionIdOf(r)).filter(
        (st) => st.Condition === undefined && actionsIn([st]).some((a) => DYNAMO_WRITES.includes(a)),
      );
      expect(writes.length, r.operationId).toBe(r.access === 'write' ? 1 : 0);
    }
  });

  it('lets only list routes read the cursor secret, and tells only them where it is', () => {
    const secret = only(resources(template, 'AWS::SecretsManager::Secret'));
    expect(secret[1].Properties.GenerateSecretString).toMatchObject({
      PasswordLength: 64,
      ExcludePunctuation: true,
    });
    const listRoutes = routes.filter(signsCursors);
    expect(listRoutes.map((r) => r.operationId)).toContain('ticketList');
    for (const r of routes) {
      const id = functionIdOf(r);
      const canRead = actionsOf(template, id).includes('secretsmanager:GetSecretValue');
      const fn = template.toJSON().Resources[id] as Resource;
      const env = (fn.Properties.Environment as { Variables: Json }).Variables;
      expect(canRead, r.operationId).toBe(signsCursors(r));
      expect(env.CURSOR_SECRET_ARN === undefined ? undefined : ref(env.CURSOR_SECRET_ARN)).toBe(
        signsCursors(r) ? secret[0] : undefined,
      );
    }
  });
});

const outputRef = (t: Template, name: string): string =>
  ref(((t.toJSON().Outputs as Record<string, { Value: unknown }>)[name] as { Value: unknown }).Value);
const bucketOf = (t: Template): [string, Resource] => {
  const id = outputRef(t, 'BucketName');
  return [id, t.toJSON().Resources[id] as Resource];
};
const bucketArn = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const objectsArn = (id: string) => ({ 'Fn::Join': ['', [bucketArn(id), '/*']] });

describe('attachments bucket', () => {
  const [bucketId, bucket] = bucketOf(template);
  const policyOf = (id: string) =>
    only(resources(template, 'AWS::S3::BucketPolicy').filter(([, p]) => ref(p.Properties.Bucket) === id))[1]
      .Properties.PolicyDocument as { Statement: Json[] };
  const logBucketId = ref((bucket.Properties.LoggingConfiguration as Json).DestinationBucketName);

  it('is encrypted, private, versioned, owner-enforced and has a generated name', () => {
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      VersioningConfiguration: { Status: 'Enabled' },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    expect(bucket.Properties.BucketName).toBeUndefined();
  });

  it('denies every request not made over TLS 1.2+', () => {
    for (const id of [bucketId, logBucketId]) {
      const statements = policyOf(id).Statement;
      expect(statements, id).toContainEqual({
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        Resource: [bucketArn(id), objectsArn(id)],
      });
      expect(statements, id).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } } }),
      );
      // Nothing in the bucket policy lets anyone in; grants live on the function roles.
      const allows = statements.filter((st) => st.Effect === 'Allow');
      expect(allows.map((st) => st.Principal)).toEqual(
        id === logBucketId ? [{ Service: 'logging.s3.amazonaws.com' }] : [],
      );
    }
  });

  it('expires unattached uploads and old versions, and aborts stalled multipart uploads', () => {
    const rules = (bucket.Properties.LifecycleConfiguration as { Rules: Json[] }).Rules;
    expect(rules.every((r) => r.Status === 'Enabled')).toBe(true);
    expect(rules).toContainEqual(
      expect.objectContaining({
        Prefix: 'staging/',
        ExpirationInDays: 1,
        NoncurrentVersionExpiration: { NoncurrentDays: 1 },
      }),
    );
    expect(rules).toContainEqual(
      expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
    );
    const noncurrent = only(rules.filter((r) => r.Prefix === undefined && r.NoncurrentVersionExpiration));
    expect(noncurrent).toMatchObject({
      NoncurrentVersionExpiration: { NoncurrentDays: 30 },
      ExpiredObjectDeleteMarker: true,
    });
    // Customers' export documents go a day after they were made (their links work an hour).
    expect(rules).toContainEqual(
      expect.objectContaining({
        Prefix: 'exports/',
        ExpirationInDays: 1,
        NoncurrentVersionExpiration: { NoncurrentDays: 1 },
      }),
    );
    // Import files go with their jobs, 30 days after they were uploaded (test/infra/imports.test.ts).
    expect(rules).toContainEqual(
      expect.objectContaining({
        Prefix: 'imports/',
        ExpirationInDays: 30,
        NoncurrentVersionExpiration: { NoncurrentDays: 30 },
      }),
    );
    // Current objects outside staging, exports and imports never expire: they are the tickets' attachments.
    expect(rules.filter((r) => r.ExpirationInDays !== undefined).map((r) => r.Prefix)).toEqual([
      'staging/',
      'exports/',
      'imports/',
    ]);
  });

  it('lets browsers GET and PUT on presigned URLs', () => {
    expect(bucket.Properties.CorsConfiguration).toEqual({
      CorsRules: [
        {
          AllowedMethods: ['GET', 'PUT'],
          AllowedOrigins: ['*'],
          AllowedHeaders: ['content-type'],
          MaxAge: 3600,
        },
      ],
    });
  });

  it('logs server access to a private, encrypted bucket that expires the logs with the log retention', () => {
    expect(bucket.Properties.LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: logBucketId },
      LogFilePrefix: 'attachments/',
    });
    const logBucket = template.toJSON().Resources[logBucketId] as Resource;
    expect(logBucket.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, RestrictPublicBuckets: true },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      LifecycleConfiguration: { Rules: [expect.objectContaining({ ExpirationInDays: 14 })] },
    });
    const delivery = only(policyOf(logBucketId).Statement.filter((st) => st.Effect === 'Allow'));
    expect(delivery).toMatchObject({
      Action: 's3:PutObject',
      Condition: { ArnLike: { 'aws:SourceArn': bucketArn(bucketId) } },
    });
  });

  it('takes its removal policy from context, without an auto-delete custom resource', () => {
    const policies = (t: Template) => resources(t, 'AWS::S3::Bucket').map(([, b]) => b.DeletionPolicy);
    expect(policies(template)).toEqual(['Delete', 'Delete']);
    expect(policies(synth({ removalPolicy: 'retain' }))).toEqual(['Retain', 'Retain']);
    expect(JSON.stringify(template.toJSON())).not.toMatch(/auto-delete-objects|AutoDeleteObjects/i);
  });
});

describe('bucket grants', () => {
  const [bucketId] = bucketOf(template);
  const s3Statements = (r: Route) =>
    statementsOf(template, functionIdOf(r)).filter((st) =>
      [st.Action].flat().some((a) => String(a).startsWith('s3:')),
    );
  const envOf = (r: Route) =>
    ((template.toJSON().Resources[functionIdOf(r)] as Resource).Properties.Environment as { Variables: Json })
      .Variables;
  const areaArn = (area: BlobArea) => ({ 'Fn::Join': ['', [bucketArn(bucketId), `/${BLOB_AREAS[area]}`]] });
  /** The object actions a statement allows on each area, and whether it lists the bucket. */
  const granted = (statements: Json[]) => {
    const byArea: Record<string, string[]> = {};
    let listBucket = false;
    for (const st of statements) {
      for (const resource of [st.Resource].flat()) {
        if (JSON.stringify(resource) === JSON.stringify(bucketArn(bucketId))) {
          expect(st.Action).toBe('s3:ListBucket');
          listBucket = true;
          continue;
        }
        const area = (Object.keys(BLOB_AREAS) as BlobArea[]).find(
          (a) => JSON.stringify(resource) === JSON.stringify(areaArn(a)),
        );
        expect(area, `${JSON.stringify(resource)} is not an area of the attachments bucket`).toBeDefined();
        byArea[area as string] = [...(byArea[area as string] ?? []), ...actionsIn([st])].sort();
      }
    }
    return { byArea, listBucket };
  };
  const withBlobs = routes.filter((r) => r.blobs);

  it('scopes object patterns to the key builders: documents, photos, staged uploads, exports and imports', () => {
    expect(BLOB_AREAS).toEqual({
      documents: 't/*/ticket/*/*',
      photos: 't/*/customer-photo/*',
      staging: 'staging/*/*',
      exports: 'exports/*/*/*.json',
      imports: 'imports/*/*.ndjson',
    });
  });

  it('gives routes without blobs no S3 action and no bucket name', () => {
    const none = routes.filter((r) => !r.blobs);
    expect(none.length).toBeGreaterThan(20);
    for (const r of none) {
      expect(s3Statements(r), r.operationId).toEqual([]);
      expect(envOf(r).BUCKET_NAME, r.operationId).toBeUndefined();
    }
  });

  it('gives every blob route exactly its declared object actions on its declared areas, and ListBucket only where declared', () => {
    expect(withBlobs.length).toBeGreaterThanOrEqual(8);
    for (const r of withBlobs) {
      const { listBucket, ...areas } = r.blobs ?? {};
      const expected = Object.fromEntries(
        Object.entries(areas).map(([area, actions]) => [
          area,
          (actions as string[]).map((a) => `s3:${a}`).sort(),
        ]),
      );
      expect(granted(s3Statements(r)), r.operationId).toEqual({
        byArea: expected,
        listBucket: listBucket === true,
      });
      for (const action of actionsIn(s3Statements(r)))
        expect(action, r.operationId).not.toMatch(/\*|Acl|Bucket(?!$)/);
      expect(ref(envOf(r).BUCKET_NAME), r.operationId).toBe(bucketId);
    }
  });

  it('lets the upload route only presign PUTs into the staging area', () => {
    const upload = routes.find((r) => r.operationId === 'ticketAttachmentUpload') as Route;
    expect(s3Statements(upload)).toEqual([
      {
        Effect: 'Allow',
        Action: 's3:PutObject',
        Resource: { 'Fn::Join': ['', [bucketArn(bucketId), '/staging/*/*']] },
      },
    ]);
  });

  it('lets reading routes only read: downloads presign GETs of documents, photos are read', () => {
    const byId = (id: string) => routes.find((r) => r.operationId === id) as Route;
    expect(granted(s3Statements(byId('ticketAttachment')))).toEqual({
      byArea: { documents: ['s3:GetObject'] },
      listBucket: false,
    });
    expect(granted(s3Statements(byId('customerPhoto')))).toEqual({
      byArea: { photos: ['s3:GetObject'] },
      listBucket: true,
    });
  });

  it('lets only routes that attach documents touch staged uploads, and only ticket routes documents; deletes leave files to the cascade worker', () => {
    const touching = (area: BlobArea) =>
      withBlobs
        .filter((r) => r.blobs?.[area]?.length)
        .map((r) => r.operationId)
        .sort();
    // The bulk routes run the inserts, updates and replies: they attach what those attach.
    expect(touching('staging')).toEqual(
      ['ticketAttachmentUpload', 'ticketBulk', 'ticketInsert', 'ticketReply', 'ticketUpdate'].sort(),
    );
    expect(touching('documents')).toEqual(
      ['ticketAttachment', 'ticketBulk', 'ticketInsert', 'ticketReply', 'ticketUpdate'].sort(),
    );
    expect(touching('photos')).toEqual(
      ['customerBulk', 'customerInsert', 'customerPhoto', 'customerUpdate'].sort(),
    );
  });
});

describe('function roles', () => {
  it('let each function write only to its own log group', () => {
    for (const r of routes) {
      const id = functionIdOf(r);
      const fn = template.toJSON().Resources[id] as Resource;
      const group = ref((fn.Properties.LoggingConfig as Json).LogGroup);
      const logs = statementsOf(template, id).filter((st) =>
        [st.Action].flat().some((a) => String(a).startsWith('logs:')),
      );
      expect(logs, r.operationId).toEqual([
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: { 'Fn::GetAtt': [group, 'Arn'] },
        },
      ]);
    }
  });

  // A stack holds at most 500 resources (test/infra/monitoring.test.ts): a policy resource per
  // function would cost one per route. What CDK grants on its own (the stream and queue readers'
  // event sources, the key rotation's access to the secret) stays in those roles' DefaultPolicy.
  it('hold their own grants inline: no policy resource but for what CDK grants the workers and the key rotation', () => {
    const all = template.toJSON().Resources as Resources;
    // The roles that have a policy resource, read once.
    const owners = resources(template, 'AWS::IAM::Policy').flatMap(([, p]) =>
      (p.Properties.Roles as unknown[]).map(ref),
    );
    for (const r of routes) {
      const roleId = roleIdOf(all, functionIdOf(r));
      const role = all[roleId] as Resource;
      expect(role.Properties.Policies, r.operationId).toEqual([
        { PolicyName: 'grants', PolicyDocument: expect.objectContaining({ Statement: expect.any(Array) }) },
      ]);
      expect(
        owners.filter((id) => id === roleId),
        r.operationId,
      ).toEqual([]);
    }
    expect(owners.map((id) => id.replace(/Role[0-9A-F]{8}$/, '')).sort()).toEqual([
      'CascadesFunction',
      'CursorKeyRotationFunction',
      'ImportsWorkerFunction',
      'WebhooksDeliverFunction',
      'WebhooksFanoutFunction',
    ]);
  });
});
