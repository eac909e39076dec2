import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type CompatProfile, DEFAULT_COMPAT, storedCompat } from '../schemas/compat';
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
  /** Its compatibility profile (`standard` for clients created before profiles existed). */
  compat: CompatProfile;
  createdAt: number;
  revoked: boolean;
}

/** Creates the client, pinned to a compatibility profile, and its default ticket types in one transaction. */
export const createClient = async (
  name: string,
  compat: CompatProfile = DEFAULT_COMPAT,
): Promise<{ clientId: string; apiToken: string }> => {
  const clientId = newId();
  const secret = randomSecret(32);
  const client: ClientRecord = {
    clientId,
    name,
    secretHash: sha256(secret),
    createdAt: Date.now(),
    revoked: false,
    compat,
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
    compat: storedCompat(item.compat),
    createdAt: item.createdAt as number,
    revoked: item.revoked === true,
  }));
};

/**
 * Pins the client to another compatibility profile. Returns false for an unknown client.
 * Instances that verified one of its tokens in the last 30 s may answer with the former
 * profile for the rest of those 30 s (access-tokens.ts).
 */
export const setClientCompat = async (clientId: string, compat: CompatProfile): Promise<boolean> => {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.client(clientId),
        UpdateExpression: 'SET compat = :compat',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':compat': compat },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
};

/**
 * Marks the client revoked (no new tokens from that moment: token issue checks it inside its
 * transaction; no token of it verifies from then on: verification reads the client item too)
 * and deletes every access token it holds. Returns false for an unknown client.
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
