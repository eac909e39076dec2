import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { buildHelpdeskStack, buildHelpdeskStacks } from '../../infra/app';
import { AUTO_PAUSE, migrationsHash, SEARCH_DATABASE } from '../../infra/search';
import { readStackContext } from '../../infra/stack-context';
import { ITERATOR_AGE_ALARM } from '../../infra/stream-worker';
import { routes } from '../../shared/routes';
import { functionStatements } from './iam';

/**
 * The search index in AWS (issue 23, docs/search.md): one Aurora PostgreSQL Serverless v2
 * cluster per region's stack, paused when idle, in isolated subnets, reached through the Data API
 * only; its schema migrated by a custom resource before the functions that use it; the indexer
 * reading the table's stream; the search routes, and nothing else, allowed to run statements.
 */
type Json = Record<string, unknown>;
type Resource = { Type: string; Properties: Json; DependsOn?: string[] };

const app = new App({
  context: { 'aws:cdk:bundling-stacks': [], removalPolicy: 'destroy', deletionProtection: 'false' },
});
const stack = buildHelpdeskStack(app);
const { search } = stack;
const parent = Template.fromStack(stack).toJSON() as { Resources: Record<string, Resource> };
const nested = Template.fromStack(search.stack).toJSON() as { Resources: Record<string, Resource> };
const inNested = (c: IConstruct) => search.stack.getLogicalId(c.node.defaultChild as CfnElement);
const inParent = (c: IConstruct) => stack.getLogicalId(c.node.defaultChild as CfnElement);
const ofType = (resources: Record<string, Resource>, type: string) =>
  Object.entries(resources).filter(([, r]) => r.Type === type);
const actions = (statements: Json[]) => statements.flatMap((s) => [s.Action].flat() as string[]).sort();
const nestedStackId = stack.getLogicalId(search.stack.nestedStackResource as CfnElement);

describe('search cluster', () => {
  it('is Aurora PostgreSQL 15 Serverless v2 at 0 ACU when idle, auto-paused, Data API on, encrypted', () => {
    const [[, cluster]] = ofType(nested.Resources, 'AWS::RDS::DBCluster') as [[string, Resource]];
    expect(cluster.Properties).toMatchObject({
      Engine: 'aurora-postgresql',
      EngineVersion: '15.17',
      DatabaseName: SEARCH_DATABASE,
      EnableHttpEndpoint: true,
      StorageEncrypted: true,
      BackupRetentionPeriod: 7,
      ServerlessV2ScalingConfiguration: {
        MinCapacity: 0,
        MaxCapacity: 16,
        SecondsUntilAutoPause: AUTO_PAUSE.toSeconds(),
      },
    });
    const instances = ofType(nested.Resources, 'AWS::RDS::DBInstance');
    expect(instances).toHaveLength(1);
    expect(instances[0]?.[1].Properties.DBInstanceClass).toBe('db.serverless');
  });

  it("scales to the context's searchMaxCapacity (1 to 256 ACU)", () => {
    const read = (context: Json) => () => readStackContext(new App({ context }).node).searchMaxCapacity;
    expect(read({})()).toBe(16);
    expect(read({ searchMaxCapacity: '64' })()).toBe(64);
    for (const bad of [0, 257, '1.5', 'lots'])
      expect(read({ searchMaxCapacity: bad })).toThrow(/searchMaxCapacity/);
  });

  it('lives in isolated subnets of two zones: no internet or NAT gateway, no literal zone', () => {
    const subnets = ofType(nested.Resources, 'AWS::EC2::Subnet');
    expect(subnets).toHaveLength(2);
    for (const [, s] of subnets) {
      expect(s.Properties.MapPublicIpOnLaunch).toBe(false);
      expect(JSON.stringify(s.Properties.AvailabilityZone)).toContain('Fn::GetAZs');
    }
    for (const type of ['AWS::EC2::InternetGateway', 'AWS::EC2::NatGateway', 'AWS::EC2::EIP'])
      expect(ofType(nested.Resources, type), type).toEqual([]);
  });

  it('is a nested stack of its own, so the parent stays under 500 resources', () => {
    // The parent's bound is test/infra/monitoring.test.ts's (480, with the import routes).
    expect(Object.keys(parent.Resources).length).toBeLessThan(480);
    expect(parent.Resources[nestedStackId]?.Type).toBe('AWS::CloudFormation::Stack');
  });
});

describe('schema migration', () => {
  it('runs on deploy from a custom resource naming the migrations, answered by the migrate function itself', () => {
    const [[, resource]] = ofType(nested.Resources, 'Custom::SearchSchema') as [[string, Resource]];
    expect(resource.Properties).toEqual({
      ServiceToken: { 'Fn::GetAtt': [inNested(search.migrator), 'Arn'] },
      migrations: migrationsHash(),
    });
    // No provider framework: no function but the migrator and the indexer in the nested stack.
    expect(
      ofType(nested.Resources, 'AWS::Lambda::Function')
        .map(([id]) => id)
        .sort(),
    ).toEqual([inNested(search.indexer), inNested(search.migrator)].sort());
  });

  it('goes before the search routes: their functions wait for the nested stack', () => {
    for (const r of routes.filter((route) => route.search)) {
      const fn = stack.functions.get(r.operationId);
      if (!fn) throw new Error(`no function for ${r.operationId}`);
      expect(parent.Resources[inParent(fn)]?.DependsOn, r.operationId).toContain(nestedStackId);
    }
  });
});

describe('who may run statements', () => {
  const dataApi = (statements: Json[]) => actions(statements).filter((a) => a.startsWith('rds-data:'));

  it('only the search routes, the indexer and the migrator: ExecuteStatement alone, on this cluster', () => {
    const searching = routes.filter((r) => r.search).map((r) => r.operationId);
    expect(searching.sort()).toEqual(['customerSearch', 'ticketSearch']);
    for (const r of routes) {
      const fn = stack.functions.get(r.operationId);
      if (!fn) throw new Error(`no function for ${r.operationId}`);
      const statements = functionStatements(parent.Resources as never, inParent(fn));
      const props = parent.Resources[inParent(fn)]?.Properties as { Environment: { Variables: Json } };
      const env = props.Environment.Variables;
      if (!r.search) {
        expect(dataApi(statements), r.operationId).toEqual([]);
        expect(env.SEARCH_CLUSTER_ARN, r.operationId).toBeUndefined();
        continue;
      }
      expect(dataApi(statements), r.operationId).toEqual(['rds-data:ExecuteStatement']);
      expect(
        Object.keys(env)
          .filter((k) => k.startsWith('SEARCH_'))
          .sort(),
        r.operationId,
      ).toEqual(['SEARCH_CLUSTER_ARN', 'SEARCH_DATABASE', 'SEARCH_SECRET_ARN']);
      expect(env.SEARCH_DATABASE).toBe(SEARCH_DATABASE);
      // The cluster's secret (through the nested stack's output), read only.
      const secretActions = actions(
        statements.filter((s) => JSON.stringify(s.Resource).includes('ClusterSecret')),
      );
      expect(secretActions, r.operationId).toEqual([
        'secretsmanager:DescribeSecret',
        'secretsmanager:GetSecretValue',
      ]);
    }
    for (const fn of [search.indexer, search.migrator]) {
      const statements = functionStatements(nested.Resources as never, inNested(fn));
      expect(dataApi(statements)).toEqual(['rds-data:ExecuteStatement']);
      const target = statements.find((s) => s.Action === 'rds-data:ExecuteStatement')?.Resource;
      expect(JSON.stringify(target)).toContain(inNested(search.cluster));
    }
  });
});

describe('indexer', () => {
  const id = inNested(search.indexer);
  it('reads the change-feed events and finished erasures from the stream, retrying 24 h, then its failures queue', () => {
    const [[, mapping]] = ofType(nested.Resources, 'AWS::Lambda::EventSourceMapping') as [[string, Resource]];
    expect(mapping.Properties).toMatchObject({
      FunctionName: { Ref: id },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: -1,
      MaximumRecordAgeInSeconds: 86_400,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [inNested(search.failures), 'Arn'] } } },
    });
    const filters = (mapping.Properties.FilterCriteria as { Filters: { Pattern: string }[] }).Filters;
    expect(filters.map((f) => JSON.parse(f.Pattern))).toEqual([
      {
        eventName: ['INSERT'],
        dynamodb: {
          NewImage: {
            occurredAt: { N: [{ exists: true }] },
            resourceId: { S: [{ exists: true }] },
          },
        },
      },
      {
        eventName: ['MODIFY'],
        dynamodb: { NewImage: { cascade: { S: ['erasure'] }, done: { BOOL: [true] } } },
      },
    ]);
  });

  it('reads the table by key and collection only (GetItem, Query), consistent, and writes nothing there', () => {
    const table = actions(functionStatements(nested.Resources as never, id)).filter(
      (a) => a.startsWith('dynamodb:') && !/Stream|Shard|GetRecords/.test(a),
    );
    expect(table).toEqual(['dynamodb:GetItem', 'dynamodb:Query']);
  });

  it('is alarmed on in the parent stack: records given up on, and falling 10 minutes behind', () => {
    const alarms = search.alarms.map((a) => parent.Resources[inParent(a)] as Resource);
    expect(alarms).toHaveLength(2);
    const [failures, age] = alarms as [Resource, Resource];
    expect(failures.Properties).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(String(failures.Properties.AlarmDescription)).toMatch(/helpdesk search reindex/);
    expect(age.Properties).toMatchObject({
      MetricName: 'IteratorAge',
      Threshold: ITERATOR_AGE_ALARM.toMilliseconds(),
    });
    for (const a of alarms) expect(a.Properties.AlarmActions).toHaveLength(1);
  });
});

describe('several regions', () => {
  it("gives each region's stack its own cluster and indexer, which may read the other regions' replicas (a tenant is read at its home)", () => {
    const regional = buildHelpdeskStacks(
      new App({
        context: {
          'aws:cdk:bundling-stacks': [],
          removalPolicy: 'destroy',
          deletionProtection: 'false',
          regions: 'us-east-1,eu-west-1',
        },
      }),
    );
    expect(regional).toHaveLength(2);
    for (const s of regional) {
      const own = Template.fromStack(s.search.stack).toJSON() as { Resources: Record<string, Resource> };
      expect(ofType(own.Resources, 'AWS::RDS::DBCluster'), s.stackName).toHaveLength(1);
      const id = s.search.stack.getLogicalId(s.search.indexer.node.defaultChild as CfnElement);
      const reads = functionStatements(own.Resources as never, id).filter((st) =>
        [st.Action].flat().includes('dynamodb:Query'),
      );
      const other = s.stackName.endsWith('us-east-1') ? 'eu-west-1' : 'us-east-1';
      expect(JSON.stringify(reads), s.stackName).toContain(`:dynamodb:${other}:`);
    }
  });
});
