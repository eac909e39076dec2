import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { listClientItems } from '../shared/store/client-items';
import { db, tableName } from '../shared/store/dynamo';
import { conditionOf, queryOf, updateOf } from '../shared/store/expression';
import { keys } from '../shared/store/keys';
import { queryAll } from '../shared/store/query-all';
import { LIST_INDEX } from '../shared/store/table-schema';

/**
 * What DynamoDB's TTL does to the trash in AWS, for DynamoDB Local (which keeps expired items):
 * every trashed ticket past its retention is deleted, as TTL would, after being marked
 * `ttlExpired`, so that its stream record can be told from a restore's or a purge's (in AWS the
 * record's `userIdentity` names DynamoDB's TTL; local/event-pipeline.ts puts that back) and
 * handed to the cascade worker. Answers how many it expired.
 */
export const TTL_MARK = 'ttlExpired';

export const expireTrash = async (now = Date.now()): Promise<number> => {
  let expired = 0;
  for (const client of await listClientItems()) {
    const entries = await queryAll({
      IndexName: LIST_INDEX.name,
      ...queryOf(
        { partition: [LIST_INDEX.partition, keys.trash(String(client.clientId))] },
        { filter: { le: ['expiresAt', now] } },
      ),
    });
    for (const entry of entries) {
      const Key = { pk: entry.pk, sk: entry.sk };
      try {
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key,
            ...updateOf({ set: { [TTL_MARK]: true } }, { exists: 'pk' }),
          }),
        );
        await db().send(
          new DeleteCommand({ TableName: tableName(), Key, ...conditionOf({ eq: [TTL_MARK, true] }) }),
        );
        expired++;
      } catch (error) {
        // Restored or purged meanwhile: nothing to expire.
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      }
    }
  }
  return expired;
};
