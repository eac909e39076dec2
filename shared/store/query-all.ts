import { paginateQuery, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';
import { queryOf } from './expression';
import type { ItemKey } from './keys';

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

/** The keys of every item of partition `pk` (those whose sort key begins with `prefix`), read consistently: what a cleanup deletes. */
export const partitionKeys = async (pk: string, prefix?: string): Promise<ItemKey[]> =>
  (await queryAll({
    ...queryOf(
      { partition: ['pk', pk], ...(prefix ? { sort: { beginsWith: ['sk', prefix] } } : {}) },
      { project: ['pk', 'sk'] },
    ),
    ConsistentRead: true,
  })) as unknown as ItemKey[];

/** Every item of partition `pk` (a record's history, a subscription's delivery attempts), read consistently. */
export const partitionItems = (pk: string): Promise<Item[]> =>
  queryAll({ ...queryOf({ partition: ['pk', pk] }), ConsistentRead: true });
