import * as z from 'zod';

/**
 * Environment, parsed once at cold start; a bad value fails fast with a clear message.
 * Deployed functions get TABLE_NAME and CURSOR_SECRET_ARN from the stack; the local server
 * and the tests set DYNAMODB_ENDPOINT and CURSOR_SECRET (generated into the data dir).
 */
const schema = z.object({
  TABLE_NAME: z.string().min(3).default('helpdesk'),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  /** Points the SDK at DynamoDB Local; unset in AWS. */
  DYNAMODB_ENDPOINT: z.url().optional(),
  /** Overrides the base URL derived from the request (custom domains with a base path). */
  PUBLIC_BASE_URL: z.url().optional(),
  /** Cursor signing key for local runs and tests (>= 32 characters). */
  CURSOR_SECRET: z.string().min(32).optional(),
  /** Secrets Manager secret holding the cursor signing key, in AWS. */
  CURSOR_SECRET_ARN: z.string().min(20).optional(),
  /** Bucket of attachments and photos. */
  BUCKET_NAME: z.string().min(3).default('helpdesk-blobs'),
  /** Points the S3 client at a local S3 server (path-style addressing); unset in AWS. */
  S3_ENDPOINT: z.url().optional(),
  /** Requests per minute per client, enforced across all instances (429 beyond). */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
});

export type Config = z.infer<typeof schema>;

let cached: Config | undefined;

export const config = (): Config => {
  if (!cached) {
    const parsed = schema.safeParse(process.env);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(`Invalid configuration: ${fields}`);
    }
    cached = parsed.data;
  }
  return cached;
};

/** Tests and the local server change the environment between runs. */
export const resetConfig = (): void => {
  cached = undefined;
};
