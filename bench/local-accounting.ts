import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { AwsMetering } from './aws-metering';
import { type Capacity, reportedSplit } from './meter';
import type { UnitSplit } from './unit-split';

/**
 * How DynamoDB Local's reported capacity compares with AWS's documented rules, on a scratch
 * table of the bench's DynamoDB Local with one ALL and one INCLUDE index: a few plain writes and
 * reads, and transactions of equal and of different elements. Each request is sent once, with
 * ReturnConsumedCapacity, and charged on AWS's rules by the same code as the operations
 * (aws-metering.ts). Outcome (docs/performance.md): plain writes and reads agree; transactions do not.
 */
export interface AccountingCase {
  name: string;
  aws: UnitSplit;
  local: UnitSplit;
}

const TABLE = 'bench-accounting';
type Item = Record<string, unknown>;

/** `{pk, sk: 's', a, b}` of about `bytes` bytes, in both indexes when `indexed`. */
const item = (pk: string, bytes: number, indexed = true): Item => ({
  pk,
  sk: 's',
  ...(indexed ? { ap: 'A', as: pk, ip: 'I', is: pk } : {}),
  a: 'a',
  b: 'x'.repeat(Math.max(0, bytes - 30)),
});

export const runLocalAccounting = async (
  raw: DynamoDBDocumentClient,
  metering: AwsMetering,
): Promise<AccountingCase[]> => {
  const key = (name: string) => ({ AttributeName: name, AttributeType: 'S' as const });
  const index = (name: string, partition: string, sort: string, include?: string[]) => ({
    IndexName: name,
    KeySchema: [
      { AttributeName: partition, KeyType: 'HASH' as const },
      { AttributeName: sort, KeyType: 'RANGE' as const },
    ],
    Projection: include
      ? { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: include }
      : { ProjectionType: 'ALL' as const },
  });
  await raw.send(
    new CreateTableCommand({
      TableName: TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: ['pk', 'sk', 'ap', 'as', 'ip', 'is'].map(key),
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [index('all', 'ap', 'as'), index('inc', 'ip', 'is', ['a'])],
    }),
  );
  const cases: AccountingCase[] = [];
  /** Sends one request and charges it both ways. */
  const measure = async (name: string, command: string, input: Item) => {
    const single = command !== 'TransactWriteItems' && command !== 'BatchGetItem';
    const sent = { ...input, ...(single ? { TableName: TABLE } : {}), ReturnConsumedCapacity: 'INDEXES' };
    const pending = metering.isWrite(command) ? await metering.beforeWrite(command, sent) : undefined;
    const output = (await send(raw, command, sent)) as Item & { ConsumedCapacity?: Capacity };
    const aws = pending
      ? await metering.afterWrite(pending, output)
      : await metering.read(command, sent, output);
    cases.push({ name, aws: aws.units, local: reportedSplit(command, output.ConsumedCapacity ?? []) });
  };
  const put = (i: Item) => ({ Put: { TableName: TABLE, Item: i } });
  try {
    await measure('PutItem, 1.5 KB, in both indexes', 'PutItem', { Item: item('p1', 1500) });
    await measure('UpdateItem of an attribute `inc` does not project', 'UpdateItem', {
      Key: { pk: 'p1', sk: 's' },
      UpdateExpression: 'SET b = :b',
      ExpressionAttributeValues: { ':b': 'y'.repeat(1470) },
    });
    await measure("UpdateItem moving the `inc` entry's sort key", 'UpdateItem', {
      Key: { pk: 'p1', sk: 's' },
      UpdateExpression: 'SET #s = :s',
      ExpressionAttributeNames: { '#s': 'is' },
      ExpressionAttributeValues: { ':s': 'moved' },
    });
    await measure('TransactWriteItems: one Put, 1.5 KB', 'TransactWriteItems', {
      TransactItems: [put(item('t1', 1500))],
    });
    await measure('TransactWriteItems: 3 Puts, 2.5 KB each', 'TransactWriteItems', {
      TransactItems: [put(item('t2', 2500)), put(item('t3', 2500)), put(item('t4', 2500))],
    });
    await measure('TransactWriteItems: Puts of 1.5, 2.5, 3.5, 4.5 KB', 'TransactWriteItems', {
      TransactItems: [1500, 2500, 3500, 4500].map((bytes, i) => put(item(`t${5 + i}`, bytes))),
    });
    await measure('TransactWriteItems: 10 counter ADDs, no index', 'TransactWriteItems', {
      TransactItems: Array.from({ length: 10 }, (_, i) => ({
        Update: {
          TableName: TABLE,
          Key: { pk: `c${i}`, sk: 's' },
          UpdateExpression: 'ADD n :one',
          ExpressionAttributeValues: { ':one': 1 },
        },
      })),
    });
    await measure('TransactWriteItems: ConditionCheck of 2.5 KB, Put of 0.1 KB', 'TransactWriteItems', {
      TransactItems: [
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: { pk: 't2', sk: 's' },
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        put(item('t9', 100, false)),
      ],
    });
    await measure('GetItem, 4.5 KB, eventually consistent', 'GetItem', { Key: { pk: 't8', sk: 's' } });
    await measure('BatchGetItem: 1.5 KB, 4.5 KB and a missing key', 'BatchGetItem', {
      RequestItems: { [TABLE]: { Keys: ['t1', 't8', 'none'].map((pk) => ({ pk, sk: 's' })) } },
    });
    await measure('Query of `inc` (INCLUDE), 9 entries', 'Query', {
      IndexName: 'inc',
      KeyConditionExpression: 'ip = :p',
      ExpressionAttributeValues: { ':p': 'I' },
    });
  } finally {
    await raw.send(new DeleteTableCommand({ TableName: TABLE }));
  }
  return cases;
};

/** Sends one request of a command named as the meter names them. */
const send = (raw: DynamoDBDocumentClient, command: string, input: Item): Promise<unknown> => {
  switch (command) {
    case 'PutItem':
      return raw.send(new PutCommand(input as never));
    case 'UpdateItem':
      return raw.send(new UpdateCommand(input as never));
    case 'TransactWriteItems':
      return raw.send(new TransactWriteCommand(input as never));
    case 'GetItem':
      return raw.send(new GetCommand(input as never));
    case 'BatchGetItem':
      return raw.send(new BatchGetCommand(input as never));
    case 'Query':
      return raw.send(new QueryCommand(input as never));
    default:
      throw new Error(`no command ${command}`);
  }
};
