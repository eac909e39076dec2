import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { ALL_INDEXES, TABLE_KEY, TTL_ATTRIBUTE } from './table-schema';

/**
 * Creates the single table from table-schema.ts when it is missing (DynamoDB Local, tests,
 * the operator CLI). In AWS the CDK stack owns the table; nothing deployed calls this.
 */
export const ensureTable = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  if (!(await tableExists(client, tableName))) {
    try {
      await client.send(new CreateTableCommand(tableDefinition(tableName)));
    } catch (error) {
      // Another process (a parallel test worker, the server) created it first: fine.
      if (!(error instanceof ResourceInUseException)) throw error;
    }
  }
  await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1, maxDelay: 2 }, { TableName: tableName });
  try {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    );
  } catch {
    // Already enabled (a ValidationException), or not supported by the emulator: expired
    // tokens are rejected by their expiry time anyway; TTL only cleans them up.
  }
};

const tableExists = async (client: DynamoDBClient, tableName: string): Promise<boolean> => {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return true;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  }
};

const tableDefinition = (tableName: string) => {
  const stringKeys = new Set<string>([TABLE_KEY.partition, TABLE_KEY.sort]);
  for (const index of ALL_INDEXES) stringKeys.add(index.partition).add(index.sort);
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...stringKeys].map((name) => ({
      AttributeName: name,
      AttributeType: 'S' as const,
    })),
    KeySchema: [
      { AttributeName: TABLE_KEY.partition, KeyType: 'HASH' as const },
      { AttributeName: TABLE_KEY.sort, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: ALL_INDEXES.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partition, KeyType: 'HASH' as const },
        { AttributeName: index.sort, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
};
