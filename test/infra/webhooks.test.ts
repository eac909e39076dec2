import { App, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { buildHelpdeskStack } from '../../infra/app';
import type { HelpdeskStack } from '../../infra/helpdesk-stack';
import { functionStatements, identityPolicies, roleIdOf } from './iam';

type Json = Record<string, unknown>;
interface Resource {
  Type: string;
  Properties: Json;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

// As test/infra/stack.test.ts: bundling is skipped, these tests read the template.
const build = (context: Json = {}): { stack: HelpdeskStack; template: Template } => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = buildHelpdeskStack(app);
  return { stack, template: Template.fromStack(stack) };
};

const { stack, template } = build({ removalPolicy: 'destroy', deletionProtection: 'false' });
const json = template.toJSON() as { Resources: Record<string, Resource>; Outputs: Record<string, Json> };
const idOf = (c: IConstruct, s: HelpdeskStack = stack): string =>
  s.getLogicalId(c.node.defaultChild as CfnElement);
const resource = (id: string): Resource => json.Resources[id] as Resource;
const resources = (type: string): [string, Resource][] =>
  Object.entries(json.Resources).filter(([, r]) => r.Type === type);
const ref = (id: string) => ({ Ref: id });
const arn = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });

const { webhooks } = stack;
const queueId = idOf(webhooks.queue);
const dlqId = idOf(webhooks.deadLetterQueue);
const failuresId = idOf(webhooks.fanoutFailures);
const fanoutId = idOf(webhooks.fanout);
const deliverId = idOf(webhooks.deliver);
// The cascade worker's (test/infra/cascades.test.ts): a stream reader with a failures queue too.
const cascadeFnId = idOf(stack.cascades.fn);
const cascadeFailuresId = idOf(stack.cascades.failures);
// The import pipeline's (test/infra/imports.test.ts): its queues, its worker and the route that starts a job.
const importQueueIds = [idOf(stack.imports.queue), idOf(stack.imports.deadLetterQueue)];
const importSenderIds = [idOf(stack.imports.worker), idOf(stack.functions.get('importStart') as IConstruct)];
// The other workers' alarms in the parent stack (test/infra/cascades.test.ts, search.test.ts, imports.test.ts).
const cascadeAlarmIds = new Set(
  [...stack.cascades.alarms, ...stack.search.alarms, ...stack.imports.alarms].map((a) => idOf(a)),
);
const tableId = idOf(stack.table);
const secretId = idOf(stack.cursorSecret);

const DYNAMO_WRITES = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:PartiQLInsert',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
];

/** Every IAM statement of a function's role: its policies and inline ones; no managed policy. */
const statementsOf = (functionId: string): Json[] => {
  const role = resource(roleIdOf(json.Resources, functionId));
  expect(role.Properties.ManagedPolicyArns, functionId).toBeUndefined();
  return functionStatements(json.Resources, functionId);
};
const actionsIn = (statements: Json[]): string[] => statements.flatMap((s) => [s.Action].flat() as string[]);
const touching = (statements: Json[], prefix: string) =>
  statements.filter((s) => actionsIn([s]).some((a) => a.startsWith(prefix)));
const variablesOf = (functionId: string): Json =>
  (resource(functionId).Properties.Environment as { Variables: Json }).Variables;

describe('delivery queue', () => {
  it('is a high-throughput FIFO queue, encrypted, kept 14 days, with a FIFO dead-letter queue after 1000 receives', () => {
    expect(resource(queueId).Properties).toEqual({
      FifoQueue: true,
      FifoThroughputLimit: 'perMessageGroupId',
      DeduplicationScope: 'messageGroup',
      ContentBasedDeduplication: false,
      MessageRetentionPeriod: 14 * 86_400,
      SqsManagedSseEnabled: true,
      VisibilityTimeout: expect.any(Number),
      // Receives are attempts and waits for the tenant's turn (infra/webhook-pipeline.ts MAX_DELIVERY_RECEIVES).
      RedrivePolicy: { deadLetterTargetArn: arn(dlqId), maxReceiveCount: 1000 },
      Tags: expect.any(Array),
    });
    // SQS-managed keys: no KMS key whose grants every sender and receiver would need.
    template.allResourcesProperties('AWS::SQS::Queue', { KmsMasterKeyId: Match.absent() });
    // Its dead letters: FIFO as the queue must be, kept as long, and a dead end (no redrive of its own).
    expect(resource(dlqId).Properties).toEqual({
      FifoQueue: true,
      MessageRetentionPeriod: 14 * 86_400,
      SqsManagedSseEnabled: true,
      Tags: expect.any(Array),
    });
  });

  it("hides a received message for 6 times the delivery function's timeout", () => {
    const timeout = resource(deliverId).Properties.Timeout as number;
    expect(timeout).toBe(15);
    expect(resource(queueId).Properties.VisibilityTimeout).toBe(6 * timeout);
  });

  it('feeds the delivery function one message at a time, with partial batch responses, at most 20 at once', () => {
    const mappings = resources('AWS::Lambda::EventSourceMapping').filter(
      ([, m]) => JSON.stringify(m.Properties.EventSourceArn) === JSON.stringify(arn(queueId)),
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]?.[1].Properties).toEqual({
      EventSourceArn: arn(queueId),
      FunctionName: ref(deliverId),
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      // The delivery function can never take more of the account's concurrency than this from
      // the API's functions, however many receivers hang (each tenant gets at most 4 of them).
      ScalingConfig: { MaximumConcurrency: 20 },
      Tags: expect.any(Array),
    });
  });

  it('outputs its URL', () => {
    expect(json.Outputs.WebhookQueueUrl).toEqual({ Value: ref(queueId) });
  });
});

describe('fan-out', () => {
  const mapping = () => {
    const mappings = resources('AWS::Lambda::EventSourceMapping').filter(
      ([, m]) => JSON.stringify(m.Properties.FunctionName) === JSON.stringify(ref(fanoutId)),
    );
    expect(mappings).toHaveLength(1);
    return (mappings[0] as [string, Resource])[1].Properties;
  };

  it("reads the table's stream from the trim horizon, in order per shard, bisecting failed batches", () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: ref(fanoutId),
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ParallelizationFactor: 1,
      DestinationConfig: { OnFailure: { Destination: arn(failuresId) } },
    });
  });

  it("retries a record for the stream's whole 24 h retention, bounded by its age, not a count", () => {
    expect(mapping()).toMatchObject({ MaximumRetryAttempts: -1, MaximumRecordAgeInSeconds: 86_400 });
  });

  it("lets through inserted event items (occurredAt N and resourceId S exist) but an import's, and unfinished redeliveries", () => {
    const filters = (mapping().FilterCriteria as { Filters: { Pattern: string }[] }).Filters;
    expect(filters).toHaveLength(2);
    expect(JSON.parse((filters[0] as { Pattern: string }).Pattern)).toEqual({
      eventName: ['INSERT'],
      dynamodb: {
        NewImage: {
          occurredAt: { N: [{ exists: true }] },
          resourceId: { S: [{ exists: true }] },
          // The events of an import job's records carry its id (IMPORT_MARK): webhooks are not sent them.
          importId: { S: [{ exists: false }] },
        },
      },
    });
    // A redelivery item (shared/store/pending-deliveries.ts) written or advanced, not yet done.
    expect(JSON.parse((filters[1] as { Pattern: string }).Pattern)).toEqual({
      eventName: ['INSERT', 'MODIFY'],
      dynamodb: {
        NewImage: {
          redeliverOf: { S: [{ exists: true }] },
          done: { BOOL: [false] },
        },
      },
    });
  });

  it('sends given-up batches to a standard, encrypted queue kept 14 days', () => {
    expect(resource(failuresId).Properties).toEqual({
      MessageRetentionPeriod: 14 * 86_400,
      SqsManagedSseEnabled: true,
      Tags: expect.any(Array),
    });
  });

  it('runs for at most 30 s', () => {
    expect(resource(fanoutId).Properties.Timeout).toBe(30);
  });
});

describe('queues', () => {
  const queueIds = [queueId, dlqId, failuresId, cascadeFailuresId, ...importQueueIds];

  it("are the only queues (with the cascade worker's failures and the import pipeline's), and each denies every request not made over TLS", () => {
    expect(
      resources('AWS::SQS::Queue')
        .map(([id]) => id)
        .sort(),
    ).toEqual([...queueIds].sort());
    for (const id of queueIds) {
      const policies = resources('AWS::SQS::QueuePolicy').filter(
        ([, p]) => JSON.stringify(p.Properties.Queues) === JSON.stringify([ref(id)]),
      );
      expect(policies, id).toHaveLength(1);
      const [, policy] = policies[0] as [string, Resource];
      const statements = (policy.Properties.PolicyDocument as { Statement: Json[] }).Statement;
      expect(statements, id).toEqual([
        {
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 'sqs:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          Resource: arn(id),
        },
      ]);
    }
  });

  it('take their removal policy from context', () => {
    for (const id of queueIds) expect(resource(id).DeletionPolicy, id).toBe('Delete');
    const kept = build({ removalPolicy: 'retain' });
    const keptJson = kept.template.toJSON().Resources as Record<string, Resource>;
    const w = kept.stack.webhooks;
    for (const q of [w.queue, w.deadLetterQueue, w.fanoutFailures]) {
      expect(keptJson[idOf(q, kept.stack)]?.DeletionPolicy, q.node.path).toBe('Retain');
    }
  });
});

describe('least privilege', () => {
  it('gives the fan-out Query (table and indexes), PutItem and UpdateItem (pending items), and only SendMessage on the queue', () => {
    const statements = statementsOf(fanoutId);
    const actions = actionsIn(statements);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query']));
    // Pending items are put and marked, a redelivery advanced; nothing is ever deleted.
    expect(actions.filter((a) => DYNAMO_WRITES.includes(a) || /^dynamodb:\*|^\*$/.test(a)).sort()).toEqual([
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
    ]);
    const onQueue = statements.filter((s) => JSON.stringify(s.Resource).includes(`"${queueId}"`));
    expect(onQueue).toEqual([{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: arn(queueId) }]);
    // Its other SQS actions are Lambda's, sending given-up batches to the failures queue.
    for (const s of touching(statements, 'sqs:')) {
      if (s !== onQueue[0]) expect(s.Resource).toEqual(arn(failuresId));
    }
    expect(touching(statements, 'secretsmanager:')).toEqual([]);
  });

  it('lets the delivery function read and write the table, consume the queue, back off and read the cursor key', () => {
    const statements = statementsOf(deliverId);
    const actions = actionsIn(statements);
    expect(actions).toEqual(
      expect.arrayContaining([
        'dynamodb:Query',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:ConditionCheckItem',
      ]),
    );
    const sqs = touching(statements, 'sqs:');
    expect(sqs).toHaveLength(1);
    expect(sqs[0]?.Resource).toEqual(arn(queueId));
    expect(actionsIn(sqs).sort()).toEqual(
      [
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:ReceiveMessage',
      ].sort(),
    );
    const secrets = touching(statements, 'secretsmanager:');
    expect(secrets).toEqual([
      {
        Effect: 'Allow',
        Action: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
        Resource: ref(secretId),
      },
    ]);
  });

  it("gives no other function any SQS permission (but the cascade worker, on its failures queue, and the import queue's senders)", () => {
    const readers = [fanoutId, deliverId, cascadeFnId, ...importSenderIds];
    const others = resources('AWS::Lambda::Function').filter(([id]) => !readers.includes(id));
    expect(others.length).toBeGreaterThan(30);
    for (const [id] of others) expect(touching(statementsOf(id), 'sqs:'), id).toEqual([]);
    // The import queue's senders touch no queue of this pipeline (test/infra/imports.test.ts: theirs).
    for (const id of importSenderIds)
      for (const s of touching(statementsOf(id), 'sqs:'))
        expect(importQueueIds.map(arn), id).toContainEqual(s.Resource);
    // Nor does any policy outside these functions' roles (inline in a role, or attached to one).
    const roles = readers.map((id) => roleIdOf(json.Resources, id));
    for (const { id, roles: of, document } of identityPolicies(json.Resources)) {
      const own = of.some((r) => roles.includes(r));
      if (!own) expect(touching(document.Statement, 'sqs:'), id).toEqual([]);
    }
  });
});

describe('environment', () => {
  const apiUrl = json.Outputs.ApiUrl?.Value;

  it('tells the fan-out the table and the queue, nothing of the cursor key or the API', () => {
    const env = variablesOf(fanoutId);
    expect(env).toMatchObject({ TABLE_NAME: ref(tableId), WEBHOOK_QUEUE_URL: ref(queueId) });
    expect(env.CURSOR_SECRET_ARN).toBeUndefined();
    expect(env.DELIVERY_BASE_URL).toBeUndefined();
  });

  it("tells the delivery function the table, the cursor key and the $default stage's URL", () => {
    const env = variablesOf(deliverId);
    expect(apiUrl).toBeDefined();
    expect(env).toMatchObject({
      TABLE_NAME: ref(tableId),
      CURSOR_SECRET_ARN: ref(secretId),
      DELIVERY_BASE_URL: apiUrl,
    });
    expect(env.WEBHOOK_QUEUE_URL).toBeUndefined();
  });

  it('keeps the house defaults and passes the index migration step on', () => {
    for (const id of [fanoutId, deliverId]) {
      expect(resource(id).Properties, id).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: 1024,
        Handler: 'index.handler',
      });
      expect(variablesOf(id), id).toMatchObject({ LOG_LEVEL: 'INFO' });
      expect(variablesOf(id).NODE_OPTIONS, id).toBeUndefined();
      expect(variablesOf(id).INDEX_MIGRATION_STEP, id).toBeUndefined();
    }
    const migrating = build({ indexMigrationStep: '4' });
    const migratingJson = migrating.template.toJSON() as { Resources: Record<string, Resource> };
    const vars = (c: IConstruct) =>
      (
        (migratingJson.Resources[idOf(c, migrating.stack)] as Resource).Properties.Environment as {
          Variables: Json;
        }
      ).Variables;
    expect(vars(migrating.stack.webhooks.fanout).INDEX_MIGRATION_STEP).toBe('4');
    expect(vars(migrating.stack.webhooks.deliver).INDEX_MIGRATION_STEP).toBe('4');
  });
});

describe('alarms', () => {
  const alarms = resources('AWS::CloudWatch::Alarm').filter(([id]) => !cascadeAlarmIds.has(id));
  const alarmOf = (metricName: string, dimension: Json) => {
    const found = alarms.filter(
      ([, a]) =>
        a.Properties.MetricName === metricName &&
        JSON.stringify(a.Properties.Dimensions) === JSON.stringify([dimension]),
    );
    expect(found, metricName).toHaveLength(1);
    return (found[0] as [string, Resource])[1].Properties;
  };
  const queueName = (id: string) => ({ Name: 'QueueName', Value: { 'Fn::GetAtt': [id, 'QueueName'] } });
  const common = {
    Period: 300,
    EvaluationPeriods: 1,
    DatapointsToAlarm: 1,
    Statistic: 'Maximum',
    TreatMissingData: 'notBreaching',
  };

  it('are the four of the pipeline, exposed on the construct, with the alarm topic as action', () => {
    expect(alarms).toHaveLength(4);
    expect(webhooks.alarms.map((a) => idOf(a)).sort()).toEqual(alarms.map(([id]) => id).sort());
    for (const [id, a] of alarms) {
      // The stack's monitoring adds them (test/infra/monitoring.test.ts checks that it is the topic).
      expect(a.Properties.AlarmActions, id).toHaveLength(1);
      expect(a.Properties.OKActions, id).toHaveLength(1);
      expect(String(a.Properties.AlarmDescription).length, id).toBeGreaterThan(100);
    }
  });

  it('fires on any message in either dead-letter queue', () => {
    for (const id of [dlqId, failuresId]) {
      expect(alarmOf('ApproximateNumberOfMessagesVisible', queueName(id)), id).toMatchObject({
        ...common,
        Namespace: 'AWS/SQS',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
  });

  it('fires when the oldest delivery has waited more than 6 h', () => {
    expect(alarmOf('ApproximateAgeOfOldestMessage', queueName(queueId))).toMatchObject({
      ...common,
      Namespace: 'AWS/SQS',
      Threshold: 6 * 3600,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('fires when the fan-out is more than 10 minutes behind the stream', () => {
    expect(alarmOf('IteratorAge', { Name: 'FunctionName', Value: ref(fanoutId) })).toMatchObject({
      ...common,
      Namespace: 'AWS/Lambda',
      Threshold: 10 * 60_000,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });
});
