import { config } from '../config';
import { type CompatProfile, storedCompat } from '../schemas/compat';
import type { TokenView } from '../schemas/views';
import { getMany } from '../store/batch-get';
import { activeClientCheck, readClientItem } from '../store/client-items';
import { accessTokenEntity } from '../store/entities/system';
import { itemOf } from '../store/entity-item';
import { Unauthorized } from '../store/errors';
import { keys } from '../store/keys';
import { inRegion, storeRegion } from '../store/store-region';
import { TTL_ATTRIBUTE } from '../store/table-schema';
import { writeAtomically } from '../store/transact';
import { itemId } from '../store/write-ops';
import { historyDaysOf, homeOf, trashDaysOf } from './clients';
import { randomSecret, sameHash, sha256 } from './hashing';

export const TOKEN_SCOPE = 'read write';

/** The token response (RFC 6749 §5.1), typed by its response schema. */
export type IssuedToken = TokenView;

/**
 * Client credentials grant, first half: the secret is checked against its stored hash in
 * constant time. An unknown, revoked or wrong client is the same 401.
 */
export const verifyClientSecret = async (
  clientId: string,
  secret: string,
): Promise<{ homeRegion: string }> => {
  const stored = await readClientItem(clientId);
  const secretOk = sameHash(sha256(secret), typeof stored?.secretHash === 'string' ? stored.secretHash : '');
  if (!stored || stored.revoked === true || !secretOk) throw new Unauthorized('Basic');
  return { homeRegion: homeOf(stored) };
};

/**
 * Client credentials grant, second half (after `verifyClientSecret` and the exchange budget):
 * the token is written, hashed, in one transaction with a check that the client is still
 * active, so a token can never be issued to a client revoked a moment earlier.
 */
export const issueAccessToken = async (
  clientId: string,
  homeRegion = config().AWS_REGION,
): Promise<IssuedToken> => {
  const token = randomSecret(32);
  const ttl = config().TOKEN_TTL_SECONDS;
  const expiresAt = Date.now() + ttl * 1000;
  // Written at the client's home: a region the token has not replicated to yet finds it there.
  await inRegion(homeRegion, () =>
    writeAtomically([
      activeClientCheck(clientId, () => new Unauthorized('Basic')),
      {
        item: {
          Put: {
            Item: itemOf(
              accessTokenEntity,
              '',
              { clientId, tokenHash: sha256(token), expiresAt },
              { [TTL_ATTRIBUTE]: Math.ceil(expiresAt / 1000) },
            ),
          },
        },
      },
    ]),
  );
  return { access_token: token, token_type: 'bearer', expires_in: ttl, scope: TOKEN_SCOPE };
};

/** What a verified token tells about its client: the profile its answers follow. */
export interface VerifiedClient {
  compat: CompatProfile;
  /** Where its writes go (docs/regions.md). */
  homeRegion: string;
  /** How many days its deleted tickets stay in the trash (`client update --trash-days`). */
  trashDays: number;
  /** How many days its history entries are kept (`client update --history-days`). */
  historyDays: number;
}

/**
 * Verified tokens are remembered per instance for a short while so that steady traffic costs
 * no extra round trip for auth. Revocation marks the client and deletes its token items; a
 * cached token stays usable for at most CACHE_MS afterwards (documented), and so does a
 * client's former profile after `client update`.
 */
const CACHE_MS = 30_000;
const MAX_CACHED = 1000;
const verified = new Map<string, { client: VerifiedClient; expiresAt: number; until: number }>();

/**
 * Checks a bearer token of a client with one strongly consistent BatchGetItem of the token item
 * and the client item (both under `CLIENT#<id>`): the token must exist, match, belong to the
 * client and be unexpired, and the client must exist and not be revoked. A token of a revoked
 * client is refused here even if its item is still there (revocation deletes token items after
 * marking the client; a sweep can fail). Answers the client's profile from the same read.
 */
export const verifyAccessToken = async (clientId: string, token: string): Promise<VerifiedClient> => {
  const tokenHash = sha256(token);
  const cacheKey = `${clientId}\n${tokenHash}`;
  const now = Date.now();
  const hit = verified.get(cacheKey);
  if (hit && hit.until > now && hit.expiresAt > now) return hit.client;

  const tokenKey = keys.accessToken(clientId, tokenHash);
  const clientKey = keys.client(clientId);
  const found = await getMany([tokenKey, clientKey], { consistent: true });
  let item = found.get(itemId(tokenKey));
  const client = found.get(itemId(clientKey));
  const homeRegion = client ? homeOf(client) : config().AWS_REGION;
  // A token issued a moment ago at the client's home may not have replicated here yet.
  if (!item && client && homeRegion !== storeRegion())
    item = (await inRegion(homeRegion, () => getMany([tokenKey], { consistent: true }))).get(
      itemId(tokenKey),
    );
  const expiresAt = typeof item?.expiresAt === 'number' ? item.expiresAt : 0;
  const hashOk = sameHash(typeof item?.tokenHash === 'string' ? item.tokenHash : '', tokenHash);
  if (
    !item ||
    !hashOk ||
    item.clientId !== clientId ||
    expiresAt <= now ||
    !client ||
    client.revoked !== false
  ) {
    verified.delete(cacheKey);
    throw new Unauthorized();
  }
  const settings: VerifiedClient = {
    compat: storedCompat(client.compat),
    homeRegion,
    trashDays: trashDaysOf(client),
    historyDays: historyDaysOf(client),
  };
  if (verified.size >= MAX_CACHED) verified.clear();
  verified.set(cacheKey, { client: settings, expiresAt, until: now + CACHE_MS });
  return settings;
};

export const forgetVerifiedTokens = (): void => verified.clear();

/** Forgets what this instance remembers of a client's tokens: its home moved (store/home-fence.ts). */
export const forgetClientTokens = (clientId: string): void => {
  for (const key of verified.keys()) if (key.startsWith(`${clientId}\n`)) verified.delete(key);
};
