import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';
import { liveItem } from './entity-item';
import { projectionOf } from './expression';
import { ERASED_MARK, type ItemKey } from './keys';

/**
 * The attributes named of the item at `key`, read consistently (its keys always), or `missing`
 * thrown when there is none: the check a page of a record's parts starts with.
 */
export const readExisting = async (
  key: ItemKey,
  attributes: readonly string[],
  missing: () => Error,
): Promise<Record<string, unknown>> => {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: key,
      ConsistentRead: true,
      ...projectionOf(['pk', ERASED_MARK, ...attributes]),
    }),
  );
  const item = liveItem(out.Item);
  if (!item) throw missing();
  return item;
};
