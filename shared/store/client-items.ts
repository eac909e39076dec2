import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { cascadeWrite } from './cascades';
import { db, tableName } from './dynamo';
import { conditionOf, queryOf, updateOf } from './expression';
import { SEQUENCE_HOME } from './home-fence';
import { type ItemKey, keys } from './keys';
import { partitionKeys, queryAll } from './query-all';
import { LIST_INDEX } from './table-schema';
import { updateIf } from './update-if';
import { ABSENT, COUNT, EXISTS, type WriteOp } from './write-ops';

/**
 * The items of clients (tenants) and their access tokens as the operator's commands and token
 * issuing read and write them (auth/clients.ts, auth/access-tokens.ts): every key and expression
 * here, none there.
 */
type Item = Record<string, unknown>;

/** The Put that creates a client's item (`item`, built by entities/system.ts), only if it is new. */
export const clientCreation = (item: Item): WriteOp => ({
  item: { Put: { Item: item, ...conditionOf(ABSENT) } },
});

/** A client's item, read strongly consistent; undefined when there is none. */
export const readClientItem = async (clientId: string): Promise<Item | undefined> =>
  (
    await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.client(clientId), ConsistentRead: true }),
    )
  ).Item;

/** Every client's item (the `list` index partition of clients). */
export const listClientItems = (): Promise<Item[]> =>
  queryAll({
    IndexName: LIST_INDEX.name,
    ...queryOf({ partition: [LIST_INDEX.partition, keys.clientList()] }),
  });

/** A check, inside a token's transaction, that the client exists and is not revoked. */
export const activeClientCheck = (clientId: string, refused: () => Error): WriteOp => ({
  item: {
    ConditionCheck: {
      Key: keys.client(clientId),
      ...conditionOf({ and: [EXISTS, { eq: ['revoked', false] }] }),
    },
  },
  onConditionFailed: refused,
});

/** Sets attributes of an existing client's item; false when there is no such client. */
export const updateClient = (clientId: string, set: Item): Promise<boolean> =>
  updateIf({ Key: keys.client(clientId), ...updateOf({ set }, EXISTS) });

/**
 * A revocation's writes: the client marked revoked (its tokens stop verifying, none is issued),
 * and the cascade that deletes the tokens it holds (store/cascades.ts), in one transaction. The
 * client update fails with `missing` when the client does not exist.
 */
export const revokeWrites = (clientId: string, now: number, missing: () => Error): WriteOp[] => [
  {
    item: {
      Update: { Key: keys.client(clientId), ...updateOf({ set: { revoked: true, revokedAt: now } }, EXISTS) },
    },
    onConditionFailed: missing,
  },
  cascadeWrite(clientId, { kind: 'tokens', clientId }, now),
];

/**
 * A re-homing's writes (auth/clients.ts `rehomeClient`): the client's new home and settling time,
 * and each ticket-number sequence named to the new home, with the same settling time, moved on by
 * `gap`. The client update fails with `missing` when the client does not exist.
 */
export const rehomeWrites = (
  clientId: string,
  change: { region: string; now: number; settledAt: number; gap: number; sequences: readonly ItemKey[] },
  missing: () => Error,
): WriteOp[] => [
  {
    item: {
      Update: {
        Key: keys.client(clientId),
        ...updateOf(
          { set: { homeRegion: change.region, rehomedAt: change.now, settledAt: change.settledAt } },
          EXISTS,
        ),
      },
    },
    onConditionFailed: missing,
  },
  ...change.sequences.map((key) => ({
    item: {
      Update: {
        Key: key,
        ...updateOf({
          set: { [SEQUENCE_HOME]: change.region, settledAt: change.settledAt },
          add: { [COUNT]: change.gap },
        }),
      },
    },
  })),
];

/** The keys of every access token a client holds. */
export const clientTokenKeys = (clientId: string): Promise<ItemKey[]> =>
  partitionKeys(keys.client(clientId).pk, keys.accessTokenPrefix);
