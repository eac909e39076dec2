import { config } from '../config';
import { type CompatProfile, storedCompat } from '../schemas/compat';
import {
  clientCreation,
  listClientItems,
  readClientItem,
  rehomeWrites,
  revokeWrites,
  updateClient,
} from '../store/client-items';
import {
  type ClientRecord,
  clientEntity,
  clientListAttributes,
  HISTORY_DAYS,
  TRASH_DAYS,
} from '../store/entities/system';
import { itemOf } from '../store/entity-item';
import { NotFound } from '../store/errors';
import { newId } from '../store/ids';
import { counterNames, keys } from '../store/keys';
import { defaultHomeRegion, inRegion } from '../store/store-region';
import { writeAtomically } from '../store/transact';
import type { WriteOp } from '../store/write-ops';
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
  /** Days its deleted tickets stay in the trash. */
  trashDays: number;
  /** Days its history entries are kept. */
  historyDays: number;
  createdAt: number;
  revoked: boolean;
  /** The region that takes its writes. */
  homeRegion: string;
}

/** A client item's trash retention in days. */
export const trashDaysOf = (client: { trashDays?: unknown }): number =>
  typeof client.trashDays === 'number' ? client.trashDays : TRASH_DAYS;

/** A client item's history retention in days. */
export const historyDaysOf = (client: { historyDays?: unknown }): number =>
  typeof client.historyDays === 'number' ? client.historyDays : HISTORY_DAYS;

/** The home region of a client item (one created before regions existed: the primary region). */
export const homeOf = (client: { homeRegion?: unknown }): string =>
  typeof client.homeRegion === 'string' ? client.homeRegion : defaultHomeRegion();

/**
 * How far a tenant's ticket numbers jump when it is re-homed: more than its old home could have
 * issued in the replication lag before it went down (at most a few seconds of inserts), so that
 * no number issued there and not yet replicated is issued again by the new home.
 */
export const REHOME_NUMBER_GAP = 100_000;

/**
 * A new client, pinned to a compatibility profile and homed in `homeRegion`: its id, its apiToken
 * and the write that creates its item. domain/new-client.ts commits it with the client's seeded
 * ticket types and their events.
 */
export const newClient = (
  name: string,
  compat: CompatProfile,
  homeRegion: string,
): { clientId: string; apiToken: string; write: WriteOp } => {
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
  return {
    clientId,
    apiToken: Buffer.from(`${clientId}:${secret}`, 'utf8').toString('base64'),
    write: clientCreation(itemOf(clientEntity, '', client, clientListAttributes(client))),
  };
};

export const listClients = async (): Promise<ClientSummary[]> => {
  const items = await listClientItems();
  return items.map((item) => ({
    clientId: item.clientId as string,
    name: item.name as string,
    compat: storedCompat(item.compat),
    createdAt: item.createdAt as number,
    revoked: item.revoked === true,
    homeRegion: homeOf(item),
    trashDays: trashDaysOf(item),
    historyDays: historyDaysOf(item),
  }));
};

/**
 * How long the new home refuses a re-homed tenant's writes (they answer 503, nothing written):
 * the old home's last acknowledged writes replicate meanwhile, so none is overwritten by a write
 * planned without it (last writer wins per item). Well above global tables' usual lag (about a
 * second; the ReplicationLatency alarm fires past 60 s). REHOME_SETTLE_MS changes it.
 */
export const REHOME_SETTLE_MS = 10_000;

export interface RehomeOutcome {
  /** The home the client had. */
  oldHome: string;
  /**
   * Whether the old home was told first, so that it refuses the tenant's writes from then on.
   * False when it could not be reached (an outage): `oldHomeError` says why.
   */
  oldHomeFenced: boolean;
  oldHomeError?: string;
  /** From when (ms) the new home takes the tenant's writes. */
  writesFrom: number;
}

/**
 * Moves a tenant's home to `region` (a regional outage, or moving back: docs/regions.md,
 * "Re-homing"); undefined for an unknown client.
 *
 * One transaction, written at the old home first (when it answers), then at the new home: the
 * client's `homeRegion` and `settledAt` (now plus the settling time), and every ticket-number
 * sequence of this and next year named to the new home (`home`), with the same `settledAt`, and
 * moved on by REHOME_NUMBER_GAP.
 * 1. From the first write on, the old home refuses the tenant's writes (store/home-fence.ts),
 *    even through instances that still remember it as the home.
 * 2. The new home refuses them until `settledAt`: the old home's last writes replicate meanwhile.
 * 3. No number the old home issued is issued again: whichever of the two writes of a sequence
 *    wins replication, it holds the old value plus the gap.
 *
 * With the old home down, step 1 fails and is reported: writes it acknowledged and had not
 * replicated are not in the new home; they replicate when it comes back (last writer wins per
 * item), and the old home then refuses the tenant's writes as soon as step 2 has reached it.
 */
export const rehomeClient = async (clientId: string, region: string): Promise<RehomeOutcome | undefined> => {
  const client = await readClientItem(clientId);
  if (!client) return undefined;
  const oldHome = homeOf(client);
  const now = Date.now();
  const writesFrom = now + (config().REHOME_SETTLE_MS ?? REHOME_SETTLE_MS);
  const year = new Date(now).getUTCFullYear();
  const sequences = [year, year + 1].map((y) => keys.counter(clientId, counterNames.sequence('TICKET', y)));
  // Both homes get the same change, so whichever replica's version wins (last writer wins per
  // item, whatever the clocks say) names the new home, keeps the settling time and has the gap.
  const rehomed = rehomeWrites(
    clientId,
    { region, now, settledAt: writesFrom, gap: REHOME_NUMBER_GAP, sequences },
    () => new NotFound(`Client ${clientId}`),
  );
  let oldHomeFenced = oldHome === region;
  let oldHomeError: string | undefined;
  if (oldHome !== region) {
    try {
      await inRegion(oldHome, () => writeAtomically(rehomed));
      oldHomeFenced = true;
    } catch (error) {
      if (error instanceof NotFound) return undefined;
      oldHomeError = `${(error as Error).name}: ${(error as Error).message}`;
    }
  }
  try {
    await inRegion(region, () => writeAtomically(rehomed));
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
  return { oldHome, oldHomeFenced, ...(oldHomeError ? { oldHomeError } : {}), writesFrom };
};

/** What an operator may change of a client (`client update`). */
export interface ClientSettings {
  /** The compatibility profile its answers follow. */
  compat?: CompatProfile;
  /** Days its deleted tickets stay in the trash (0: a delete purges at once); tickets already in the trash keep theirs. */
  trashDays?: number;
  /** Days its history entries are kept (entries already written keep theirs). */
  historyDays?: number;
}

/**
 * Changes the settings given, in one write. Returns false for an unknown client. Instances that
 * verified one of its tokens in the last 30 s may answer with the former settings for the rest of
 * those 30 s (access-tokens.ts).
 */
export const setClientSettings = (clientId: string, settings: ClientSettings): Promise<boolean> =>
  updateClient(clientId, { ...settings });

/**
 * Marks the client revoked (no new tokens from that moment: token issue checks it inside its
 * transaction; no token of it verifies from then on: verification reads the client item too),
 * and in the same transaction the cascade that deletes every access token it holds
 * (store/cascades.ts). Returns false for an unknown client.
 */
export const revokeClient = async (clientId: string): Promise<boolean> => {
  try {
    await writeAtomically(revokeWrites(clientId, Date.now(), () => new NotFound(`Client ${clientId}`)));
    return true;
  } catch (error) {
    if (error instanceof NotFound) return false;
    throw error;
  }
};
