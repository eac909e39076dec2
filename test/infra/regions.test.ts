import { App, type CfnElement, Token } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { buildHelpdeskStack, buildHelpdeskStacks } from '../../infra/app';
import type { HelpdeskStack } from '../../infra/helpdesk-stack';
import { signsCursors } from '../../infra/helpdesk-stack';
import { REPLICATION_EVALUATION, REPLICATION_LATENCY_MS } from '../../infra/monitoring';
import { REPLICATED_PREFIX, readRegionsContext } from '../../infra/regions';
import { BLOB_AREAS, type BlobArea, dynamoActions, type Route, routes } from '../../shared/routes';
import { ALL_INDEXES, TTL_ATTRIBUTE } from '../../shared/store/table-schema';
import { functionStatements, roleStatements } from './iam';

// docs/regions.md, "The stacks": one stack per region. As in stack.test.ts, bundling is skipped.

type Json = Record<string, unknown>;
interface Resource {
  Type: string;
  Properties: Json;
  DependsOn?: string[];
}

const ACCOUNT = '123456789012';
const [A, B] = ['us-east-1', 'eu-west-1'] as const;
const BASE = { 'aws:cdk:bundling-stacks': [], removalPolicy: 'destroy', deletionProtection: 'false' };

const appWith = (context: Json): App => new App({ context: { ...BASE, ...context } });
const stacksOf = (context: Json): HelpdeskStack[] => buildHelpdeskStacks(appWith(context));

/** A template with helpers; CloudFormation values flattened as cdk-nag does (`<Id.Attr>`, `<Ref>`). */
const view = (stack: HelpdeskStack) => {
  const template = Template.fromStack(stack);
  const json = template.toJSON() as { Resources: Record<string, Resource> };
  const flat = (node: unknown): string => {
    if (typeof node === 'string') return node;
    const o = node as Json;
    if (Array.isArray(o['Fn::Join'])) {
      const [delimiter, items] = o['Fn::Join'] as [string, unknown[]];
      return items.map(flat).join(delimiter);
    }
    if (Array.isArray(o['Fn::GetAtt'])) return `<${(o['Fn::GetAtt'] as string[]).join('.')}>`;
    if (o.Ref !== undefined) return `<${o.Ref as string}>`;
    return JSON.stringify(node);
  };
  const resources = (type: string): [string, Resource][] =>
    Object.entries(json.Resources).filter(([, r]) => r.Type === type);
  const functionIdOf = (r: Route): string => {
    const name = r.operationId.charAt(0).toUpperCase() + r.operationId.slice(1);
    const ids = resources('AWS::Lambda::Function')
      .map(([id]) => id)
      .filter((id) => id.startsWith(`${name}Function`));
    expect(ids, r.operationId).toHaveLength(1);
    return ids[0] as string;
  };
  const resource = (id: string): Resource => {
    const r = json.Resources[id];
    if (!r) throw new Error(`no resource ${id}`);
    return r;
  };
  /** Every statement of a function's role: its inline policy and the policies attached to it. */
  const statementsOf = (functionId: string): Json[] => functionStatements(json.Resources, functionId);
  const envOf = (functionId: string): Record<string, string> =>
    Object.fromEntries(
      Object.entries(
        (resource(functionId).Properties.Environment as { Variables: Json } | undefined)?.Variables ?? {},
      ).map(([k, v]) => [k, flat(v)]),
    );
  const only = (type: string): [string, Resource] => {
    const found = resources(type);
    expect(found, type).toHaveLength(1);
    return found[0] as [string, Resource];
  };
  return { stack, template, json, flat, resources, resource, functionIdOf, statementsOf, envOf, only };
};
type View = ReturnType<typeof view>;

const actionsIn = (statements: Json[]): string[] =>
  statements.flatMap((s) => [s.Action].flat() as string[]).sort();
const resourcesIn = (v: View, statement: Json): string[] => [statement.Resource].flat().map((r) => v.flat(r));
const withPrefix = (statements: Json[], prefix: string) =>
  statements.filter((s) => actionsIn([s]).some((a) => a.startsWith(prefix)));

const tableArn = (region: string) => `arn:<AWS::Partition>:dynamodb:${region}:${ACCOUNT}:table/helpdesk-dev`;
const bucketName = (region: string) => `helpdesk-dev-attachments-${ACCOUNT}-${region}`;
const bucketArn = (region: string) => `arn:<AWS::Partition>:s3:::${bucketName(region)}`;

// The deployment the tests look at: two regions, the primary first, an explicit account.
const [primaryStack, secondaryStack] = stacksOf({ regions: `${A},${B}`, primaryRegion: A, account: ACCOUNT });
const primary = view(primaryStack as HelpdeskStack);
const secondary = view(secondaryStack as HelpdeskStack);
const both: [string, View][] = [
  [A, primary],
  [B, secondary],
];
// The same routes in one region: what each function may do there, action for action.
const single = view(buildHelpdeskStack(appWith({})));

const idOf = (v: View, c: IConstruct): string => v.stack.getLogicalId(c.node.defaultChild as CfnElement);

/** A stack's own table ARN as its grants name it: the primary's by attribute, the others' by name. */
const ownTableArn = (v: View): string => v.flat(v.stack.resolve(v.stack.table.tableArn));
const ownBucketArn = (v: View): string => v.flat(v.stack.resolve(v.stack.attachments.bucket.bucketArn));

describe('stacks', () => {
  it('builds one stack per region, named after it, pinned to its account and region, the primary first', () => {
    expect([primary.stack.stackName, secondary.stack.stackName]).toEqual([
      `Helpdesk-dev-${A}`,
      `Helpdesk-dev-${B}`,
    ]);
    expect(primary.stack.region).toBe(A);
    expect(secondary.stack.region).toBe(B);
    expect([primary.stack.account, secondary.stack.account]).toEqual([ACCOUNT, ACCOUNT]);
    // The others reference the primary's replicas: they deploy after it.
    expect(secondary.stack.dependencies).toEqual([primary.stack]);
    expect(primary.stack.dependencies).toEqual([]);
  });

  it('takes the primary from primaryRegion (default: the first region) and builds it first', () => {
    const stacks = stacksOf({ regions: `${A},${B}`, primaryRegion: B });
    expect(stacks.map((s) => s.stackName)).toEqual([`Helpdesk-dev-${B}`, `Helpdesk-dev-${A}`]);
    expect(stacks.map((s) => s.regional?.isPrimary)).toEqual([true, false]);
    expect(readRegionsContext(appWith({ regions: `${B},${A}` }).node)?.primaryRegion).toBe(B);
  });

  it('takes the account from the CLI (CDK_DEFAULT_ACCOUNT) unless -c account is given, else leaves it to deployment', () => {
    const saved = process.env.CDK_DEFAULT_ACCOUNT;
    try {
      delete process.env.CDK_DEFAULT_ACCOUNT;
      expect(Token.isUnresolved(stacksOf({ regions: `${A},${B}` })[0]?.account)).toBe(true);
      process.env.CDK_DEFAULT_ACCOUNT = '210987654321';
      expect(stacksOf({ regions: `${A},${B}` }).map((s) => s.account)).toEqual([
        '210987654321',
        '210987654321',
      ]);
      expect(stacksOf({ regions: `${A},${B}`, account: ACCOUNT })[1]?.account).toBe(ACCOUNT);
    } finally {
      if (saved === undefined) delete process.env.CDK_DEFAULT_ACCOUNT;
      else process.env.CDK_DEFAULT_ACCOUNT = saved;
    }
  });

  it('reads regions from cdk.json as a list too', () => {
    expect(stacksOf({ regions: [A, B] }).map((s) => s.stackName)).toEqual([
      `Helpdesk-dev-${A}`,
      `Helpdesk-dev-${B}`,
    ]);
  });

  it('builds exactly the single-region stack without regions, and with one region pinned to it', () => {
    const agnostic = buildHelpdeskStack(appWith({}));
    expect(agnostic.stackName).toBe('Helpdesk-dev');
    expect(Token.isUnresolved(agnostic.region)).toBe(true);
    expect(agnostic.regional).toBeUndefined();
    const pinned = stacksOf({ regions: B, account: ACCOUNT });
    expect(pinned.map((s) => [s.stackName, s.region, s.account])).toEqual([['Helpdesk-dev', B, ACCOUNT]]);
    expect(pinned[0]?.regional).toBeUndefined();
    // The same resources under the same logical ids: pinning changes no resource.
    const shape = (s: HelpdeskStack) =>
      Object.entries(Template.fromStack(s).toJSON().Resources as Record<string, Resource>)
        .map(([id, r]) => `${id} ${r.Type}`)
        .sort();
    expect(shape(pinned[0] as HelpdeskStack)).toEqual(shape(agnostic));
    for (const [id] of single.resources('AWS::Lambda::Function')) {
      expect(Object.keys(single.envOf(id)), id).not.toContain('REGIONS');
      expect(Object.keys(single.envOf(id)), id).not.toContain('PRIMARY_REGION');
    }
  });

  it('refuses buildHelpdeskStack with several regions', () => {
    expect(() => buildHelpdeskStack(appWith({ regions: `${A},${B}` }))).toThrow(/buildHelpdeskStacks/);
  });
});

describe('table', () => {
  const [, table] = primary.only('AWS::DynamoDB::GlobalTable');
  const p = table.Properties;

  it('is owned by the primary under a fixed name, with a replica in every region, each with point-in-time recovery', () => {
    expect(p.TableName).toBe('helpdesk-dev');
    const replicas = p.Replicas as Json[];
    expect(replicas.map((r) => r.Region).sort()).toEqual([A, B].sort());
    for (const replica of replicas) {
      expect(replica.PointInTimeRecoverySpecification, replica.Region as string).toEqual({
        PointInTimeRecoveryEnabled: true,
      });
      expect((replica.GlobalSecondaryIndexes as Json[]).map((i) => i.IndexName).sort()).toEqual(
        ALL_INDEXES.map((i) => i.name).sort(),
      );
    }
    expect(secondary.resources('AWS::DynamoDB::GlobalTable')).toEqual([]);
  });

  it('keeps the stream (new and old images), TTL and the indexes', () => {
    expect(p.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(p.TimeToLiveSpecification).toEqual({ AttributeName: TTL_ATTRIBUTE, Enabled: true });
    expect(p.GlobalSecondaryIndexes as Json[]).toHaveLength(ALL_INDEXES.length);
  });

  it('protects every replica from deletion when the context says so', () => {
    const [protectedPrimary] = buildHelpdeskStacks(
      new App({ context: { 'aws:cdk:bundling-stacks': [], regions: `${A},${B}` } }),
    );
    const [, t] = view(protectedPrimary as HelpdeskStack).only('AWS::DynamoDB::GlobalTable');
    for (const replica of t.Properties.Replicas as Json[])
      expect(replica.DeletionProtectionEnabled, replica.Region as string).toBe(true);
  });

  it("gives the other region its replica's stream from DescribeTable there, with nothing but DescribeTable on that replica", () => {
    const [crId, cr] = secondary.only('Custom::AWS');
    for (const call of ['Create', 'Update']) {
      expect(JSON.parse(cr.Properties[call] as string), call).toMatchObject({
        service: 'DynamoDB',
        action: 'describeTable',
        parameters: { TableName: 'helpdesk-dev' },
        outputPaths: ['Table.LatestStreamArn'],
      });
    }
    const [, mapping] = secondary
      .resources('AWS::Lambda::EventSourceMapping')
      .find(([, m]) => JSON.stringify(m.Properties).includes('StartingPosition')) as [string, Resource];
    expect(mapping.Properties.EventSourceArn).toEqual({ 'Fn::GetAtt': [crId, 'Table.LatestStreamArn'] });
    const [, policy] = secondary
      .resources('AWS::IAM::Policy')
      .find(([id]) => id.startsWith('TableReplicaStreamCustomResourcePolicy')) as [string, Resource];
    const statements = (policy.Properties.PolicyDocument as { Statement: Json[] }).Statement;
    expect(statements.map((s) => [s.Action, resourcesIn(secondary, s)])).toEqual([
      ['dynamodb:DescribeTable', [tableArn(B)]],
    ]);
    // The provider's role is ours: its own log group, no managed policy.
    for (const [, role] of secondary.resources('AWS::IAM::Role'))
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(primary.resources('Custom::AWS')).toEqual([]);
  });

  it('tells every function of the other region the table by its name', () => {
    for (const [id] of secondary.resources('AWS::Lambda::Function')) {
      const env = secondary.envOf(id);
      if (env.TABLE_NAME !== undefined) expect(env.TABLE_NAME, id).toBe('helpdesk-dev');
    }
  });
});

describe('cursor secret', () => {
  it('is created once, in the primary, under a fixed name, and replicated to the other region', () => {
    const [, secret] = primary.only('AWS::SecretsManager::Secret');
    expect(secret.Properties).toMatchObject({
      Name: 'helpdesk/dev/cursor-key',
      ReplicaRegions: [{ Region: B }],
      GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true },
    });
    expect(secondary.resources('AWS::SecretsManager::Secret')).toEqual([]);
    // Rotation, if any, is the primary's: the replicas receive each version.
    expect(secondary.resources('AWS::SecretsManager::RotationSchedule')).toEqual([]);
  });

  it('lets list functions of the other region read the replica there, by name, and no other', () => {
    const partial = `arn:<AWS::Partition>:secretsmanager:${B}:${ACCOUNT}:secret:helpdesk/dev/cursor-key`;
    for (const r of routes) {
      const id = secondary.functionIdOf(r);
      const reads = withPrefix(secondary.statementsOf(id), 'secretsmanager:');
      if (!signsCursors(r)) {
        expect(reads, r.operationId).toEqual([]);
        expect(secondary.envOf(id).CURSOR_SECRET_ARN, r.operationId).toBeUndefined();
        continue;
      }
      expect(secondary.envOf(id).CURSOR_SECRET_ARN, r.operationId).toBe(partial);
      // A search also reads its region's search cluster secret (infra/search.ts): its own nested stack's.
      expect(
        reads.flatMap((s) => resourcesIn(secondary, s)).filter((arn) => !arn.includes('SearchStack')),
        r.operationId,
      ).toEqual([`${partial}-??????`]);
    }
  });

  it("is an output of every region's stack: the primary's secret there, this region's replica elsewhere", () => {
    const C = 'ap-southeast-2';
    const stacks = stacksOf({ regions: `${A},${B},${C}`, primaryRegion: C, account: ACCOUNT }).map(view);
    for (const v of [primary, secondary, ...stacks]) {
      const output = (v.json as { Outputs?: Record<string, { Value: unknown }> }).Outputs?.CursorSecretArn;
      const label = v.stack.stackName;
      expect(output, label).toBeDefined();
      if (v.stack.region === v.stack.regional?.primaryRegion) {
        const [secretId] = v.only('AWS::SecretsManager::Secret');
        expect(output?.Value, label).toEqual({ Ref: secretId });
      } else {
        expect(v.flat(output?.Value), label).toBe(
          `arn:<AWS::Partition>:secretsmanager:${v.stack.region}:${ACCOUNT}:secret:helpdesk/dev/cursor-key`,
        );
      }
    }
  });
});

describe('cursor key rotation', () => {
  it("rotates the primary's secret only, with the primary's rotation function", () => {
    expect(primary.stack.rotatesCursorKey).toBe(true);
    const [secretId] = primary.only('AWS::SecretsManager::Secret');
    const rotationId = idOf(primary, primary.stack.cursorKeyRotation);
    const [, schedule] = primary.only('AWS::SecretsManager::RotationSchedule');
    expect(schedule.Properties).toEqual({
      SecretId: { Ref: secretId },
      RotationLambdaARN: { 'Fn::GetAtt': [rotationId, 'Arn'] },
      RotationRules: { ScheduleExpression: 'rate(90 days)' },
      RotateImmediatelyOnUpdate: false,
    });
    // Its grants name the primary's secret (the one it rotates) and no replica, table or bucket.
    const statements = primary.statementsOf(rotationId);
    expect(withPrefix(statements, 'secretsmanager:').flatMap((st) => resourcesIn(primary, st))).toEqual([
      `<${secretId}>`,
      '*',
    ]);
    expect(withPrefix(statements, 'dynamodb:')).toEqual([]);
    expect(withPrefix(statements, 's3:')).toEqual([]);
  });

  it('leaves the other regions without a schedule or a rotation function: their replica follows the primary', () => {
    expect(secondary.stack.rotatesCursorKey).toBe(false);
    expect(() => secondary.stack.cursorKeyRotation).toThrow(/does not rotate the cursor secret.*us-east-1/);
    expect(secondary.resources('AWS::SecretsManager::RotationSchedule')).toEqual([]);
    expect(
      secondary.resources('AWS::Lambda::Function').filter(([id]) => id.startsWith('CursorKeyRotation')),
    ).toEqual([]);
    // Nothing there that Secrets Manager could invoke.
    const invokers = secondary
      .resources('AWS::Lambda::Permission')
      .filter(([, p]) => p.Properties.Principal === 'secretsmanager.amazonaws.com');
    expect(invokers).toEqual([]);
  });

  it('follows the primary region wherever it is, one schedule in the whole deployment', () => {
    const C = 'ap-southeast-2';
    const stacks = stacksOf({ regions: `${A},${B},${C}`, primaryRegion: C, account: ACCOUNT }).map(view);
    expect(stacks.map((v) => [v.stack.region, v.stack.rotatesCursorKey])).toEqual([
      [C, true],
      [A, false],
      [B, false],
    ]);
    expect(stacks.map((v) => v.resources('AWS::SecretsManager::RotationSchedule').length)).toEqual([1, 0, 0]);
    // The deployment's three tables, each route granted its actions on all of them (see functions).
    for (const v of stacks) {
      const own = ownTableArn(v);
      const others = [A, B, C].filter((r) => r !== v.stack.region).map(tableArn);
      for (const r of routes.filter((x) => x.access !== 'none')) {
        const label = `${v.stack.region} ${r.operationId}`;
        const statements = withPrefix(v.statementsOf(v.functionIdOf(r)), 'dynamodb:');
        expect(actionsIn(statements), label).toEqual(
          actionsIn(withPrefix(single.statementsOf(single.functionIdOf(r)), 'dynamodb:')),
        );
        for (const st of statements.filter((x) => !x.Condition)) {
          const onIndexes = resourcesIn(v, st).some((x) => x.endsWith('/index/*'));
          const expected = [own, ...others].map((arn) => (onIndexes ? `${arn}/index/*` : arn));
          expect(resourcesIn(v, st), label).toEqual(expected);
        }
      }
    }
  }, 120_000); // three more stacks
});

describe('attachments buckets', () => {
  it("are named per region, versioned, and replicate attached files (t/), with deletions, to the other region's bucket", () => {
    for (const [region, v] of both) {
      const other = region === A ? B : A;
      const bucket = v.resource(v.stack.resolve(v.stack.attachments.bucket.bucketName).Ref as string);
      expect(bucket.Properties.BucketName, region).toBe(bucketName(region));
      expect(bucket.Properties.VersioningConfiguration, region).toEqual({ Status: 'Enabled' });
      const replication = bucket.Properties.ReplicationConfiguration as { Role: unknown; Rules: Json[] };
      expect(
        replication.Rules.map((rule) => ({
          ...rule,
          Destination: v.flat((rule.Destination as Json).Bucket),
        })),
      ).toEqual([
        {
          Id: `to-${other}`,
          Status: 'Enabled',
          Priority: 1,
          Filter: { Prefix: REPLICATED_PREFIX },
          DeleteMarkerReplication: { Status: 'Enabled' },
          Destination: bucketArn(other),
        },
      ]);
      // A role of its own, which S3 alone assumes, with the documented minimum on t/ only.
      const roleId = (replication.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0] as string;
      expect(v.resource(roleId).Properties.AssumeRolePolicyDocument).toMatchObject({
        Statement: [
          { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 's3.amazonaws.com' } },
        ],
      });
      const statements = roleStatements(v.json.Resources, roleId);
      expect(statements.map((s) => [actionsIn([s]), resourcesIn(v, s)])).toEqual([
        [['s3:GetReplicationConfiguration', 's3:ListBucket'], [ownBucketArn(v)]],
        [
          ['s3:GetObjectVersionAcl', 's3:GetObjectVersionForReplication', 's3:GetObjectVersionTagging'],
          [`${ownBucketArn(v)}/t/*`],
        ],
        [['s3:ReplicateDelete', 's3:ReplicateObject', 's3:ReplicateTags'], [`${bucketArn(other)}/t/*`]],
      ]);
    }
  });

  it('replicate to every other region, except to the buckets of regions this deployment creates (newRegions)', () => {
    const C = 'ap-southeast-2';
    const stacks = stacksOf({ regions: `${A},${B},${C}`, newRegions: C, account: ACCOUNT }).map(view);
    const destinations = (v: View) => {
      const bucket = v.resource(v.stack.resolve(v.stack.attachments.bucket.bucketName).Ref as string);
      const rules = (bucket.Properties.ReplicationConfiguration as { Rules: Json[] }).Rules;
      expect(new Set(rules.map((r) => r.Priority)).size, v.stack.region).toBe(rules.length);
      return rules.map((r) => v.flat((r.Destination as Json).Bucket));
    };
    expect(stacks.map((v) => [v.stack.region, destinations(v)])).toEqual([
      [A, [bucketArn(B)]],
      [B, [bucketArn(A)]],
      [C, [bucketArn(A), bucketArn(B)]],
    ]);
    // The next deployment, without newRegions, replicates everywhere.
    const after = stacksOf({ regions: `${A},${B},${C}`, account: ACCOUNT }).map(view);
    expect(after.map((v) => destinations(v).length)).toEqual([2, 2, 2]);
  });

  it('keep bucket names within S3 limits, or fail synthesis naming the stage', () => {
    expect(() => stacksOf({ regions: 'us-east-1,ap-southeast-2', stage: 'a-stage-of-15ch' })).toThrow(
      /'stage' \(a-stage-of-15ch\) is too long for the attachments buckets' names.*64 characters, S3 allows 63/,
    );
    expect(() => stacksOf({ regions: 'us-east-1,ap-southeast-2', stage: 'stage-of-14chr' })).not.toThrow();
  });
});

describe('functions', () => {
  it("tell every function the regions and the primary, and blob routes every region's bucket", () => {
    const buckets = `${A}=${bucketName(A)},${B}=${bucketName(B)}`;
    for (const [region, v] of both) {
      for (const [id] of v.resources('AWS::Lambda::Function')) {
        if (id.startsWith('AWS679f53fac002430cb0da5b7982bd2287')) continue; // the DescribeTable provider
        // The primary's key rotation touches the secret alone, wherever its replicas are.
        if (v.stack.rotatesCursorKey && id === idOf(v, v.stack.cursorKeyRotation)) {
          expect(Object.keys(v.envOf(id)).sort(), id).toEqual(['LOG_LEVEL', 'POWERTOOLS_SERVICE_NAME']);
          continue;
        }
        expect(v.envOf(id), `${region} ${id}`).toMatchObject({ REGIONS: `${A},${B}`, PRIMARY_REGION: A });
        expect(v.envOf(id).PUBLIC_BASE_URL, id).toBeUndefined();
      }
      for (const r of routes) {
        const env = v.envOf(v.functionIdOf(r));
        expect(env.BUCKETS, `${region} ${r.operationId}`).toBe(r.blobs ? buckets : undefined);
        // Its own region's bucket, where nothing says otherwise (shared/blobs/s3.ts).
        if (r.blobs)
          expect(env.BUCKET_NAME, r.operationId).toBe(
            v.flat(v.stack.resolve(v.stack.attachments.bucket.bucketName)),
          );
      }
    }
  });

  it('grant each route exactly its one-region DynamoDB actions, on the table in every region, and rate-limit leases at home only', () => {
    for (const [region, v] of both) {
      const own = ownTableArn(v);
      const other = tableArn(region === A ? B : A);
      for (const r of routes.filter((x) => x.access !== 'none')) {
        const statements = withPrefix(v.statementsOf(v.functionIdOf(r)), 'dynamodb:');
        const oneRegion = withPrefix(single.statementsOf(single.functionIdOf(r)), 'dynamodb:');
        const label = `${region} ${r.operationId}`;
        // Not one action more than in one region.
        expect(actionsIn(statements), label).toEqual(actionsIn(oneRegion));
        for (const s of statements) {
          const onIndexes = resourcesIn(v, s).some((x) => x.endsWith('/index/*'));
          if (s.Condition) {
            // Each region counts its own rate-limit windows (shared/store/rate-limit-leases.ts).
            expect([s.Action, resourcesIn(v, s)], label).toEqual(['dynamodb:UpdateItem', [own]]);
          } else if (onIndexes) {
            expect(resourcesIn(v, s), label).toEqual([`${own}/index/*`, `${other}/index/*`]);
          } else {
            expect(resourcesIn(v, s), label).toEqual([own, other]);
          }
        }
        expect(
          statements.some((s) => resourcesIn(v, s).some((x) => x.endsWith('/index/*'))),
          label,
        ).toBe(dynamoActions(r).includes('index:Query'));
      }
    }
  });

  it("grant each blob route its one-region object actions on every region's bucket", () => {
    const areaOf = (resource: string): [string, BlobArea] | undefined => {
      for (const [area, pattern] of Object.entries(BLOB_AREAS) as [BlobArea, string][]) {
        if (resource.endsWith(`/${pattern}`)) return [resource.slice(0, -pattern.length - 1), area];
      }
      return undefined;
    };
    /** action → bucket → areas, from a function's S3 statements. */
    const granted = (v: View, r: Route) => {
      const out: Record<string, Record<string, string[]>> = {};
      for (const s of withPrefix(v.statementsOf(v.functionIdOf(r)), 's3:')) {
        for (const action of actionsIn([s])) {
          for (const resource of resourcesIn(v, s)) {
            const [bucket, area] = areaOf(resource) ?? [resource, 'bucket'];
            const byBucket = out[action] ?? {};
            byBucket[bucket] = [...(byBucket[bucket] ?? []), area];
            out[action] = byBucket;
          }
        }
      }
      for (const byBucket of Object.values(out)) for (const areas of Object.values(byBucket)) areas.sort();
      return out;
    };
    for (const [region, v] of both) {
      const own = ownBucketArn(v);
      const other = bucketArn(region === A ? B : A);
      for (const r of routes.filter((x) => x.blobs)) {
        const inOneRegion = granted(single, r);
        const singleBucket = ownBucketArn(single);
        const expected = Object.fromEntries(
          Object.entries(inOneRegion).map(([action, byBucket]) => {
            const areas = byBucket[singleBucket] as string[];
            return [action, { [own]: areas, [other]: areas }];
          }),
        );
        expect(granted(v, r), `${region} ${r.operationId}`).toEqual(expected);
      }
      for (const r of routes.filter((x) => !x.blobs))
        expect(withPrefix(v.statementsOf(v.functionIdOf(r)), 's3:'), r.operationId).toEqual([]);
    }
  });

  it("keep the webhook functions on their own region's table", () => {
    for (const [, v] of both) {
      const own = ownTableArn(v);
      for (const fn of [v.stack.webhooks.fanout, v.stack.webhooks.deliver]) {
        const id = v.stack.getLogicalId(fn.node.defaultChild as never);
        for (const s of withPrefix(v.statementsOf(id), 'dynamodb:')) {
          for (const res of resourcesIn(v, s))
            expect(res.startsWith(own) || res.includes('Stream'), `${id} ${res}`).toBe(true);
        }
      }
    }
  });
});

describe('monitoring', () => {
  const nestedOf = (v: View) => {
    const { monitoring } = v.stack;
    const nested = Template.fromStack(monitoring.stack).toJSON() as { Resources: Record<string, Resource> };
    const nestedId = v.stack.getLogicalId(monitoring.stack.nestedStackResource as CfnElement);
    const passed = v.resource(nestedId).Properties.Parameters as Json;
    // Parameters swapped for what the parent passes: values compare against the parent's ids.
    const inParent = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value), (_key, x) =>
        x && typeof x === 'object' && typeof x.Ref === 'string' && x.Ref in passed ? passed[x.Ref] : x,
      );
    const alarms = Object.values(nested.Resources)
      .filter((r) => r.Type === 'AWS::CloudWatch::Alarm')
      .map((r) => inParent(r.Properties) as Json);
    return { nestedId, alarms };
  };
  /** Every `Name` dimension's value in the alarms, flattened as the parent names it. */
  const dimensions = (v: View, alarms: Json[], name: string): Set<string> => {
    const found = new Set<string>();
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) for (const x of node) visit(x);
      else if (node && typeof node === 'object') {
        const o = node as Json;
        if (o.Name === name && o.Value !== undefined) found.add(v.flat(o.Value));
        for (const x of Object.values(o)) visit(x);
      }
    };
    visit(alarms);
    return found;
  };
  const singleAlarms = nestedOf(single).alarms.map((a) => String(a.AlarmName).replace(/^Helpdesk-dev-/, ''));

  it("is in every region's stack, a nested stack of its own, with the same alarms as one region's", () => {
    for (const [region, v] of both) {
      const { nestedId, alarms } = nestedOf(v);
      expect(
        v.resources('AWS::CloudFormation::Stack').map(([id]) => id),
        region,
      ).toEqual([v.stack.getLogicalId(v.stack.search.stack.nestedStackResource as CfnElement), nestedId]);
      // Named after the region's stack: the regions' alarms do not collide in one account.
      const prefix = `Helpdesk-dev-${region}-`;
      for (const a of alarms) expect(String(a.AlarmName), region).toMatch(new RegExp(`^${prefix}`));
      // One more per other region: its replication latency (below).
      const own = alarms.filter((a) => !String(a.AlarmName).includes('-Replication-Latency-'));
      expect(own.map((a) => String(a.AlarmName).slice(prefix.length)).sort(), region).toEqual(
        [...singleAlarms].sort(),
      );
      expect(v.json).toMatchObject({ Outputs: { AlarmTopicArn: expect.anything() } });
    }
  });

  it('alarms on replication latency to every other region, and a single region has no such alarm', () => {
    const latencyOf = (alarms: Json[]) =>
      alarms.filter((a) => String(a.AlarmName).includes('-Replication-Latency-'));
    for (const [region, v] of both) {
      const other = region === A ? B : A;
      const latency = latencyOf(nestedOf(v).alarms);
      expect(
        latency.map((a) => a.AlarmName),
        region,
      ).toEqual([`Helpdesk-dev-${region}-Replication-Latency-${other}`]);
      expect(latency[0], region).toMatchObject({
        Threshold: REPLICATION_LATENCY_MS,
        ComparisonOperator: 'GreaterThanThreshold',
        EvaluationPeriods: REPLICATION_EVALUATION.evaluationPeriods,
        DatapointsToAlarm: REPLICATION_EVALUATION.datapointsToAlarm,
        Metrics: [
          {
            MetricStat: {
              Metric: { Namespace: 'AWS/DynamoDB', MetricName: 'ReplicationLatency' },
              Period: REPLICATION_EVALUATION.period.toSeconds(),
              Stat: 'Average',
            },
          },
        ],
      });
      expect([...dimensions(v, latency, 'ReceivingRegion')], region).toEqual([other]);
      expect([...dimensions(v, latency, 'TableName')], region).toEqual([
        v.flat(v.stack.resolve(v.stack.table.tableName)),
      ]);
      expect(String(latency[0]?.AlarmDescription), region).toContain(other);
    }
    expect(latencyOf(nestedOf(single).alarms)).toEqual([]);
  });

  it("watches the region's own table (the primary's by reference, a replica by name) and its own functions", () => {
    for (const [region, v] of both) {
      const { alarms } = nestedOf(v);
      expect([...dimensions(v, alarms, 'TableName')], region).toEqual([
        v.flat(v.stack.resolve(v.stack.table.tableName)),
      ]);
      const functions = dimensions(v, alarms, 'FunctionName');
      for (const r of routes)
        expect(functions, `${region} ${r.operationId}`).toContain(`<${v.functionIdOf(r)}>`);
    }
    expect(secondary.flat(secondary.stack.resolve(secondary.stack.table.tableName))).toBe('helpdesk-dev');
  });
});

describe('webhook fan-out', () => {
  it("takes from each region's stream only the events, redeliveries and cascades written in that region", () => {
    for (const [region, v] of both) {
      const patterns = v
        .resources('AWS::Lambda::EventSourceMapping')
        .flatMap(
          ([, m]) =>
            (m.Properties.FilterCriteria as { Filters: { Pattern: string }[] } | undefined)?.Filters ?? [],
        )
        .map((f) => JSON.parse(f.Pattern));
      expect(patterns, region).toEqual([
        {
          eventName: ['INSERT'],
          dynamodb: {
            NewImage: {
              occurredAt: { N: [{ exists: true }] },
              resourceId: { S: [{ exists: true }] },
              importId: { S: [{ exists: false }] },
              region: { S: [region] },
            },
          },
        },
        {
          eventName: ['INSERT', 'MODIFY'],
          dynamodb: {
            NewImage: {
              redeliverOf: { S: [{ exists: true }] },
              done: { BOOL: [false] },
              region: { S: [region] },
            },
          },
        },
        // The cascade worker: the cascades written in this region, and the trashed tickets TTL
        // removed that were trashed in it.
        {
          eventName: ['INSERT'],
          dynamodb: { NewImage: { cascade: { S: [{ exists: true }] }, region: { S: [region] } } },
        },
        {
          eventName: ['REMOVE'],
          userIdentity: { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] },
          dynamodb: { OldImage: { entity: { S: ['TRASHED_TICKET'] }, region: { S: [region] } } },
        },
      ]);
    }
    // One region: no region filter (event and cascade items then have no region attribute).
    const oneRegion = single
      .resources('AWS::Lambda::EventSourceMapping')
      .filter(([, m]) => m.Properties.FilterCriteria !== undefined);
    expect(oneRegion).toHaveLength(2);
    for (const [, m] of oneRegion)
      expect(JSON.stringify(m.Properties.FilterCriteria)).not.toContain('region');
  });
});

describe('custom domain', () => {
  const certificate = (region: string) => `arn:aws:acm:${region}:${ACCOUNT}:certificate/cert-${region}`;
  const DOMAIN = {
    domainName: 'api.example.com',
    hostedZoneId: 'Z0123456789ABC',
    hostedZoneName: 'example.com',
    certificateArns: JSON.stringify({ [A]: certificate(A), [B]: certificate(B) }),
  };

  it("maps each region's API to the domain with its regional certificate, under a latency record of that region", () => {
    const stacks = stacksOf({ regions: `${A},${B}`, account: ACCOUNT, ...DOMAIN }).map(view);
    for (const v of stacks) {
      const region = v.stack.region;
      const [domainId, domain] = v.only('AWS::ApiGatewayV2::DomainName');
      expect(domain.Properties).toMatchObject({
        DomainName: 'api.example.com',
        DomainNameConfigurations: [
          { CertificateArn: certificate(region), EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' },
        ],
      });
      const [, mapping] = v.only('AWS::ApiGatewayV2::ApiMapping');
      const [apiId] = v.only('AWS::ApiGatewayV2::Api');
      expect(mapping.Properties).toEqual({
        ApiId: { Ref: apiId },
        DomainName: { Ref: domainId },
        Stage: '$default',
      });
      const [, record] = v.only('AWS::Route53::RecordSet');
      expect(record.Properties).toEqual({
        Name: 'api.example.com.',
        Type: 'A',
        HostedZoneId: 'Z0123456789ABC',
        Region: region,
        SetIdentifier: region,
        AliasTarget: {
          DNSName: { 'Fn::GetAtt': [domainId, 'RegionalDomainName'] },
          HostedZoneId: { 'Fn::GetAtt': [domainId, 'RegionalHostedZoneId'] },
        },
      });
      // Links in answers and deliveries name the domain, not the region's own API address.
      for (const r of routes)
        expect(v.envOf(v.functionIdOf(r)).PUBLIC_BASE_URL).toBe('https://api.example.com');
      const deliver = v.stack.getLogicalId(v.stack.webhooks.deliver.node.defaultChild as never);
      expect(v.envOf(deliver)).toMatchObject({
        PUBLIC_BASE_URL: 'https://api.example.com',
        DELIVERY_BASE_URL: 'https://api.example.com',
      });
    }
  });

  it('creates nothing of the kind without the domain context', () => {
    for (const [, v] of both) {
      for (const type of [
        'AWS::ApiGatewayV2::DomainName',
        'AWS::ApiGatewayV2::ApiMapping',
        'AWS::Route53::RecordSet',
      ])
        expect(v.resources(type), type).toEqual([]);
      const deliver = v.stack.getLogicalId(v.stack.webhooks.deliver.node.defaultChild as never);
      expect(v.envOf(deliver).DELIVERY_BASE_URL).toMatch(/^https:\/\/<ApiF70053CD>\.execute-api\./);
    }
  });

  it('refuses an incomplete or inconsistent domain context', () => {
    const build = (context: Json) => () => stacksOf({ regions: `${A},${B}`, ...DOMAIN, ...context });
    expect(build({ hostedZoneId: undefined })).toThrow(/missing: hostedZoneId/);
    expect(build({ certificateArns: JSON.stringify({ [A]: certificate(A) }) })).toThrow(
      /no certificate for eu-west-1/,
    );
    expect(build({ certificateArns: JSON.stringify({ [A]: certificate(A), [B]: certificate(A) }) })).toThrow(
      /certificateArns.eu-west-1' is a certificate in us-east-1/,
    );
    expect(build({ certificateArns: '{nope' })).toThrow(/'certificateArns' must be JSON/);
    expect(build({ domainName: 'api.example.org' })).toThrow(/not in the hosted zone 'example.com'/);
    expect(() => stacksOf({ ...DOMAIN })).toThrow(/'domainName' needs the regions/);
    expect(() => stacksOf({ regions: A, ...DOMAIN })).toThrow(/at least two/);
  });
});

describe('validation', () => {
  const build = (context: Json) => () => stacksOf(context);

  it('fails synthesis with the key to fix', () => {
    expect(build({ regions: `${A},${B}`, primaryRegion: 'ap-south-1' })).toThrow(
      /'primaryRegion' \(ap-south-1\) must be one of the regions: us-east-1, eu-west-1/,
    );
    expect(build({ regions: `${A},${A}` })).toThrow(/'regions' names us-east-1 twice/);
    expect(build({ regions: `${A},Europe` })).toThrow(
      /'regions' must be comma-separated region names.*'Europe'/,
    );
    expect(build({ regions: `${A},` })).toThrow(/'regions' must be comma-separated region names/);
    expect(build({ regions: `${A},${B}`, account: '1234' })).toThrow(/'account' must be a 12-digit/);
    expect(build({ primaryRegion: A })).toThrow(/'primaryRegion' needs the regions/);
    expect(build({ regions: `${A},${B}`, newRegions: A })).toThrow(/'newRegions' names the primary region/);
    expect(build({ regions: `${A},${B}`, newRegions: 'ap-south-1' })).toThrow(/not one of the regions/);
  });

  it('refuses to adopt an existing table or bucket with several regions', () => {
    for (const key of ['existingTableName', 'existingTableStreamArn', 'existingBucketName']) {
      expect(build({ regions: `${A},${B}`, [key]: 'helpdesk-restored' }), key).toThrow(
        new RegExp(`'${key}'.*cannot be combined with 'regions'.*Not supported`),
      );
    }
  });
});

describe('synthesis', () => {
  it('passes cdk-nag and CloudFormation schema validation for every stack', () => {
    const app = appWith({ regions: `${A},${B}`, '@aws-cdk/core:validateAgainstDefaultRules': true });
    expect(buildHelpdeskStacks(app)).toHaveLength(2);
    expect(() => app.synth()).not.toThrow();
  });
});
