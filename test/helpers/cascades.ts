import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { drainCascades } from '../../shared/domain/cascades';
import { pendingCascades } from '../../shared/store/cascades';
import { db, tableName } from '../../shared/store/dynamo';
import { keys } from '../../shared/store/keys';

/**
 * Does what the cascade worker does for the removals a test made (the stream drives it under
 * `npm start` and in AWS: test/integration/cascades.test.ts): finishes the tenant's pending
 * cascades, expecting none to fail. Answers how many there were.
 */
export const finishCascades = async (tenantId: string): Promise<number> => {
  const { finished, failed } = await drainCascades(tenantId);
  expect(failed).toEqual([]);
  expect(await pendingCascades(tenantId)).toEqual([]);
  return finished;
};

/** Every access-token item a client holds, read consistently. */
export const tokenItems = async (clientId: string) =>
  (
    await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :token)',
        ExpressionAttributeValues: { ':pk': keys.client(clientId).pk, ':token': keys.accessTokenPrefix },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

/** Every item left in a ticket's item collection (the ticket's own included), read consistently. */
export const collectionItems = async (tenantId: string, ticketId: string) =>
  (
    await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.record(tenantId, 'TICKET', ticketId).pk },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];
