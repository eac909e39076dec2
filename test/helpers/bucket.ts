import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { vi } from 'vitest';
import { config } from '../../shared/config';

/** Test-side view of the local S3 server: what objects exist, and a way to make S3 misbehave. */
let client: S3Client | undefined;

export const listObjects = async (prefix: string): Promise<string[]> => {
  client ??= new S3Client({
    region: 'us-east-1',
    endpoint: config().S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const out = await client.send(new ListObjectsV2Command({ Bucket: config().BUCKET_NAME, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key as string);
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
