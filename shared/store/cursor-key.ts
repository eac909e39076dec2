import { createHash } from 'node:crypto';
import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { sdkHashing } from '../aws/sha256';
import { config } from '../config';

/**
 * The keys that sign page cursors, and which of them signs now.
 *
 * Every cursor names the key that signed it (its `kid`, signed along with the rest); a cursor is
 * verified with the key of that kid if this instance knows it. The keys are the cursor secret's
 * AWSCURRENT, AWSPREVIOUS and AWSPENDING versions in AWS, CURSOR_SECRET and CURSOR_SECRET_PREVIOUS
 * locally. Rotation (functions/cursor-key-rotation.ts) adds a key and keeps the one before it, so a
 * cursor handed out just before a rotation still verifies after it; one from two rotations back
 * does not.
 *
 * A key's value is either JSON `{"kid": "...", "key": "..."}` (what rotation writes) or a plain
 * string: the secret as first deployed, or a local key, which is the key of kid LEGACY_KID. A
 * cursor without a kid (minted before kids existed) is a cursor of that key. Plain values never
 * start with `{` (the stack generates letters and digits, the data dir base64url).
 */
export interface CursorKey {
  readonly kid: string;
  readonly key: Buffer;
}

/** A key with its version's creation time (Secrets Manager's CreatedDate), when known. */
interface KeyVersion extends CursorKey {
  readonly createdAt?: number;
}

/** What the cache holds: AWSCURRENT, and AWSPREVIOUS and AWSPENDING when they hold a usable key. */
export interface KeySet {
  readonly current: KeyVersion;
  readonly previous?: KeyVersion;
  readonly pending?: KeyVersion;
}

/** The kid of a plain-string key value, and of cursors that carry no kid. */
export const LEGACY_KID = 'legacy';
/** What a kid may look like; anything else in a cursor is refused without a lookup. */
export const KID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
const MIN_KEY_LENGTH = 32;

/** Keys are read again this often: a rotation reaches every instance within it. */
export const KEY_TTL_MS = 5 * 60_000;
/**
 * At most one read outside the TTL per this long, when a cursor names a kid this instance does not
 * know (a key rotated in since its last read, or a forgery): never one read per request.
 */
export const EARLY_REFRESH_MS = 60_000;
/**
 * A new AWSCURRENT version signs only once it is this old; until then AWSPREVIOUS goes on signing.
 * Longer than EARLY_REFRESH_MS: by the time a cursor of the new key exists, every instance that
 * does not know the key yet last read the secret more than EARLY_REFRESH_MS ago (before the
 * rotation), so the cursor's unknown kid is allowed its early read, and no cursor in flight is
 * refused. (An instance that read the secret after the new version was written knows it, as
 * AWSPENDING or AWSCURRENT.)
 */
export const SIGNING_DELAY_MS = 2 * EARLY_REFRESH_MS;

const problem = (message: string) => new Error(`Cursor key: ${message}`);

/** Reads a key value; the messages never quote it. */
export const parseKeyValue = (value: string): CursorKey => {
  if (!value.startsWith('{')) {
    if (value.length < MIN_KEY_LENGTH)
      throw problem(`a plain key must have at least ${MIN_KEY_LENGTH} characters`);
    return { kid: LEGACY_KID, key: Buffer.from(value, 'utf8') };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw problem('the value starts with { but is not JSON');
  }
  const { kid, key } = (parsed ?? {}) as { kid?: unknown; key?: unknown };
  if (typeof kid !== 'string' || !KID_PATTERN.test(kid)) throw problem(`kid must match ${KID_PATTERN}`);
  if (typeof key !== 'string' || key.length < MIN_KEY_LENGTH)
    throw problem(`key must be a string of at least ${MIN_KEY_LENGTH} characters`);
  return { kid, key: Buffer.from(key, 'utf8') };
};

/** The value of a key version, as rotation writes it. */
export const formatKeyValue = (kid: string, key: string): string => JSON.stringify({ kid, key });

/** A short kid for a secret version: derived from its version id, so a retried step derives the same. */
export const kidOfVersion = (versionId: string): string =>
  createHash('sha256').update(versionId, 'utf8').digest('base64url').slice(0, 8);

/** Which key signs at `now`: AWSCURRENT, unless it is too new (SIGNING_DELAY_MS). */
export const signingKeyOf = (keys: KeySet, now: number): CursorKey => {
  const { current, previous } = keys;
  const tooNew = current.createdAt !== undefined && now - current.createdAt < SIGNING_DELAY_MS;
  return tooNew && previous ? previous : current;
};

/** The key of `kid`; AWSCURRENT wins over the others should two versions claim one kid. */
export const keyOf = (keys: KeySet, kid: string): Buffer | undefined =>
  [keys.current, keys.previous, keys.pending].find((k) => k?.kid === kid)?.key;

/**
 * One instance's keys: read when first needed, again once KEY_TTL_MS old (one read at a time), and
 * early for an unknown kid at most once per EARLY_REFRESH_MS. A failed read with keys in hand keeps
 * them and tries again after EARLY_REFRESH_MS; without keys it fails the request, and the next one
 * tries again.
 */
export class CursorKeyCache {
  private keys: KeySet | undefined;
  /** When the last read started. */
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<KeySet> | undefined;

  constructor(
    private readonly load: () => Promise<KeySet>,
    private readonly now: () => number = Date.now,
  ) {}

  async signingKey(): Promise<CursorKey> {
    return signingKeyOf(await this.fresh(), this.now());
  }

  /** The key of `kid`, or undefined: the cursor is then invalid. */
  async verificationKey(kid: string): Promise<Buffer | undefined> {
    const key = keyOf(await this.fresh(), kid);
    if (key || this.now() - this.readAt < EARLY_REFRESH_MS) return key;
    return keyOf(await this.read(), kid);
  }

  private fresh(): Promise<KeySet> {
    if (this.keys && this.now() - this.readAt < KEY_TTL_MS) return Promise.resolve(this.keys);
    return this.read();
  }

  private read(): Promise<KeySet> {
    if (this.reading) return this.reading;
    this.readAt = this.now();
    const reading = (async () => {
      try {
        this.keys = await this.load();
        return this.keys;
      } catch (error) {
        if (!this.keys) {
          this.readAt = Number.NEGATIVE_INFINITY;
          throw error;
        }
        // Keep what we have; the next read is due EARLY_REFRESH_MS from now.
        this.readAt = this.now() - KEY_TTL_MS + EARLY_REFRESH_MS;
        return this.keys;
      }
    })().finally(() => {
      if (this.reading === reading) this.reading = undefined;
    });
    this.reading = reading;
    return reading;
  }
}

const fromEnvironment = (current: string, previous: string | undefined): KeySet => {
  const keys: KeySet = {
    current: parseKeyValue(current),
    ...(previous === undefined ? {} : { previous: parseKeyValue(previous) }),
  };
  if (keys.previous?.kid === keys.current.kid)
    throw problem('CURSOR_SECRET_PREVIOUS must have another kid than CURSOR_SECRET (give one as JSON)');
  return keys;
};

let client: SecretsManagerClient | undefined;
/** A version's value never changes: each is fetched once per instance (null: not a usable key). */
const versions = new Map<string, KeyVersion | null>();

const isNotFound = (error: unknown): boolean =>
  (error as { name?: unknown })?.name === 'ResourceNotFoundException';

/**
 * One DescribeSecret per read (which versions carry the labels), and a GetSecretValue only for a
 * version not seen before: about one call per instance per KEY_TTL_MS.
 */
const fromSecretsManager = async (secretId: string, region: string): Promise<KeySet> => {
  client ??= new SecretsManagerClient({ ...sdkHashing, region });
  const sm = client;
  const described = await sm.send(new DescribeSecretCommand({ SecretId: secretId }));
  const labelled = Object.entries(described.VersionIdsToStages ?? {});
  const versionWith = (stage: string) => labelled.find(([, stages]) => stages.includes(stage))?.[0];

  const readVersion = async (
    versionId: string | undefined,
    required: boolean,
  ): Promise<KeyVersion | undefined> => {
    if (versionId === undefined) return undefined;
    const known = versions.get(versionId);
    if (known === null && required) throw problem('the AWSCURRENT version is not a usable key');
    if (known !== undefined) return known ?? undefined;
    let version: KeyVersion;
    try {
      const out = await sm.send(new GetSecretValueCommand({ SecretId: secretId, VersionId: versionId }));
      if (out.SecretString === undefined) throw problem('the version has no string value');
      version = { ...parseKeyValue(out.SecretString), createdAt: out.CreatedDate?.getTime() };
    } catch (error) {
      if (required) throw error;
      // An AWSPENDING version rotation has not filled yet: look again at the next read.
      if (isNotFound(error)) return undefined;
      versions.set(versionId, null);
      return undefined;
    }
    versions.set(versionId, version);
    return version;
  };

  const currentId = versionWith('AWSCURRENT');
  if (!currentId) throw problem('the secret has no AWSCURRENT version');
  const [current, previous, pending] = await Promise.all([
    readVersion(currentId, true),
    readVersion(versionWith('AWSPREVIOUS'), false),
    readVersion(versionWith('AWSPENDING'), false),
  ]);
  return {
    current: current as KeyVersion,
    ...(previous ? { previous } : {}),
    ...(pending ? { pending } : {}),
  };
};

const loadConfigured = async (): Promise<KeySet> => {
  const { CURSOR_SECRET, CURSOR_SECRET_PREVIOUS, CURSOR_SECRET_ARN, AWS_REGION } = config();
  if (CURSOR_SECRET) return fromEnvironment(CURSOR_SECRET, CURSOR_SECRET_PREVIOUS);
  if (!CURSOR_SECRET_ARN) throw new Error('Neither CURSOR_SECRET nor CURSOR_SECRET_ARN is configured');
  return fromSecretsManager(CURSOR_SECRET_ARN, AWS_REGION);
};

let cache: CursorKeyCache | undefined;
const configured = (): CursorKeyCache => {
  cache ??= new CursorKeyCache(loadConfigured);
  return cache;
};

/** The key new cursors are signed with, and its kid. */
export const signingKey = (): Promise<CursorKey> => configured().signingKey();

/** The key of a cursor's kid, or undefined if this instance has none of that kid (after an early read). */
export const verificationKey = (kid: string): Promise<Buffer | undefined> =>
  configured().verificationKey(kid);

/** Tests and the local server change the environment between runs. */
export const resetCursorKeys = (): void => {
  cache = undefined;
  client = undefined;
  versions.clear();
};
