import { readFileSync } from 'node:fs';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { buildHelpdeskStack, buildHelpdeskStacks } from '../../infra/app';
import type { HelpdeskStack } from '../../infra/helpdesk-stack';
import {
  IMPORT_AGE_ALARM,
  IMPORT_CONCURRENCY,
  IMPORT_MAX_RECEIVES,
  IMPORT_STEP_TIMEOUT,
} from '../../infra/import-pipeline';
import { BLOB_AREAS, type BlobArea, routes } from '../../shared/routes';
import { IMPORT_KEPT_DAYS } from '../../shared/store/imports';
import { IMPORT_STEP_TIMEOUT_MS, workers } from '../../shared/workers';
import { functionStatements, identityPolicies, roleIdOf } from './iam';

/**
 * Import jobs in AWS (issue 24, infra/import-pipeline.ts): the import queue (FIFO, a group per
 * job) and its dead-letter queue, the worker that runs a job's steps from it, what it and the
 * route that starts a job may do, their alarms, the fan-out leaving imported records' events out,
 * and the import files' lifecycle.
 */
type Json = Record<string, unknown>;
interface Resource {
  Type: string;
  Properties: Json;
  DeletionPolicy?: string;
}
interface Built {
  stack: HelpdeskStack;
  resources: Record<string, Resource>;
  outputs: Record<string, { Value: unknown }>;
}

const build = (stack: HelpdeskStack): Built => {
  const json = Template.fromStack(stack).toJSON();
  return { stack, resources: json.Resources, outputs: json.Outputs };
};
const CONTEXT = { 'aws:cdk:bundling-stacks': [], removalPolicy: 'destroy', deletionProtection: 'false' };
const b = build(buildHelpdeskStack(new App({ context: CONTEXT })));
const { stack } = b;
const { imports } = stack;

const idOf = (c: IConstruct, s: HelpdeskStack = stack): string =>
  s.getLogicalId(c.node.defaultChild as CfnElement);
const resource = (id: string, of: Built = b): Resource => {
  const r = of.resources[id];
  if (!r) throw new Error(`no resource ${id}`);
  return r;
};
const ofType = (type: string, of: Built = b): [string, Resource][] =>
  Object.entries(of.resources).filter(([, r]) => r.Type === type);
const ref = (id: string) => ({ Ref: id });
const arn = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const actionsIn = (statements: Json[]): string[] =>
  statements.flatMap((s) => [s.Action].flat() as string[]).sort();
const touching = (statements: Json[], prefix: string) =>
  statements.filter((s) => actionsIn([s]).some((a) => a.startsWith(prefix)));
const envOf = (functionId: string, of: Built = b): Json =>
  (resource(functionId, of).Properties.Environment as { Variables: Json }).Variables;

const queueId = idOf(imports.queue);
const dlqId = idOf(imports.deadLetterQueue);
const workerId = idOf(imports.worker);
const tableId = idOf(stack.table);
const bucketId = idOf(stack.attachments.bucket);
const startId = idOf(stack.functions.get('importStart') as IConstruct);
const statementsOf = (functionId: string, of: Built = b): Json[] =>
  functionStatements(of.resources, functionId);

describe('import queue', () => {
  it('is a high-throughput FIFO queue (a group per job), encrypted, kept 14 days, with a FIFO dead-letter queue after 5 receives', () => {
    expect(resource(queueId).Properties).toEqual({
      FifoQueue: true,
      FifoThroughputLimit: 'perMessageGroupId',
      DeduplicationScope: 'messageGroup',
      // Steps carry their own deduplication id, `<job>:<offset>` (shared/queue/import-queue.ts).
      ContentBasedDeduplication: false,
      MessageRetentionPeriod: 14 * 86_400,
      SqsManagedSseEnabled: true,
      VisibilityTimeout: expect.any(Number),
      RedrivePolicy: { deadLetterTargetArn: arn(dlqId), maxReceiveCount: 5 },
      Tags: expect.any(Array),
    });
    expect(IMPORT_MAX_RECEIVES).toBe(5);
    // Its dead letters: FIFO as the queue must be, kept as long, and a dead end.
    expect(resource(dlqId).Properties).toEqual({
      FifoQueue: true,
      MessageRetentionPeriod: 14 * 86_400,
      SqsManagedSseEnabled: true,
      Tags: expect.any(Array),
    });
  });

  it("hides a received step for 6 times the worker's timeout (30 min, under SQS's 12 h)", () => {
    expect(resource(queueId).Properties.VisibilityTimeout).toBe(6 * 300);
  });

  it('denies every request not made over TLS, and takes its removal policy from context', () => {
    for (const id of [queueId, dlqId]) {
      const policies = ofType('AWS::SQS::QueuePolicy').filter(
        ([, p]) => JSON.stringify(p.Properties.Queues) === JSON.stringify([ref(id)]),
      );
      expect(policies, id).toHaveLength(1);
      const [[, policy]] = policies as [[string, Resource]];
      expect((policy.Properties.PolicyDocument as { Statement: Json[] }).Statement, id).toEqual([
        {
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 'sqs:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          Resource: arn(id),
        },
      ]);
      expect(resource(id).DeletionPolicy, id).toBe('Delete');
    }
    const kept = build(buildHelpdeskStack(new App({ context: { ...CONTEXT, removalPolicy: 'retain' } })));
    for (const q of [kept.stack.imports.queue, kept.stack.imports.deadLetterQueue])
      expect(resource(idOf(q, kept.stack), kept).DeletionPolicy, q.node.path).toBe('Retain');
  });

  it('outputs its URL', () => {
    expect(b.outputs.ImportQueueUrl).toEqual({ Value: ref(queueId) });
  });
});

describe('import worker', () => {
  it('is the declared worker, fed one step at a time with partial batch responses, at most 10 jobs at once', () => {
    expect(workers.find((w) => w.trigger === 'import-queue')).toMatchObject({
      name: 'importWorker',
      handler: 'import-worker',
    });
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(
      ([, m]) => JSON.stringify(m.Properties.EventSourceArn) === JSON.stringify(arn(queueId)),
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]?.[1].Properties).toEqual({
      EventSourceArn: arn(queueId),
      FunctionName: ref(workerId),
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 10 },
      Tags: expect.any(Array),
    });
    // SQS's event source takes 2 to 1000.
    expect(IMPORT_CONCURRENCY).toBeGreaterThanOrEqual(2);
  });

  it('runs a step for at most 5 minutes, on the house defaults', () => {
    expect(IMPORT_STEP_TIMEOUT.toMilliseconds()).toBe(IMPORT_STEP_TIMEOUT_MS);
    expect(resource(workerId).Properties).toMatchObject({
      Timeout: 300,
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      MemorySize: 1024,
      Handler: 'index.handler',
    });
  });

  it('is told the table, the bucket and its own queue (it queues the next step), nothing of the cursor key', () => {
    const env = envOf(workerId);
    expect(env).toMatchObject({
      TABLE_NAME: ref(tableId),
      BUCKET_NAME: ref(bucketId),
      IMPORT_QUEUE_URL: ref(queueId),
      LOG_LEVEL: 'INFO',
    });
    expect(env.CURSOR_SECRET_ARN).toBeUndefined();
    expect(env.WEBHOOK_QUEUE_URL).toBeUndefined();
  });

  it('may send exactly what a step sends to the table: no Query or Scan, no delete, no index, no stream', () => {
    const dynamo = touching(statementsOf(workerId), 'dynamodb:');
    expect(dynamo).toEqual([
      {
        Effect: 'Allow',
        Action: [
          'dynamodb:BatchWriteItem',
          'dynamodb:ConditionCheckItem',
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
        ],
        Resource: arn(tableId),
      },
    ]);
  });

  it("reads import files and writes records' documents and photos, in those areas only", () => {
    const areaArn = (area: BlobArea) =>
      JSON.stringify({ 'Fn::Join': ['', [arn(bucketId), `/${BLOB_AREAS[area]}`]] });
    const byArea: Record<string, string[]> = {};
    let listBucket = false;
    for (const s of touching(statementsOf(workerId), 's3:')) {
      for (const r of [s.Resource].flat()) {
        if (JSON.stringify(r) === JSON.stringify(arn(bucketId))) {
          expect(s.Action).toBe('s3:ListBucket');
          listBucket = true;
          continue;
        }
        const area = (Object.keys(BLOB_AREAS) as BlobArea[]).find((a) => JSON.stringify(r) === areaArn(a));
        expect(area, JSON.stringify(r)).toBeDefined();
        byArea[area as string] = [...(byArea[area as string] ?? []), ...actionsIn([s])].sort();
      }
    }
    expect(byArea).toEqual({
      // The job's file, in ranges.
      imports: ['s3:GetObject'],
      // A ticket's documents as POST /ticket/insert attaches them: put, copied out of staging, undone.
      documents: ['s3:DeleteObject', 's3:PutObject'],
      staging: ['s3:DeleteObject', 's3:GetObject'],
      // A customer's profilePhotoBlob as POST /customer/insert stores it.
      photos: ['s3:DeleteObject', 's3:PutObject'],
    });
    // A missing upload is S3's 404 (ListBucket), as for the routes that attach.
    expect(listBucket).toBe(true);
  });

  it('may send to its own queue only (SendMessage alone), and consume it through its event source', () => {
    const sqs = touching(statementsOf(workerId), 'sqs:');
    for (const s of sqs) expect(s.Resource).toEqual(arn(queueId));
    expect(sqs).toContainEqual({ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: arn(queueId) });
    expect(actionsIn(sqs)).toEqual(
      [
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:ReceiveMessage',
        'sqs:SendMessage',
      ].sort(),
    );
    expect(touching(statementsOf(workerId), 'secretsmanager:')).toEqual([]);
  });
});

describe('starting a job', () => {
  const queueing = routes.filter((r) => r.queue === 'import');

  it('is the one route that queues steps: told the queue, SendMessage on it alone', () => {
    expect(queueing.map((r) => r.operationId)).toEqual(['importStart']);
    expect(envOf(startId).IMPORT_QUEUE_URL).toEqual(ref(queueId));
    expect(touching(statementsOf(startId), 'sqs:')).toEqual([
      { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: arn(queueId) },
    ]);
  });

  it('is the only function but the worker told of the queue or allowed on it', () => {
    const mine = [workerId, startId].map((id) => roleIdOf(b.resources, id));
    for (const [id] of ofType('AWS::Lambda::Function')) {
      if (id === workerId || id === startId) continue;
      expect(envOf(id).IMPORT_QUEUE_URL, id).toBeUndefined();
    }
    for (const { id, roles, document } of identityPolicies(b.resources)) {
      if (roles.some((r) => mine.includes(r))) continue;
      const onQueues = document.Statement.filter((s) =>
        [queueId, dlqId].some((q) => JSON.stringify(s.Resource ?? '').includes(`"${q}"`)),
      );
      expect(onQueues, id).toEqual([]);
    }
  });
});

describe('stream filters', () => {
  const patternsOf = (mappings: [string, Resource][]) =>
    mappings.flatMap(([, m]) =>
      ((m.Properties.FilterCriteria as { Filters: { Pattern: string }[] } | undefined)?.Filters ?? []).map(
        (f) => JSON.parse(f.Pattern) as { dynamodb?: { NewImage?: Json } },
      ),
    );
  const eventPatterns = (patterns: ReturnType<typeof patternsOf>) =>
    patterns.filter((p) => p.dynamodb?.NewImage?.occurredAt !== undefined);

  it("keep an import's records' events from the webhook fan-out (importId set), not its own import.completed", () => {
    const fanout = ofType('AWS::Lambda::EventSourceMapping').filter(
      ([, m]) =>
        JSON.stringify(m.Properties.FunctionName) === JSON.stringify(ref(idOf(stack.webhooks.fanout))),
    );
    const events = eventPatterns(patternsOf(fanout));
    expect(events).toHaveLength(1);
    expect(events[0]?.dynamodb?.NewImage?.importId).toEqual({ S: [{ exists: false }] });
  });

  it('give the search indexer every event, imported ones included', () => {
    const nested = Template.fromStack(stack.search.stack).toJSON() as { Resources: Record<string, Resource> };
    const mappings = Object.entries(nested.Resources).filter(
      ([, r]) => r.Type === 'AWS::Lambda::EventSourceMapping',
    );
    const events = eventPatterns(patternsOf(mappings));
    expect(events).toHaveLength(1);
    expect(events[0]?.dynamodb?.NewImage?.importId).toBeUndefined();
  });
});

describe('alarms', () => {
  const alarms = imports.alarms.map((a) => [idOf(a), resource(idOf(a)).Properties] as const);
  const queueName = (id: string) => [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id, 'QueueName'] } }];
  const common = {
    Namespace: 'AWS/SQS',
    Period: 300,
    EvaluationPeriods: 1,
    DatapointsToAlarm: 1,
    Statistic: 'Maximum',
    TreatMissingData: 'notBreaching',
  };

  it('are two, in the parent stack, with the alarm topic as action and a runbook to follow', () => {
    expect(alarms).toHaveLength(2);
    const runbook = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    expect(runbook).toMatch(/^#+ Importing a help desk$/m);
    for (const [id, a] of alarms) {
      // The stack's monitoring adds them (test/infra/monitoring.test.ts checks that it is the topic).
      expect(a.AlarmActions, id).toHaveLength(1);
      expect(a.OKActions, id).toHaveLength(1);
      expect(String(a.AlarmDescription), id).toContain('docs/operations.md, "Importing a help desk"');
      expect(String(a.AlarmDescription).length, id).toBeGreaterThan(200);
    }
  });

  it('fire on any step in the dead-letter queue', () => {
    const [, dead] = alarms.find(([, a]) => a.MetricName === 'ApproximateNumberOfMessagesVisible') ?? [];
    expect(dead).toMatchObject({
      ...common,
      Dimensions: queueName(dlqId),
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(String(dead?.AlarmDescription)).toMatch(/redrive/);
  });

  it('fire when a step has waited more than an hour', () => {
    const [, age] = alarms.find(([, a]) => a.MetricName === 'ApproximateAgeOfOldestMessage') ?? [];
    expect(IMPORT_AGE_ALARM.toSeconds()).toBe(3600);
    expect(age).toMatchObject({
      ...common,
      Dimensions: queueName(queueId),
      Threshold: 3600,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });
});

describe('import files', () => {
  it('expire with their jobs, 30 days after upload (their old versions too)', () => {
    const rules = (resource(bucketId).Properties.LifecycleConfiguration as { Rules: Json[] }).Rules;
    expect(IMPORT_KEPT_DAYS).toBe(30);
    expect(rules.filter((r) => r.Prefix === 'imports/')).toEqual([
      {
        Id: 'expire-import-files',
        Status: 'Enabled',
        Prefix: 'imports/',
        ExpirationInDays: IMPORT_KEPT_DAYS,
        NoncurrentVersionExpiration: { NoncurrentDays: IMPORT_KEPT_DAYS },
      },
    ]);
  });
});

describe('several regions', () => {
  const stacks = buildHelpdeskStacks(
    new App({ context: { ...CONTEXT, regions: 'us-east-1,eu-west-1' } }),
  ).map(build);

  it("give each region's worker its own queue and every region's bucket, as the cascade worker", () => {
    expect(stacks).toHaveLength(2);
    for (const r of stacks) {
      const worker = idOf(r.stack.imports.worker, r.stack);
      const env = envOf(worker, r);
      expect(env.IMPORT_QUEUE_URL).toEqual(ref(idOf(r.stack.imports.queue, r.stack)));
      expect(env).toMatchObject({ REGIONS: 'us-east-1,eu-west-1', PRIMARY_REGION: 'us-east-1' });
      // Every region's bucket by name, as the cascade worker is told them (test/infra/regions.test.ts).
      expect(env.BUCKETS).toBeDefined();
      expect(env.BUCKETS).toEqual(envOf(idOf(r.stack.cascades.fn, r.stack), r).BUCKETS);
      // Its object grants name each region's bucket.
      const s3 = touching(statementsOf(worker, r), 's3:GetObject');
      expect(s3.flatMap((s) => [s.Resource].flat()).length).toBe(2 * 2);
    }
  });
});
