import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';
import type { BaseRecord, RecordEntity, Stored } from './entities/records';
import { liveItem } from './entity-item';
import { NotFound } from './errors';
import { queryOf } from './expression';
import { isId } from './ids';
import { keys } from './keys';
import { queryAll } from './query-all';
import { LIST_INDEX } from './table-schema';

/**
 * Reads of the record resources (customers, agents, lookups, webhook subscriptions): one record,
 * or every record of a kind a tenant has few of. Pages of them: record-pages.ts.
 */
export const recordMissing = <T extends BaseRecord>(e: RecordEntity<T>, id: string) =>
  new NotFound(`${e.label} ${id}`);

/**
 * Every record of a kind in a tenant, read whole from its list index (eventually consistent): for
 * kinds a tenant has few of (webhook subscriptions, capped by their entity's `list.max`).
 */
export const allRecords = async <T extends BaseRecord>(
  e: RecordEntity<T>,
  tenantId: string,
): Promise<Stored<T>[]> =>
  (await queryAll({
    IndexName: LIST_INDEX.name,
    ...queryOf({ partition: [LIST_INDEX.partition, keys.list(tenantId, e.kind)] }),
  })) as unknown as Stored<T>[];

export const getRecord = async <T extends BaseRecord>(
  e: RecordEntity<T>,
  tenantId: string,
  id: string,
  consistent = false,
): Promise<Stored<T>> => {
  if (!isId(id)) throw recordMissing(e, id);
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: e.key(tenantId, { id } as T),
      ConsistentRead: consistent,
    }),
  );
  const item = liveItem(out.Item);
  if (!item) throw recordMissing(e, id);
  return item as Stored<T>;
};
