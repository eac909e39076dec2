import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { buildHelpdeskStack } from '../../infra/app';
import { CASCADE_TIMEOUT } from '../../infra/cascade-worker';
import { ITERATOR_AGE_ALARM } from '../../infra/stream-worker';
import { BLOB_AREAS } from '../../shared/routes';
import { functionStatements } from './iam';

/**
 * The durable cascade in AWS (issue 22): the cascade worker reads the table's stream, filtered
 * to new cascade items, retries a failing record for the stream's whole retention, then gives its
 * metadata to a failures queue that is alarmed on; it may delete only what removals leave.
 */
type Json = Record<string, unknown>;
type Resource = { Type: string; Properties: Json };

const app = new App({
  context: { 'aws:cdk:bundling-stacks': [], removalPolicy: 'destroy', deletionProtection: 'false' },
});
const stack = buildHelpdeskStack(app);
const template = Template.fromStack(stack);
const json = template.toJSON() as { Resources: Record<string, Resource> };
const idOf = (c: IConstruct) => stack.getLogicalId(c.node.defaultChild as never);
const resources = (type: string): [string, Resource][] =>
  Object.entries(json.Resources).filter(([, r]) => r.Type === type);
const fnId = idOf(stack.cascades.fn);
const fnProps = (json.Resources[fnId] as Resource).Properties;
const failuresId = idOf(stack.cascades.failures);
const tableId = idOf(stack.table);
const bucketId = idOf(stack.attachments.bucket);
const arn = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });

/** Every statement of the worker's role: its own grants (inline) and its event source's (attached). */
const statements = (): Json[] => functionStatements(json.Resources, fnId);
const actionsOf = (prefix: string) =>
  statements()
    .flatMap((s) => [s.Action].flat() as string[])
    .filter((a) => a.startsWith(prefix))
    .sort();

describe('cascade worker', () => {
  it('reads new cascade items from the stream, retrying for 24 h, then to its failures queue', () => {
    const mappings = resources('AWS::Lambda::EventSourceMapping').filter(
      ([, m]) => JSON.stringify(m.Properties.FunctionName) === JSON.stringify({ Ref: fnId }),
    );
    expect(mappings).toHaveLength(1);
    const props = mappings[0]?.[1].Properties ?? {};
    expect(props).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: -1,
      MaximumRecordAgeInSeconds: 86_400,
      DestinationConfig: { OnFailure: { Destination: arn(failuresId) } },
    });
    const filters = (props.FilterCriteria as { Filters: { Pattern: string }[] }).Filters;
    expect(filters.map((f) => JSON.parse(f.Pattern))).toEqual([
      { eventName: ['INSERT'], dynamodb: { NewImage: { cascade: { S: [{ exists: true }] } } } },
      {
        eventName: ['REMOVE'],
        userIdentity: { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] },
        dynamodb: { OldImage: { entity: { S: ['TRASHED_TICKET'] } } },
      },
    ]);
    expect(fnProps.Timeout).toBe(CASCADE_TIMEOUT.toSeconds());
  });

  it('may read and delete items of the table, mark cascades done, write a purge, run jobs (their index reads), and read its stream', () => {
    const stream = [
      'dynamodb:DescribeStream',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
      'dynamodb:ListStreams',
    ];
    expect([...new Set(actionsOf('dynamodb:').filter((a) => !stream.includes(a)))].sort()).toEqual(
      [
        'dynamodb:BatchGetItem',
        'dynamodb:BatchWriteItem',
        'dynamodb:ConditionCheckItem',
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
      ].sort(),
    );
    // On indexes, a customer's tickets (their search, the trash's list) and nothing else.
    const onIndexes = statements().filter((s) => JSON.stringify(s.Resource).includes('/index/'));
    expect(onIndexes.flatMap((s) => [s.Action].flat())).toEqual(['dynamodb:Query']);
  });

  it('may list the bucket and its versions, delete documents, photos and exports with their versions, sign their links and put exports, nothing more', () => {
    expect([...new Set(actionsOf('s3:'))].sort()).toEqual(
      [
        's3:DeleteObject',
        's3:DeleteObjectVersion',
        's3:GetObject',
        's3:ListBucket',
        's3:ListBucketVersions',
        's3:PutObject',
      ].sort(),
    );
    const deletes = statements().filter((s) => JSON.stringify(s.Action).includes('s3:DeleteObject'));
    const resourcesOf = JSON.stringify(deletes.map((s) => s.Resource));
    for (const area of ['documents', 'photos', 'exports'] as const)
      expect(resourcesOf).toContain(BLOB_AREAS[area]);
    expect(resourcesOf).not.toContain(BLOB_AREAS.staging);
    const puts = statements().filter((s) => JSON.stringify(s.Action).includes('s3:PutObject'));
    expect(JSON.stringify(puts.map((s) => s.Resource))).not.toContain(BLOB_AREAS.documents);
    const env = (fnProps.Environment as { Variables: Json }).Variables;
    expect(env.BUCKET_NAME).toEqual({ Ref: bucketId });
  });

  it('may send only to its own failures queue (the on-failure destination)', () => {
    for (const s of statements().filter((st) => JSON.stringify(st.Action).includes('sqs:')))
      expect(s.Resource).toEqual(arn(failuresId));
  });

  it('alarms on any given-up record and on falling 10 min behind the stream', () => {
    const alarms = stack.cascades.alarms.map((a) => json.Resources[idOf(a)]?.Properties ?? {});
    expect(alarms).toHaveLength(2);
    expect(alarms).toContainEqual(
      expect.objectContaining({
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Namespace: 'AWS/SQS',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      }),
    );
    expect(alarms).toContainEqual(
      expect.objectContaining({
        MetricName: 'IteratorAge',
        Threshold: ITERATOR_AGE_ALARM.toMilliseconds(),
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId } }],
      }),
    );
    for (const a of alarms) expect(String(a.AlarmDescription)).toMatch(/helpdesk cascades drain|logs/);
  });
});
