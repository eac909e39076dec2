import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { vi } from 'vitest';
import { config } from '../../shared/config';

/**
 * Test-side view of the local S3 server: what objects exist, what they hold, and a way to make S3
 * misbehave. `at`: another local server than the configured one (the regions simulation's).
 */
type Where = { endpoint: string; bucket: string };
const clients = new Map<string, S3Client>();

const clientAt = (at?: Where) => {
  const where = at ?? { endpoint: String(config().S3_ENDPOINT), bucket: config().BUCKET_NAME };
  let client = clients.get(where.endpoint);
  if (!client) {
    client = new S3Client({
      region: 'us-east-1',
      endpoint: where.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    clients.set(where.endpoint, client);
  }
  return { client, bucket: where.bucket };
};

export const listObjects = async (prefix: string, at?: Where): Promise<string[]> => {
  const { client, bucket } = clientAt(at);
  const out = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key as string);
};

/** An object's bytes as text (undefined: none). */
export const objectText = async (key: string, at?: Where): Promise<string | undefined> => {
  const { client, bucket } = clientAt(at);
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return await out.Body?.transformToString();
  } catch (error) {
    if ((error as Error).name === 'NoSuchKey') return undefined;
    throw error;
  }
};

const isS3 = (input: unknown) =>
  String(input instanceof Request ? input.url : input).startsWith(config().S3_ENDPOINT ?? '\0');

/**
 * Sees (and may replace) every request the service sends to S3. `answer` returns a Response to
 * send instead, or undefined to let the request through. Restore with the returned function.
 */
export const interceptS3 = (answer: (method: string, url: string) => Response | undefined) => {
  const real = globalThis.fetch;
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    if (isS3(input)) {
      const request = input instanceof Request ? input : new Request(String(input), init);
      const fake = answer(request.method, request.url);
      if (fake) return fake;
    }
    return real(input, init);
  });
  return () => spy.mockRestore();
};
