import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_TICKET_TYPES } from '../schemas/lookups';
import { db, tableName } from '../store/dynamo';
import { ticketTypeEntity } from '../store/entities/records';
import { type ClientRecord, clientEntity, clientListAttributes } from '../store/entities/system';
import { itemOf } from '../store/entity';
import { newId } from '../store/ids';
import { type ItemKey, keys } from '../store/keys';
import { queryAll } from '../store/query-all';
import { insertWrites } from '../store/records';
import { deleteKeys } from '../store/sweep';
import { LIST_INDEX } from '../store/table-schema';
import { writeAtomically } from '../store/transact';
import { randomSecret, sha256 } from './hashing';

/**
 * Clients (tenants) are managed by operators through the CLI, never over the API.
 * The secret is shown once inside the apiToken = base64(clientId:secret) and stored only hashed.
 */
export interface ClientSummary {
  clientId: string;
  name: string;
  createdAt: number;
  revoked: boolean;
}

/** Creates the client and its default ticket types in one transaction. */
export const createClient = async (name: string): Promise<{ clientId: string; apiToken: string }> => {
  const clientId = newId();
  const secret = randomSecret(32);
  const client: ClientRecord = {
    clientId,
    name,
    secretHash: sha256(secret),
    createdAt: Date.now(),
    revoked: false,
  };
  const defaults = DEFAULT_TICKET_TYPES.flatMap((type) => insertWrites(ticketTypeEntity, clientId, type).ops);
  await writeAtomically([
    {
      item: {
        Put: {
          Item: itemOf(clientEntity, '', client, clientListAttributes(client)),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    ...defaults,
  ]);
  return { clientId, apiToken: Buffer.from(`${clientId}:${secret}`, 'utf8').toString('base64') };
};

export const listClients = async (): Promise<ClientSummary[]> => {
  const items = await queryAll({
    IndexName: LIST_INDEX.name,
    KeyConditionExpression: '#p = :p',
    ExpressionAttributeNames: { '#p': LIST_INDEX.partition },
    ExpressionAttributeValues: { ':p': keys.clientList() },
  });
  return items.map((item) => ({
    clientId: item.clientId as string,
    name: item.name as string,
    createdAt: item.createdAt as number,
    revoked: item.revoked === true,
  }));
};

/**
 * Marks the client revoked (no new tokens from that moment: token issue checks it inside its
 * transaction) and deletes every access token it holds. Returns false for an unknown client.
 */
export const revokeClient = async (clientId: string): Promise<boolean> => {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.client(clientId),
        UpdateExpression: 'SET revoked = :yes, revokedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':yes': true, ':now': Date.now() },
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
  const tokens = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :token)',
    ExpressionAttributeValues: { ':pk': keys.client(clientId).pk, ':token': keys.accessTokenPrefix },
    ProjectionExpression: 'pk, sk',
  });
  await deleteKeys(tokens as unknown as ItemKey[]);
  return true;
};
