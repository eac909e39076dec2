import { AwsClient } from 'aws4fetch';
import { config } from '../config';
import { deadlineAbortSignal } from '../store/deadline';
import { DeadlineExceeded } from '../store/errors';
import { homeRegionOfRequest, listedFor } from '../store/store-region';
import { contentDisposition, downloadMediaType } from './file-headers';

/**
 * The blob store: attachment and photo bytes live in S3 (DynamoDB items are capped at 400 KB);
 * only their records live in the table. Locally the same calls go to s3rver (path-style).
 *
 * S3's REST API is spoken through aws4fetch (SigV4 signing over fetch, 3 KB) rather than
 * @aws-sdk/client-s3: the SDK client adds ~150 KB and a third of the cold start to every
 * function that touches files, and we use six simple calls. Credentials are the function's
 * (Lambda puts them in the environment); retries of 5xx/429 with backoff are aws4fetch's.
 */
let client: AwsClient | undefined;

const aws = (): AwsClient => {
  if (!client) {
    const { AWS_REGION, S3_ENDPOINT } = config();
    const local = Boolean(S3_ENDPOINT);
    client = new AwsClient({
      accessKeyId: local ? 'S3RVER' : (process.env.AWS_ACCESS_KEY_ID ?? ''),
      secretAccessKey: local ? 'S3RVER' : (process.env.AWS_SECRET_ACCESS_KEY ?? ''),
      ...(!local && process.env.AWS_SESSION_TOKEN ? { sessionToken: process.env.AWS_SESSION_TOKEN } : {}),
      service: 's3',
      region: AWS_REGION,
      retries: 3,
      initRetryMs: 100,
    });
  }
  return client;
};

/**
 * Several regions (docs/regions.md): a tenant's objects live in its home region's bucket
 * (BUCKETS names each region's), whichever region a request reached, as its table writes do;
 * a download is presigned there, so it never waits for replication between buckets.
 */
const blobRegion = (): string => homeRegionOfRequest();

const bucket = (region = blobRegion()): string => {
  const { BUCKETS, BUCKET_NAME } = config();
  return listedFor(BUCKETS, region) ?? BUCKET_NAME;
};

/** Path-style against a local server, virtual-hosted style in AWS. */
const objectUrl = (key: string): URL => {
  const { S3_ENDPOINT } = config();
  const region = blobRegion();
  const path = key.split('/').map(encodeURIComponent).join('/');
  return S3_ENDPOINT
    ? new URL(`${S3_ENDPOINT.replace(/\/+$/, '')}/${bucket(region)}/${path}`)
    : new URL(`https://${bucket(region)}.s3.${region}.amazonaws.com/${path}`);
};

/** An S3 error as the rest of the code expects SDK errors: `name` is S3's code, `$fault` its side. */
const s3Error = async (res: Response, what: string): Promise<Error> => {
  const text = await res.text().catch(() => '');
  const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? `Http${res.status}`;
  return Object.assign(new Error(`S3 ${what} failed: ${res.status} ${code}`), {
    name: code,
    $fault: res.status >= 500 || res.status === 429 ? 'server' : 'client',
    $metadata: { httpStatusCode: res.status },
  });
};

/**
 * One S3 call with the request's deadline. No answer (S3 unreachable, connection dropped) is
 * the outage it is, not a bug: it surfaces like an SDK server fault (a 503 upstream).
 */
const send = async (key: string | URL, what: string, init: RequestInit, missingIsFine = false) => {
  const signal = deadlineAbortSignal();
  if (signal?.aborted) throw new DeadlineExceeded();
  let res: Response;
  try {
    res = await aws().fetch((typeof key === 'string' ? objectUrl(key) : key).toString(), {
      ...init,
      ...(signal ? { signal } : {}),
      aws: { region: blobRegion() },
    });
  } catch (error) {
    if (signal?.aborted) throw new DeadlineExceeded();
    throw Object.assign(new Error(`S3 ${what} got no answer: ${(error as Error).message}`), {
      name: 'ServiceUnavailable',
      $fault: 'server',
    });
  }
  if (res.ok || (missingIsFine && res.status === 404)) return res;
  throw await s3Error(res, what);
};

export const putBlob = async (key: string, bytes: Buffer, contentType: string, sha256Base64: string) => {
  await send(key, 'PutObject', {
    method: 'PUT',
    body: new Uint8Array(bytes),
    headers: { 'content-type': contentType, 'x-amz-meta-sha256': sha256Base64 },
  });
};

export const getBlob = async (key: string): Promise<{ bytes: Buffer; contentType: string } | undefined> => {
  const res = await send(key, 'GetObject', { method: 'GET' }, true);
  if (res.status === 404) return undefined;
  return {
    bytes: Buffer.from(await res.arrayBuffer()),
    contentType: res.headers.get('content-type') ?? 'application/octet-stream',
  };
};

/**
 * Bytes `start` to `end` (exclusive, or the object's end) of an object: its file read in chunks
 * (domain/import-run.ts). Undefined when the object is missing, or is no longer the version
 * `etag` names (replaced since: the ETag the read answers differs).
 */
export const getBlobRange = async (
  key: string,
  start: number,
  end: number,
  etag?: string,
): Promise<Buffer | undefined> => {
  const res = await send(
    key,
    'GetObject',
    { method: 'GET', headers: { range: `bytes=${start}-${end - 1}` } },
    true,
  );
  if (res.status === 404) return undefined;
  const bytes = Buffer.from(await res.arrayBuffer());
  if (etag !== undefined && (res.headers.get('etag') ?? '').replaceAll('"', '') !== etag) return undefined;
  return bytes;
};

export const headBlob = async (key: string): Promise<{ size: number; etag: string } | undefined> => {
  const res = await send(key, 'HeadObject', { method: 'HEAD' }, true);
  if (res.status === 404) return undefined;
  return {
    size: Number(res.headers.get('content-length') ?? 0),
    etag: (res.headers.get('etag') ?? '').replaceAll('"', ''),
  };
};

export const copyBlob = async (from: string, to: string, contentType: string): Promise<void> => {
  const res = await send(to, 'CopyObject', {
    method: 'PUT',
    headers: {
      'x-amz-copy-source': `/${bucket()}/${from.split('/').map(encodeURIComponent).join('/')}`,
      'x-amz-metadata-directive': 'REPLACE',
      'content-type': contentType,
    },
  });
  // CopyObject can fail after its 200 status line: the error is then in the body.
  const body = await res.text();
  if (body.includes('<Error>')) throw await s3Error(new Response(body, { status: 500 }), 'CopyObject');
};

/** Deletes objects (a few at a time); missing keys are fine, so a cleanup can be repeated. */
export const deleteBlobs = (keys: string[]): Promise<void> => deleteObjects(keys.map((key) => ({ key })));

/** Deletes objects, or one version of each (`versionId`), a few at a time; missing ones are fine. */
const deleteObjects = async (targets: { key: string; versionId?: string }[]): Promise<void> => {
  for (let i = 0; i < targets.length; i += 10) {
    await Promise.all(
      targets.slice(i, i + 10).map(({ key, versionId }) => {
        const url = objectUrl(key);
        if (versionId !== undefined) url.searchParams.set('versionId', versionId);
        return send(url, 'DeleteObject', { method: 'DELETE' }, true);
      }),
    );
  }
};

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const xmlText = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name] ?? '');

/** The keys of every object under `prefix` (ListObjectsV2, 1 000 a page). */
export const listBlobs = async (prefix: string): Promise<string[]> => {
  const found: string[] = [];
  let token: string | undefined;
  do {
    const url = objectUrl('');
    url.searchParams.set('list-type', '2');
    url.searchParams.set('prefix', prefix);
    if (token) url.searchParams.set('continuation-token', token);
    const body = await (await send(url, 'ListObjectsV2', { method: 'GET' })).text();
    for (const [, key] of body.matchAll(/<Key>([^<]*)<\/Key>/g)) found.push(xmlText(key ?? ''));
    const next = /<IsTruncated>true<\/IsTruncated>/.test(body)
      ? /<NextContinuationToken>([^<]+)<\/NextContinuationToken>/.exec(body)?.[1]
      : undefined;
    token = next === undefined ? undefined : xmlText(next);
  } while (token);
  return found;
};

/**
 * A page of ListObjectVersions; undefined from a store that keeps no versions (s3rver, locally,
 * refuses the call with 405 or 501): there is nothing more than the objects to remove then.
 */
const listVersions = async (url: URL): Promise<string | undefined> => {
  try {
    return await (await send(url, 'ListObjectVersions', { method: 'GET' })).text();
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 405 || status === 501) return undefined;
    throw error;
  }
};

/** One `<tag>` of a ListObjectVersions entry. */
const tagOf = (entry: string, tag: string) => {
  const found = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(entry)?.[1];
  return found === undefined ? undefined : xmlText(found);
};

/**
 * Removes every object under `prefix` for good, answering how many there were: in a versioned
 * bucket (infra/attachments-bucket.ts keeps deleted objects' old versions a month) every version
 * and delete marker (ListObjectVersions, then DeleteObject of each version id: no marker is left);
 * in a store that keeps no versions, the objects. What an erasure does to a customer's files.
 */
export const deleteEveryVersion = async (prefix: string): Promise<number> => {
  let current = 0;
  let keyMarker: string | undefined;
  let versionMarker: string | undefined;
  do {
    const url = objectUrl('');
    url.searchParams.set('versions', '');
    url.searchParams.set('prefix', prefix);
    if (keyMarker !== undefined) url.searchParams.set('key-marker', keyMarker);
    if (versionMarker !== undefined) url.searchParams.set('version-id-marker', versionMarker);
    const body = await listVersions(url);
    if (body === undefined) {
      const keys = await listBlobs(prefix);
      await deleteBlobs(keys);
      return keys.length;
    }
    const versions = [...body.matchAll(/<(Version|DeleteMarker)>([\s\S]*?)<\/\1>/g)].flatMap(
      ([, kind, entry]) => {
        const key = tagOf(entry ?? '', 'Key');
        const versionId = tagOf(entry ?? '', 'VersionId');
        if (kind === 'Version' && tagOf(entry ?? '', 'IsLatest') === 'true') current++;
        return key !== undefined && versionId !== undefined ? [{ key, versionId }] : [];
      },
    );
    await deleteObjects(versions);
    const truncated = /<IsTruncated>true<\/IsTruncated>/.test(body);
    keyMarker = truncated ? tagOf(body, 'NextKeyMarker') : undefined;
    versionMarker = truncated ? tagOf(body, 'NextVersionIdMarker') : undefined;
  } while (keyMarker !== undefined);
  return current;
};

export const DOWNLOAD_URL_SECONDS = 300;
export const UPLOAD_URL_SECONDS = 900;

/**
 * A short-lived address that downloads the object under its name, in its media type if a
 * browser shows that passively (else octet-stream: shared/blobs/file-headers.ts).
 */
export const downloadUrl = async (
  key: string,
  name: string,
  contentType: string,
  seconds = DOWNLOAD_URL_SECONDS,
): Promise<string> => {
  const url = objectUrl(key);
  url.searchParams.set('response-content-type', downloadMediaType(contentType));
  url.searchParams.set('response-content-disposition', contentDisposition('attachment', name));
  url.searchParams.set('X-Amz-Expires', String(seconds));
  const signed = await aws().sign(url.toString(), {
    method: 'GET',
    aws: { signQuery: true, region: blobRegion() },
  });
  return signed.url;
};

/** A short-lived address the client PUTs a large file to, with the media type it declared. */
export const uploadUrl = async (key: string, contentType: string): Promise<string> => {
  const url = objectUrl(key);
  url.searchParams.set('X-Amz-Expires', String(UPLOAD_URL_SECONDS));
  const signed = await aws().sign(url.toString(), {
    method: 'PUT',
    headers: { 'content-type': contentType },
    aws: { signQuery: true, allHeaders: true, region: blobRegion() },
  });
  return signed.url;
};
