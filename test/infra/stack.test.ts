import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildHelpdeskStack } from '../../infra/app';
import { signsCursors } from '../../infra/helpdesk-stack';
import { readStackContext } from '../../infra/stack-context';
import { type Route, routeKey, routes } from '../../shared/routes';
import { ALL_INDEXES, TABLE_KEY, TTL_ATTRIBUTE } from '../../shared/store/table-schema';

type Json = Record<string, unknown>;
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

/** Every IAM action reachable by a function's role: inline, attached policies and managed ARNs. */
const actionsOf = (t: Template, functionId: string): string[] => {
  const fn = t.toJSON().Resources[functionId] as Resource;
  const roleId = getAttId(fn.Properties.Role);
  const role = t.toJSON().Resources[roleId] as Resource;
  const attached = resources(t, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as unknown[]).some((r) => ref(r) === roleId))
    .map(([, p]) => p.Properties.PolicyDocument);
  const inline = ((role.Properties.Policies ?? []) as { PolicyDocument: unknown }[]).map(
    (p) => p.PolicyDocument,
  );
  const statements = [...attached, ...inline].flatMap((doc) => (doc as { Statement: Json[] }).Statement);
  const actions = statements.flatMap((s) => [s.Action].flat() as string[]);
  // The basic execution role is logs-only; any other managed policy could smuggle in table writes.
  const managed = JSON.stringify(role.Properties.ManagedPolicyArns ?? []).match(/:policy\/[^"]*/g);
  expect(managed).toEqual([':policy/service-role/AWSLambdaBasicExecutionRole']);
  return actions;
};

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

  it('has exactly one function per route and nothing else (no custom resources)', () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(functions).toHaveLength(routes.length);
    const types = Object.values(template.toJSON().Resources as Record<string, Resource>).map((r) => r.Type);
    expect(
      types.filter((t) => t.startsWith('Custom::') || t === 'AWS::CloudFormation::CustomResource'),
    ).toEqual([]);
  });

  it('runs every function on nodejs24.x arm64 with the house defaults', () => {
    for (const [id, fn] of functions) {
      expect(fn.Properties, id).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: 1024,
        Timeout: 10,
        Handler: 'index.handler',
      });
      const env = (fn.Properties.Environment as { Variables: Json }).Variables;
      expect(env, id).toMatchObject({
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'helpdesk',
        LOG_LEVEL: 'INFO',
      });
      expect(ref(env.TABLE_NAME), id).toBe(only(resources(template, 'AWS::DynamoDB::GlobalTable'))[0]);
    }
  });

  it('gives every function its own log group with retention and the removal policy', () => {
    const groups = new Map(resources(template, 'AWS::Logs::LogGroup'));
    const used = functions.map(([, fn]) => ref((fn.Properties.LoggingConfig as Json).LogGroup));
    expect(new Set(used).size).toBe(routes.length);
    for (const id of used) {
      const group = groups.get(id);
      expect(group?.Properties.RetentionInDays, id).toBe(14);
      expect(group?.DeletionPolicy, id).toBe('Delete');
    }
  });

  it('keeps log groups when the removal policy is retain', () => {
    const retained = synth({ removalPolicy: 'retain', logRetentionDays: '90' });
    const groups = resources(retained, 'AWS::Logs::LogGroup');
    expect(groups).toHaveLength(routes.length);
    for (const [id, g] of groups) {
      expect(g.DeletionPolicy, id).toBe('Retain');
      expect(g.Properties.RetentionInDays, id).toBe(90);
    }
  });
});

describe('HTTP API', () => {
  const routeResources = resources(template, 'AWS::ApiGatewayV2::Route');
  const integrations = new Map(resources(template, 'AWS::ApiGatewayV2::Integration'));

  it('has exactly the route keys of the route table', () => {
    const keys = routeResources.map(([, r]) => r.Properties.RouteKey as string);
    expect(keys).toHaveLength(routes.length);
    expect(new Set(keys)).toEqual(new Set(routes.map(routeKey)));
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

  it('outputs the API URL and the table name', () => {
    const outputs = template.toJSON().Outputs as Json;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['ApiUrl', 'TableName']));
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

  it('has the nine indexes, string keys, projecting ALL', () => {
    const p = table(template).Properties;
    const indexes = p.GlobalSecondaryIndexes as Json[];
    expect(ALL_INDEXES).toHaveLength(9);
    expect(indexes).toHaveLength(9);
    const attrs = new Map((p.AttributeDefinitions as Json[]).map((a) => [a.AttributeName, a.AttributeType]));
    for (const spec of ALL_INDEXES) {
      expect(indexes).toContainEqual({
        IndexName: spec.name,
        KeySchema: [
          { AttributeName: spec.partition, KeyType: 'HASH' },
          { AttributeName: spec.sort, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      });
      expect(attrs.get(spec.partition)).toBe('S');
      expect(attrs.get(spec.sort)).toBe('S');
    }
  });

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

describe('least privilege', () => {
  it('gives read routes no DynamoDB write action', () => {
    const readRoutes = routes.filter((r) => r.access === 'read');
    expect(readRoutes.length).toBeGreaterThan(10);
    for (const r of readRoutes) {
      const actions = actionsOf(template, functionIdOf(r));
      expect(actions, r.operationId).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:GetItem']));
      for (const action of actions) {
        expect(DYNAMO_WRITES, `${r.operationId} may ${action}`).not.toContain(action);
        expect(action, r.operationId).not.toMatch(/^dynamodb:\*|^\*$/);
      }
    }
  });

  it('gives write routes write access', () => {
    for (const r of routes.filter((x) => x.access === 'write')) {
      const actions = actionsOf(template, functionIdOf(r));
      expect(actions, r.operationId).toEqual(
        expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']),
      );
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
