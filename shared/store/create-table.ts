import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  type TableDescription,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { ALL_INDEXES, type IndexSpec, projectionOf, TABLE_KEY, TTL_ATTRIBUTE } from './table-schema';

/**
 * Creates the single table from table-schema.ts when it is missing (DynamoDB Local, tests,
 * the operator CLI), and moves a table created by an earlier version to the current indexes
 * (adds the new ones, which DynamoDB fills from the items, then deletes the ones no longer
 * used), so local data kept in `.helpdesk/` goes on working. In AWS the CDK stack owns the
 * table (and moves it one index per deployment: migrations/legacy.ts `indexesAtStep`); nothing
 * deployed calls this.
 */
export const ensureTable = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  if (!(await describeTable(client, tableName))) {
    try {
      await client.send(new CreateTableCommand(tableDefinition(tableName)));
    } catch (error) {
      // Another process (a parallel test worker, the server) created it first: fine.
      if (!(error instanceof ResourceInUseException)) throw error;
    }
  }
  await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1, maxDelay: 2 }, { TableName: tableName });
  await moveIndexesTo(client, tableName, ALL_INDEXES);
  // A table made before webhooks had no stream.
  const described = await describeTable(client, tableName);
  if (!described?.StreamSpecification?.StreamEnabled)
    await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: STREAM }));
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

const describeTable = async (
  client: DynamoDBClient,
  tableName: string,
): Promise<TableDescription | undefined> => {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
};

/** The table's global secondary indexes, by name, and whether each is active (not being created or deleted). */
export const tableIndexes = async (
  client: DynamoDBClient,
  tableName: string,
): Promise<{ name: string; active: boolean }[]> =>
  ((await describeTable(client, tableName))?.GlobalSecondaryIndexes ?? []).map((index) => ({
    name: String(index.IndexName),
    active: index.IndexStatus === 'ACTIVE',
  }));

const INDEX_WAIT_MS = 120_000;

/** The table's stream, as infra/helpdesk-stack.ts declares it. */
const STREAM = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' as const };

/**
 * Creates every index of `target` the table lacks, then deletes every index it has that is
 * not among them, one UpdateTable each (DynamoDB creates or deletes one index per call),
 * waiting until the table and its indexes are active before each step and at the end. Several
 * processes may upgrade one table at once: a change another one made first is simply found on
 * the next look.
 */
export const moveIndexesTo = async (
  client: DynamoDBClient,
  tableName: string,
  target: readonly IndexSpec[],
): Promise<void> => {
  const until = Date.now() + INDEX_WAIT_MS;
  for (;;) {
    const table = await describeTable(client, tableName);
    const indexes = table?.GlobalSecondaryIndexes ?? [];
    const busy = table?.TableStatus !== 'ACTIVE' || indexes.some((i) => i.IndexStatus !== 'ACTIVE');
    const missing = target.find((spec) => !indexes.some((i) => i.IndexName === spec.name));
    const unused = indexes.find((i) => !target.some((spec) => spec.name === i.IndexName));
    if (!busy && !missing && !unused) return;
    if (Date.now() > until)
      throw new Error(`${tableName}: indexes not active after ${INDEX_WAIT_MS / 1000} s`);
    if (busy) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    const change = missing
      ? {
          AttributeDefinitions: attributeDefinitions([missing]),
          GlobalSecondaryIndexUpdates: [{ Create: indexDefinition(missing) }],
        }
      : { GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: String(unused?.IndexName) } }] };
    try {
      await client.send(new UpdateTableCommand({ TableName: tableName, ...change }));
    } catch (error) {
      // Made (or being made) by another process meanwhile: the next look shows it.
      const now = (await describeTable(client, tableName))?.GlobalSecondaryIndexes ?? [];
      const done = missing
        ? now.some((i) => i.IndexName === missing.name)
        : !now.some((i) => i.IndexName === unused?.IndexName && i.IndexStatus === 'ACTIVE');
      if (!done && !(error instanceof ResourceInUseException)) throw error;
    }
  }
};

const attributeDefinitions = (indexes: readonly IndexSpec[], base: string[] = []) => {
  const stringKeys = new Set<string>(base);
  for (const index of indexes) stringKeys.add(index.partition).add(index.sort);
  return [...stringKeys].map((name) => ({ AttributeName: name, AttributeType: 'S' as const }));
};

const indexDefinition = (index: IndexSpec) => ({
  IndexName: index.name,
  KeySchema: [
    { AttributeName: index.partition, KeyType: 'HASH' as const },
    { AttributeName: index.sort, KeyType: 'RANGE' as const },
  ],
  Projection: projectionOf(index),
});

/** The table as table-schema.ts describes it (`indexes`: all of them unless told; tests build older tables). */
export const tableDefinition = (tableName: string, indexes: readonly IndexSpec[] = ALL_INDEXES) => ({
  TableName: tableName,
  BillingMode: 'PAY_PER_REQUEST' as const,
  AttributeDefinitions: attributeDefinitions(indexes, [TABLE_KEY.partition, TABLE_KEY.sort]),
  KeySchema: [
    { AttributeName: TABLE_KEY.partition, KeyType: 'HASH' as const },
    { AttributeName: TABLE_KEY.sort, KeyType: 'RANGE' as const },
  ],
  GlobalSecondaryIndexes: indexes.map(indexDefinition),
  // The webhook fan-out reads new event items from it (functions/webhook-fanout.ts), as in the stack.
  StreamSpecification: STREAM,
});
