import { App, type CfnElement, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { ApiFunction, type ApiFunctionProps, COARSE_DYNAMO } from '../../infra/api-function';
import type { BlobAccess } from '../../shared/routes';
import { functionStatements, type Resources } from './iam';

/**
 * ApiFunction's grants on their own, for what the help-desk stack does not exercise today: a table
 * and a bucket encrypted with a customer-managed key, and the coarse grant of functions outside
 * the route table (test/infra/stack.test.ts holds the routes' grants to the route table).
 */
const build = (props: Partial<ApiFunctionProps>, options: { blobs?: BlobAccess; encrypted?: true } = {}) => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Test', { env: { account: '123456789012', region: 'eu-west-1' } });
  const key = options.encrypted ? new Key(stack, 'Key', { removalPolicy: RemovalPolicy.DESTROY }) : undefined;
  const table = new TableV2(stack, 'Table', {
    partitionKey: { name: 'pk', type: AttributeType.STRING },
    ...(key ? { encryption: TableEncryptionV2.customerManagedKey(key) } : {}),
  });
  const bucket = new Bucket(stack, 'Bucket', {
    ...(key ? { encryption: BucketEncryption.KMS, encryptionKey: key } : {}),
  });
  const fn = new ApiFunction(stack, 'Fn', {
    handlerFile: 'ticket-detail',
    table,
    tableAccess: 'read',
    rateLimited: false,
    logRetention: RetentionDays.ONE_DAY,
    removalPolicy: RemovalPolicy.DESTROY,
    ...props,
    ...(options.blobs ? { blobs: { bucket, access: options.blobs } } : {}),
  });
  const resources = Template.fromStack(stack).toJSON().Resources as Resources;
  const statements = functionStatements(resources, stack.getLogicalId(fn.node.defaultChild as CfnElement));
  const actions = (prefix: string) =>
    statements.flatMap((st) => [st.Action].flat() as string[]).filter((a) => a.startsWith(prefix));
  return { actions };
};

describe('ApiFunction grants', () => {
  it('gives functions outside the route table a coarse grant without Scan, batch writes or stream actions', () => {
    const read = build({ tableAccess: 'read' }).actions('dynamodb:');
    expect(read.sort()).toEqual(
      ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Query'].sort(),
    );
    const write = build({ tableAccess: 'write' }).actions('dynamodb:');
    expect(new Set(write)).toEqual(
      new Set(COARSE_DYNAMO.write.map((a) => `dynamodb:${a.replace('index:', '')}`)),
    );
    expect(write.filter((a) => /Scan|BatchWrite|PartiQL|Stream|Records|Shard|Describe/.test(a))).toEqual([]);
  });

  it('uses a customer-managed key only as its actions need: decrypt to read, encrypt to write', () => {
    const reader = build({ dynamo: ['GetItem'] }, { blobs: { photos: ['GetObject'] }, encrypted: true });
    expect(reader.actions('kms:')).toEqual(['kms:Decrypt']);
    const writer = build({ dynamo: ['PutItem'] }, { blobs: { staging: ['PutObject'] }, encrypted: true });
    expect(new Set(writer.actions('kms:'))).toEqual(
      new Set(['kms:Decrypt', 'kms:Encrypt', 'kms:ReEncrypt*', 'kms:GenerateDataKey*']),
    );
    // Rate-limit leases write RATE# items: a read route needs the key to encrypt too.
    const leasing = build({ dynamo: ['GetItem'], rateLimited: true }, { encrypted: true });
    expect(leasing.actions('kms:')).toContain('kms:GenerateDataKey*');
    expect(build({ dynamo: ['GetItem'] }).actions('kms:')).toEqual([]);
  });
});
