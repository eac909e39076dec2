import { type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/store/dynamo';

type Item = Record<string, unknown>;

/** Every item of a table (all of its 1 MB pages), read consistently: the configured one unless named. */
export const scanTable = async (
  client: DynamoDBDocumentClient = db(),
  table = tableName(),
): Promise<Item[]> => {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const out = await client.send(
      new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey: start }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
};

/** Whether a text holds any of `needles`, whatever the case (an erased customer's e-mail, name). */
export const holdsAny = (needles: readonly string[]) => {
  const lower = needles.map((n) => n.toLowerCase());
  return (text: string): boolean => lower.some((n) => text.toLowerCase().includes(n));
};
