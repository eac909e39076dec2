import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from '../config';

let key: Promise<Buffer> | undefined;

/**
 * The cursor signing key: CURSOR_SECRET locally and in tests (generated into the data dir),
 * the Secrets Manager secret CURSOR_SECRET_ARN in AWS. Fetched once per instance.
 */
export const cursorKey = (): Promise<Buffer> => {
  key ??= load().catch((error) => {
    key = undefined; // a failed fetch must not poison the instance
    throw error;
  });
  return key;
};

const load = async (): Promise<Buffer> => {
  const { CURSOR_SECRET, CURSOR_SECRET_ARN, AWS_REGION } = config();
  if (CURSOR_SECRET) return Buffer.from(CURSOR_SECRET, 'utf8');
  if (!CURSOR_SECRET_ARN) throw new Error('Neither CURSOR_SECRET nor CURSOR_SECRET_ARN is configured');
  const client = new SecretsManagerClient({ region: AWS_REGION });
  const out = await client.send(new GetSecretValueCommand({ SecretId: CURSOR_SECRET_ARN }));
  if (!out.SecretString || out.SecretString.length < 32)
    throw new Error('Cursor secret is missing or too short');
  return Buffer.from(out.SecretString, 'utf8');
};
