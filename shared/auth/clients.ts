import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { type CompatProfile, DEFAULT_COMPAT, storedCompat } from '../schemas/compat';
import { DEFAULT_TICKET_TYPES } from '../schemas/lookups';
import { db, tableName } from '../store/dynamo';
import { ticketTypeEntity } from '../store/entities/records';
import { type ClientRecord, clientEntity, clientListAttributes } from '../store/entities/system';
import { itemOf } from '../store/entity';
import { NotFound } from '../store/errors';
import { newId } from '../store/ids';
import { counterNames, type ItemKey, keys } from '../store/keys';
import { queryAll } from '../store/query-all';
import { insertWrites } from '../store/records';
import { inRegion } from '../store/store-region';
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
  /** The region that takes its writes. */
  homeRegion: string;
}

/** The home region of a client item (one created before regions existed: the primary region). */
export const homeOf = (client: { homeRegion?: unknown }): string => {
  const { PRIMARY_REGION, AWS_REGION } = config();
  return typeof client.homeRegion === 'string' ? client.homeRegion : (PRIMARY_REGION ?? AWS_REGION);
};

/**
 * How far a tenant's ticket numbers jump when it is re-homed: more than its old home could have
 * issued in the replication lag before it went down (at most a few seconds of inserts), so that
 * no number issued there and not yet replicated is issued again by the new home.
 */
export const REHOME_NUMBER_GAP = 100_000;

/** Creates the client, pinned to a compatibility profile, and its default ticket types in one transaction. */
export const createClient = async (
  name: string,
  compat: CompatProfile = DEFAULT_COMPAT,
  homeRegion: string = config().AWS_REGION,
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
    homeRegion,
  };
  const defaults = DEFAULT_TICKET_TYPES.flatMap((type) => insertWrites(ticketTypeEntity, clientId, type).ops);
  // Its first data (the default ticket types) is written where all its data will be: at home.
  await inRegion(homeRegion, () =>
    writeAtomically([
      {
        item: {
          Put: {
            Item: itemOf(clientEntity, '', client, clientListAttributes(client)),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      },
      ...defaults,
    ]),
  );
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
    homeRegion: homeOf(item),
  }));
};

/**
 * Moves a tenant's home to `region` (a regional outage: docs/regions.md, "Re-homing"). Written
 * in the new home, in one transaction: the client's `homeRegion`, and every ticket-number
 * sequence of this and next year moved on by REHOME_NUMBER_GAP, so no number the old home
 * issued and had not yet replicated is issued again. Writes the old home acknowledged and had
 * not replicated when it went down are not here; they come back when it does (last writer wins
 * per item). Returns false for an unknown client.
 */
export const rehomeClient = async (clientId: string, region: string): Promise<boolean> =>
  inRegion(region, async () => {
    const year = new Date().getUTCFullYear();
    const sequences = [year, year + 1].map((y) => counterNames.sequence('TICKET', y));
    try {
      await writeAtomically([
        {
          item: {
            Update: {
              Key: keys.client(clientId),
              UpdateExpression: 'SET homeRegion = :region, rehomedAt = :now',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':region': region, ':now': Date.now() },
            },
          },
          onConditionFailed: () => new NotFound(`Client ${clientId}`),
        },
        ...sequences.map((name) => ({
          item: {
            Update: {
              Key: keys.counter(clientId, name),
              UpdateExpression: 'ADD #n :gap',
              ExpressionAttributeNames: { '#n': 'n' },
              ExpressionAttributeValues: { ':gap': REHOME_NUMBER_GAP },
            },
          },
        })),
      ]);
      return true;
    } catch (error) {
      if (error instanceof NotFound) return false;
      throw error;
    }
  });

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
