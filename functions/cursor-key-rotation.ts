import { randomBytes } from 'node:crypto';
import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
  UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';
import type { SecretsManagerRotationEvent } from 'aws-lambda';
import { sdkHashing } from '../shared/aws/sha256';
import { config } from '../shared/config';
import { logger } from '../shared/http/logger';
import { type CursorKey, formatKeyValue, kidOfVersion, parseKeyValue } from '../shared/store/cursor-key';

/**
 * Rotates the cursor-signing key (the secret of infra/helpdesk-stack.ts, on its rotation schedule).
 * Secrets Manager calls this four times per rotation, once per step, with the new version's id
 * (ClientRequestToken); each step may be retried, so each is idempotent:
 * - createSecret: puts a new random key as the AWSPENDING version, unless that version has one;
 * - setSecret: nothing: the key is known to no other system than this secret;
 * - testSecret: the AWSPENDING value must be a usable key with its own kid;
 * - finishSecret: moves AWSCURRENT to the new version (Secrets Manager labels the old one
 *   AWSPREVIOUS: its cursors still verify, store/cursor-key.ts).
 * It logs version ids and kids, never a value.
 */
interface RotationEvent extends SecretsManagerRotationEvent {
  /** Set when rotating with an assumed role; handed back on writes. */
  readonly RotationToken?: string;
}

/** Bytes of a new key: 384 random bits, 64 base64url characters. */
const KEY_BYTES = 48;

let client: SecretsManagerClient | undefined;
const secrets = (): SecretsManagerClient => {
  client ??= new SecretsManagerClient({ ...sdkHashing, region: config().AWS_REGION });
  return client;
};

const isNotFound = (error: unknown): boolean =>
  (error as { name?: unknown })?.name === 'ResourceNotFoundException';

const pendingKey = async (secretId: string, token: string): Promise<CursorKey> => {
  const out = await secrets().send(
    new GetSecretValueCommand({ SecretId: secretId, VersionId: token, VersionStage: 'AWSPENDING' }),
  );
  return parseKeyValue(out.SecretString ?? '');
};

/** The current key; undefined if its value is unusable, which is what a rotation may well repair. */
const currentKey = async (secretId: string): Promise<CursorKey | undefined> => {
  const out = await secrets().send(
    new GetSecretValueCommand({ SecretId: secretId, VersionStage: 'AWSCURRENT' }),
  );
  try {
    return parseKeyValue(out.SecretString ?? '');
  } catch {
    logger.warn('the current version is not a usable key; rotation replaces it', {
      versionId: out.VersionId,
    });
    return undefined;
  }
};

const createSecret = async (event: RotationEvent): Promise<void> => {
  const { SecretId: secretId, ClientRequestToken: token } = event;
  const current = await currentKey(secretId);
  try {
    await secrets().send(
      new GetSecretValueCommand({ SecretId: secretId, VersionId: token, VersionStage: 'AWSPENDING' }),
    );
    logger.info('createSecret: the pending version already has a key', { versionId: token });
    return;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const kid = kidOfVersion(token);
  // 48 bits of a hash: a clash is a curiosity, but it would make the two keys one kid.
  if (kid === current?.kid) throw new Error(`The new version's kid equals the current one's: rotate again`);
  await secrets().send(
    new PutSecretValueCommand({
      SecretId: secretId,
      ClientRequestToken: token,
      SecretString: formatKeyValue(kid, randomBytes(KEY_BYTES).toString('base64url')),
      VersionStages: ['AWSPENDING'],
      ...(event.RotationToken ? { RotationToken: event.RotationToken } : {}),
    }),
  );
  logger.info('createSecret: new key put as AWSPENDING', { versionId: token, kid });
};

/**
 * Also what Secrets Manager runs alone when the schedule is set without rotating at once: the
 * pending version then holds a copy of the current value, the same key under the same kid.
 */
const testSecret = async (event: RotationEvent): Promise<void> => {
  const { SecretId: secretId, ClientRequestToken: token } = event;
  const pending = await pendingKey(secretId, token);
  const current = await currentKey(secretId);
  if (current && pending.kid === current.kid && !pending.key.equals(current.key))
    throw new Error(
      `The pending key has the current key's kid ${current.kid}: its cursors could not be told apart`,
    );
  logger.info('testSecret: the pending version is a usable key', { versionId: token, kid: pending.kid });
};

const finishSecret = async (event: RotationEvent, stagesById: Record<string, string[]>): Promise<void> => {
  const { SecretId: secretId, ClientRequestToken: token } = event;
  const currentId = Object.entries(stagesById).find(([, stages]) => stages.includes('AWSCURRENT'))?.[0];
  await secrets().send(
    new UpdateSecretVersionStageCommand({
      SecretId: secretId,
      VersionStage: 'AWSCURRENT',
      MoveToVersionId: token,
      ...(currentId ? { RemoveFromVersionId: currentId } : {}),
    }),
  );
  await secrets().send(
    new UpdateSecretVersionStageCommand({
      SecretId: secretId,
      VersionStage: 'AWSPENDING',
      RemoveFromVersionId: token,
    }),
  );
  logger.info('finishSecret: the new version is AWSCURRENT', {
    versionId: token,
    previousVersionId: currentId,
  });
};

export const handler = async (event: RotationEvent): Promise<void> => {
  const { SecretId: secretId, ClientRequestToken: token, Step: step } = event;
  const described = await secrets().send(new DescribeSecretCommand({ SecretId: secretId }));
  if (!described.RotationEnabled) throw new Error('The secret is not enabled for rotation');
  const stagesById = described.VersionIdsToStages ?? {};
  const stages = stagesById[token];
  if (!stages) throw new Error(`Version ${token} has no stage for rotation`);
  // A step retried after finishSecret succeeded: nothing left to do.
  if (stages.includes('AWSCURRENT')) {
    logger.info('the version is already AWSCURRENT', { step, versionId: token });
    return;
  }
  if (!stages.includes('AWSPENDING')) throw new Error(`Version ${token} is not AWSPENDING`);
  switch (step) {
    case 'createSecret':
      return createSecret(event);
    case 'setSecret':
      return;
    case 'testSecret':
      return testSecret(event);
    case 'finishSecret':
      return finishSecret(event, stagesById);
    default:
      throw new Error(`Unknown rotation step ${JSON.stringify(step)}`);
  }
};
