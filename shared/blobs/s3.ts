import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config } from '../config';

/**
 * The blob store: attachment and photo bytes live in S3 (DynamoDB items are capped at 400 KB);
 * only their records live in the table. Locally the same calls go to s3rver (path-style).
 */
let client: S3Client | undefined;

export const s3 = (): S3Client => {
  if (!client) {
    const { AWS_REGION, S3_ENDPOINT } = config();
    client = new S3Client({
      region: AWS_REGION,
      maxAttempts: 4,
      // Checksums only where S3 requires them: the local S3 server does not speak the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(S3_ENDPOINT
        ? {
            endpoint: S3_ENDPOINT,
            forcePathStyle: true,
            credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
          }
        : {}),
    });
  }
  return client;
};

export const resetS3 = (): void => {
  client?.destroy();
  client = undefined;
};

const bucket = () => config().BUCKET_NAME;

export const putBlob = async (key: string, bytes: Buffer, contentType: string, sha256Base64: string) => {
  await s3().send(
    new PutObjectCommand({
      Bucket: bucket(),
      Key: key,
      Body: bytes,
      ContentType: contentType,
      ContentLength: bytes.length,
      Metadata: { sha256: sha256Base64 },
    }),
  );
};

export const getBlob = async (key: string): Promise<{ bytes: Buffer; contentType: string } | undefined> => {
  try {
    const out = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
    const bytes = Buffer.from((await out.Body?.transformToByteArray()) ?? []);
    return { bytes, contentType: out.ContentType ?? 'application/octet-stream' };
  } catch (error) {
    if ((error as Error).name === 'NoSuchKey') return undefined;
    throw error;
  }
};

export const headBlob = async (key: string): Promise<{ size: number; etag: string } | undefined> => {
  try {
    const out = await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    return { size: out.ContentLength ?? 0, etag: (out.ETag ?? '').replaceAll('"', '') };
  } catch (error) {
    if ((error as Error).name === 'NotFound' || (error as Error).name === 'NoSuchKey') return undefined;
    throw error;
  }
};

export const copyBlob = async (from: string, to: string, contentType: string): Promise<void> => {
  await s3().send(
    new CopyObjectCommand({
      Bucket: bucket(),
      Key: to,
      CopySource: `${bucket()}/${from}`,
      ContentType: contentType,
      MetadataDirective: 'REPLACE',
    }),
  );
};

/** Deletes objects (1000 a request); missing keys are fine, so a cleanup can be repeated. */
export const deleteBlobs = async (keys: string[]): Promise<void> => {
  for (let i = 0; i < keys.length; i += 1000) {
    const chunk = keys.slice(i, i + 1000);
    if (chunk.length === 0) continue;
    const out = await s3().send(
      new DeleteObjectsCommand({
        Bucket: bucket(),
        Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true },
      }),
    );
    if (out.Errors?.length) throw new Error(`S3 could not delete ${out.Errors.length} object(s)`);
  }
};

export const DOWNLOAD_URL_SECONDS = 300;
export const UPLOAD_URL_SECONDS = 900;

/** A short-lived address that downloads the object with its name and media type. */
export const downloadUrl = (key: string, name: string, contentType: string): Promise<string> =>
  getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: bucket(),
      Key: key,
      ResponseContentType: contentType,
      ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
    }),
    { expiresIn: DOWNLOAD_URL_SECONDS },
  );

/** A short-lived address the client PUTs a large file to, with the media type it declared. */
export const uploadUrl = (key: string, contentType: string): Promise<string> =>
  getSignedUrl(s3(), new PutObjectCommand({ Bucket: bucket(), Key: key, ContentType: contentType }), {
    expiresIn: UPLOAD_URL_SECONDS,
  });
