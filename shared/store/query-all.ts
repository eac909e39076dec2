import { paginateQuery, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';

type Item = Record<string, unknown>;

/** Every item a Query matches, following DynamoDB's 1 MB pages (for collections read whole). */
export const queryAll = async (input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> => {
  const items: Item[] = [];
  for await (const page of paginateQuery({ client: db() }, { ...input, TableName: tableName() })) {
    // One push per item: a page of key-only items holds tens of thousands, too many to spread as arguments.
    for (const item of page.Items ?? []) items.push(item as Item);
  }
  return items;
};
