import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnRotationSchedule } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { buildHelpdeskStack } from '../../infra/app';
import { HelpdeskStack } from '../../infra/helpdesk-stack';
import { readStackContext } from '../../infra/stack-context';
import { dynamoActions, routes } from '../../shared/routes';
import { workers } from '../../shared/workers';
import { acknowledgedIn } from './acknowledged';
import { functionStatements } from './iam';

/**
 * Operations (issue 14): the cursor key's rotation schedule and function, and the stack adopting
 * an existing table (a point-in-time restore) or bucket instead of creating them.
 */
type Json = Record<string, unknown>;
interface Resource {
  Type: string;
  Properties: Json;
  DependsOn?: string[];
}
interface Built {
  stack: HelpdeskStack;
  resources: Record<string, Resource>;
  outputs: Record<string, { Value: unknown }>;
}

const build = (context: Json = {}): Built => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = buildHelpdeskStack(app);
  const json = Template.fromStack(stack).toJSON();
  return { stack, resources: json.Resources, outputs: json.Outputs };
};

const TABLE = 'helpdesk-restored';
const STREAM_ARN = `arn:aws:dynamodb:us-east-1:123456789012:table/${TABLE}/stream/2026-01-01T00:00:00.000`;
const TABLE_ARN = `arn:aws:dynamodb:us-east-1:123456789012:table/${TABLE}`;
const BUCKET = 'my-bucket';
const ADOPT_TABLE = { existingTableName: TABLE, existingTableStreamArn: STREAM_ARN };
const ADOPT_BUCKET = { existingBucketName: BUCKET };

const byDefault = build();
const adoptedTable = build(ADOPT_TABLE);
const adoptedBoth = build({ ...ADOPT_TABLE, ...ADOPT_BUCKET });

const idOf = (b: Built, c: IConstruct): string => b.stack.getLogicalId(c.node.defaultChild as CfnElement);
const ofType = (b: Built, type: string): [string, Resource][] =>
  Object.entries(b.resources).filter(([, r]) => r.Type === type);
const ref = (id: string) => ({ Ref: id });
const getAtt = (id: string, attr = 'Arn') => ({ 'Fn::GetAtt': [id, attr] });
const propertiesOf = (b: Built, id: string): Json => {
  const resource = b.resources[id];
  if (!resource) throw new Error(`no resource ${id}`);
  return resource.Properties;
};
const envOf = (b: Built, functionId: string): Json =>
  (propertiesOf(b, functionId).Environment as { Variables?: Json } | undefined)?.Variables ?? {};

/** Every statement of a function's role: its inline policy (its own grants) and attached ones (CDK's). */
const statementsOf = (b: Built, functionId: string): Json[] => functionStatements(b.resources, functionId);
const actionsOf = (st: Json): string[] => [st.Action].flat() as string[];
const resourcesOf = (st: Json): unknown[] => [st.Resource].flat();
const touching = (statements: Json[], service: string) =>
  statements.filter((st) => actionsOf(st).some((a) => a.startsWith(`${service}:`)));

const routeFunctionIds = (b: Built, filter: (r: (typeof routes)[number]) => boolean): [string, string][] =>
  routes
    .filter(filter)
    .map((r) => [r.operationId, idOf(b, b.stack.functions.get(r.operationId) as IConstruct)]);

describe('cursor key rotation', () => {
  const b = byDefault;
  const secretId = idOf(b, b.stack.cursorSecret);
  const rotationId = idOf(b, b.stack.cursorKeyRotation);

  it('puts the secret on a rotation schedule run by the rotation function, every 90 days, not at deploy time', () => {
    const [[, schedule]] = ofType(b, 'AWS::SecretsManager::RotationSchedule') as [[string, Resource]];
    expect(ofType(b, 'AWS::SecretsManager::RotationSchedule')).toHaveLength(1);
    expect(schedule.Properties).toEqual({
      SecretId: ref(secretId),
      RotationLambdaARN: getAtt(rotationId),
      RotationRules: { ScheduleExpression: 'rate(90 days)' },
      RotateImmediatelyOnUpdate: false,
    });
    // From context (constructed, not synthesized: synthesis is what makes these tests slow).
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], cursorKeyRotationDays: '30' } });
    const rotation = buildHelpdeskStack(app).cursorSecret.node.findChild('Rotation').node
      .defaultChild as CfnRotationSchedule;
    expect(rotation.rotationRules).toEqual({ scheduleExpression: 'rate(30 days)' });
  });

  it('takes the rotation period from context, within what Secrets Manager accepts', () => {
    const read = (context: Json) => () => readStackContext(new App({ context }).node);
    expect(read({})().cursorKeyRotationDays).toBe(90);
    expect(read({ cursorKeyRotationDays: 1000 })().cursorKeyRotationDays).toBe(1000);
    for (const bad of [0, '-3', 1001, '1.5', 'often'])
      expect(read({ cursorKeyRotationDays: bad })).toThrow(/cursorKeyRotationDays/);
  });

  it('runs the declared worker, on the house defaults, told of no table, bucket or secret', () => {
    expect(workers.find((w) => w.trigger === 'secret-rotation')).toMatchObject({
      name: 'cursorKeyRotation',
      handler: 'cursor-key-rotation',
    });
    expect(b.resources[rotationId]?.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
    });
    expect(Object.keys(envOf(b, rotationId)).sort()).toEqual(['LOG_LEVEL', 'POWERTOOLS_SERVICE_NAME']);
  });

  it("limits the rotation function to this secret: no table, bucket, queue, nor any other secret's action", () => {
    const statements = statementsOf(b, rotationId);
    const secrets = touching(statements, 'secretsmanager');
    expect(secrets).toEqual([
      {
        Effect: 'Allow',
        Action: [
          'secretsmanager:DescribeSecret',
          'secretsmanager:GetSecretValue',
          'secretsmanager:PutSecretValue',
          'secretsmanager:UpdateSecretVersionStage',
        ],
        Resource: ref(secretId),
      },
      // Added by CDK's rotation schedule: it has no resource to scope to and reads no secret.
      { Effect: 'Allow', Action: 'secretsmanager:GetRandomPassword', Resource: '*' },
    ]);
    const others = statements.filter((st) => !secrets.includes(st));
    expect(others.flatMap(actionsOf).sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
  });

  it('lets only this account’s Secrets Manager invoke it', () => {
    const permissions = ofType(b, 'AWS::Lambda::Permission').filter(
      ([, p]) => JSON.stringify(p.Properties.FunctionName) === JSON.stringify(getAtt(rotationId)),
    );
    expect(permissions.map(([, p]) => p.Properties)).toEqual([
      {
        Action: 'lambda:InvokeFunction',
        FunctionName: getAtt(rotationId),
        Principal: 'secretsmanager.amazonaws.com',
        SourceAccount: ref('AWS::AccountId'),
      },
    ]);
  });

  it('leaves writing the secret to the rotation function alone; readers stay list functions and delivery', () => {
    const writes = ['secretsmanager:PutSecretValue', 'secretsmanager:UpdateSecretVersionStage'];
    for (const [id] of ofType(b, 'AWS::Lambda::Function')) {
      const actions = statementsOf(b, id).flatMap(actionsOf);
      if (id === rotationId) continue;
      expect(
        actions.filter((a) => writes.includes(a)),
        id,
      ).toEqual([]);
      // Readers are told where the secret is (stack.test.ts and webhooks.test.ts name which ones).
      if (actions.includes('secretsmanager:GetSecretValue'))
        expect(envOf(b, id).CURSOR_SECRET_ARN, id).toEqual(ref(secretId));
    }
  });
});

describe('the default path', () => {
  it('keeps the logical ids of the table, the secret and the buckets (a new id would replace them, empty)', () => {
    const { stack } = byDefault;
    expect(idOf(byDefault, stack.table)).toBe('TableCD117FA1');
    expect(idOf(byDefault, stack.cursorSecret)).toBe('CursorSecretABAE1358');
    expect(idOf(byDefault, stack.attachments.bucket)).toBe('AttachmentsBucket134755D7');
    expect(idOf(byDefault, stack.attachments.accessLogs as IConstruct)).toBe('AttachmentsAccessLogsFEF2E8E3');
    expect(ofType(byDefault, 'AWS::DynamoDB::GlobalTable').map(([id]) => id)).toEqual(['TableCD117FA1']);
    expect(
      ofType(byDefault, 'AWS::S3::Bucket')
        .map(([id]) => id)
        .sort(),
    ).toEqual(['AttachmentsAccessLogsFEF2E8E3', 'AttachmentsBucket134755D7']);
  });

  it('adds only the rotation: its schedule, the secret policy CDK adds with it, and the function with its role, logs and permission', () => {
    const rotationId = idOf(byDefault, byDefault.stack.cursorKeyRotation);
    const added = Object.entries(byDefault.resources)
      .filter(
        ([id]) =>
          id.startsWith('CursorSecretRotation') ||
          id.startsWith('CursorSecretPolicy') ||
          id.startsWith('CursorKeyRotation'),
      )
      .map(([, r]) => r.Type)
      .sort();
    expect(added).toEqual([
      'AWS::IAM::Policy',
      'AWS::IAM::Role',
      'AWS::Lambda::Function',
      'AWS::Lambda::Permission',
      'AWS::Logs::LogGroup',
      'AWS::SecretsManager::ResourcePolicy',
      'AWS::SecretsManager::RotationSchedule',
    ]);
    expect(rotationId.startsWith('CursorKeyRotationFunction')).toBe(true);
    // CDK's guard on a rotated secret: nobody in the account deletes it while the policy stands.
    const [[, policy]] = ofType(byDefault, 'AWS::SecretsManager::ResourcePolicy') as [[string, Resource]];
    expect((policy.Properties.ResourcePolicy as { Statement: Json[] }).Statement).toMatchObject([
      { Effect: 'Deny', Action: 'secretsmanager:DeleteSecret' },
    ]);
  });
});

describe('adopting an existing table (context existingTableName + existingTableStreamArn)', () => {
  it('creates no table, and removes nothing else from the template', () => {
    expect(ofType(adoptedTable, 'AWS::DynamoDB::GlobalTable')).toEqual([]);
    expect(ofType(adoptedTable, 'AWS::DynamoDB::Table')).toEqual([]);
    const gone = Object.keys(byDefault.resources).filter((id) => !(id in adoptedTable.resources));
    const added = Object.keys(adoptedTable.resources).filter((id) => !(id in byDefault.resources));
    expect(gone).toEqual(['TableCD117FA1']);
    expect(added).toEqual([]);
    // The bucket is still this stack's.
    expect(ofType(adoptedTable, 'AWS::S3::Bucket')).toHaveLength(2);
  });

  it('grants every function with a table on the named table (and its indexes where it queries them), and names it in TABLE_NAME', () => {
    const b = adoptedBoth;
    const withTable = routes
      .filter((r) => r.access !== 'none')
      .map((r) => ({
        name: r.operationId,
        id: idOf(b, b.stack.functions.get(r.operationId) as IConstruct),
        indexes: dynamoActions(r).some((a) => a.startsWith('index:')),
      }));
    expect(withTable.length).toBeGreaterThan(30);
    const { webhooks } = b.stack;
    for (const fn of [webhooks.fanout, webhooks.deliver])
      withTable.push({ name: fn.node.id, id: idOf(b, fn), indexes: true });
    for (const { name, id, indexes } of withTable) {
      const tableStatements = touching(statementsOf(b, id), 'dynamodb').filter(
        (st) => !actionsOf(st).some((a) => /Stream|GetRecords|GetShardIterator/.test(a)),
      );
      expect(tableStatements.length, name).toBeGreaterThan(0);
      const granted = new Set(tableStatements.flatMap(resourcesOf));
      for (const resource of granted) expect([TABLE_ARN, `${TABLE_ARN}/index/*`], name).toContain(resource);
      expect(granted.has(`${TABLE_ARN}/index/*`), name).toBe(indexes);
      expect(envOf(b, id).TABLE_NAME, name).toBe(TABLE);
    }
    expect(b.outputs.TableName?.Value).toBe(TABLE);
    expect(JSON.stringify(b.resources)).not.toContain('TableCD117FA1');
  });

  it('has the webhook fan-out read the given stream', () => {
    const b = adoptedBoth;
    const fanoutId = idOf(b, b.stack.webhooks.fanout);
    const mappings = ofType(b, 'AWS::Lambda::EventSourceMapping').filter(
      ([, m]) => (m.Properties.FunctionName as { Ref: string }).Ref === fanoutId,
    );
    expect(mappings.map(([, m]) => m.Properties.EventSourceArn)).toEqual([STREAM_ARN]);
    const streamStatements = statementsOf(b, fanoutId).filter((st) =>
      actionsOf(st).some((a) => /DescribeStream|ListStreams/.test(a)),
    );
    expect(streamStatements.length).toBeGreaterThan(0);
    for (const st of streamStatements) expect(resourcesOf(st)).toEqual([STREAM_ARN]);
  });

  it('fails synthesis with a clear message without the stream, or with a stream of another table', () => {
    const read = (context: Json) => () => readStackContext(new App({ context }).node);
    expect(read({ existingTableName: TABLE })).toThrow(
      /'existingTableStreamArn' is required with 'existingTableName': the webhook fan-out reads the table's stream/,
    );
    expect(read({ existingTableStreamArn: STREAM_ARN })).toThrow(/without 'existingTableName'/);
    expect(read({ existingTableName: 'other-table', existingTableStreamArn: STREAM_ARN })).toThrow(
      /stream of table helpdesk-restored, not of other-table/,
    );
    expect(read({ existingTableName: TABLE, existingTableStreamArn: TABLE_ARN })).toThrow(
      /existingTableStreamArn/,
    );
    expect(read({ existingTableName: 'a', existingTableStreamArn: STREAM_ARN })).toThrow(/existingTableName/);
    expect(read(ADOPT_TABLE)().existingTable).toEqual({ name: TABLE, streamArn: STREAM_ARN });
    expect(read({})().existingTable).toBeUndefined();
  });
});

describe('adopting an existing bucket (context existingBucketName)', () => {
  it('creates no bucket, no access-log bucket and no bucket policy', () => {
    expect(ofType(adoptedBoth, 'AWS::S3::Bucket')).toEqual([]);
    expect(ofType(adoptedBoth, 'AWS::S3::BucketPolicy')).toEqual([]);
    expect(adoptedBoth.stack.attachments.accessLogs).toBeUndefined();
    expect(adoptedBoth.outputs.BucketName?.Value).toBe(BUCKET);
  });

  it('grants the blob routes on arn:aws:s3:::<name> and objects in it only, and names it in BUCKET_NAME', () => {
    const b = adoptedBoth;
    const blobRoutes = routeFunctionIds(b, (r) => r.blobs !== undefined);
    expect(blobRoutes.length).toBeGreaterThan(3);
    const inBucket = (resource: unknown): boolean => {
      const parts = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join']?.[1] ?? [];
      const [arn, partition, rest] = parts;
      return (
        parts.length === 3 &&
        arn === 'arn:' &&
        JSON.stringify(partition) === JSON.stringify(ref('AWS::Partition')) &&
        typeof rest === 'string' &&
        (rest === `:s3:::${BUCKET}` || rest.startsWith(`:s3:::${BUCKET}/`))
      );
    };
    for (const [name, id] of blobRoutes) {
      const s3 = touching(statementsOf(b, id), 's3');
      expect(s3.length, name).toBeGreaterThan(0);
      for (const st of s3)
        for (const resource of resourcesOf(st))
          expect(inBucket(resource), `${name} ${JSON.stringify(resource)}`).toBe(true);
      expect(envOf(b, id).BUCKET_NAME, name).toBe(BUCKET);
    }
    for (const [name, id] of routeFunctionIds(b, (r) => r.blobs === undefined))
      expect(touching(statementsOf(b, id), 's3'), name).toEqual([]);
  });

  it('refuses a name S3 would not accept', () => {
    const read = (context: Json) => () => readStackContext(new App({ context }).node);
    for (const bad of ['My_Bucket', 'ab', '-bucket', 'a'.repeat(64)])
      expect(read({ existingBucketName: bad })).toThrow(/existingBucketName/);
    expect(read(ADOPT_BUCKET)().existingBucketName).toBe(BUCKET);
  });
});

describe('cdk-nag on the adopting path', () => {
  it('leaves no unacknowledged finding, and acknowledges none that does not exist', () => {
    const context = { 'aws:cdk:bundling-stacks': [], ...ADOPT_TABLE, ...ADOPT_BUCKET };
    const findings = (stack: HelpdeskStack) =>
      new AwsSolutionsChecks(undefined, { verbose: true })
        .validateScope(stack)
        .violations.flatMap((v) =>
          v.violatingResources.map((r) => ({ rule: v.ruleName, path: r.constructPath ?? '' })),
        );
    const { stack } = adoptedBoth;
    expect(findings(stack)).toEqual([]);

    // As nag.test.ts does for the default path: every acknowledgment matches a raw finding.
    const bareApp = new App({ context });
    const raw = findings(
      new HelpdeskStack(bareApp, 'Helpdesk-dev', { settings: readStackContext(bareApp.node) }),
    );
    const acknowledged = acknowledgedIn([stack]);
    const stale = acknowledged.filter(
      (a) => !raw.some((f) => f.rule === a.rule && (f.path === a.path || f.path.startsWith(`${a.path}/`))),
    );
    expect(stale.map((a) => `${a.rule} @ ${a.path}`)).toEqual([]);
    const rules = acknowledged.map((a) => a.rule);
    expect(rules).toContain(`AwsSolutions-IAM5[Resource::${TABLE_ARN}/index/*]`);
    expect(
      rules.some((r) => r.startsWith(`AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${BUCKET}/`)),
    ).toBe(true);
  });
});
