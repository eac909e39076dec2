import { createHash } from 'node:crypto';
import { HEX, isBase64 } from '../schemas/documents';
import type { Photo } from '../store/entities/records';
import { InvalidInput, LimitExceeded } from '../store/errors';
import { newId } from '../store/ids';
import { blobKeys } from '../store/keys';
import { imageDimensions } from './image-dimensions';
import { deleteBlobs, putBlob } from './s3';

/**
 * Customer photos: `profilePhotoBlob` (hex, or base64 as with documents) is decoded, checked to
 * be an image by its first bytes and to declare a size a decoder can afford, put in S3 before
 * the customer's transaction and recorded on the customer as `photo` {key, contentType, size}.
 * It always reads back as null.
 */
export const PHOTO_MAX_BYTES = 1024 * 1024;

/**
 * Pixels a photo may declare on either side: 4096 × 4096 decodes to 64 MiB of RGBA at most,
 * and holds a 12-megapixel camera photo (4032 × 3024) either way round.
 */
export const PHOTO_MAX_SIDE = 4096;

const SIGNATURES: [string, (b: Buffer) => boolean][] = [
  [
    'image/png',
    (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  ],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  [
    'image/gif',
    (b) =>
      b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a',
  ],
  [
    'image/webp',
    (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  ],
];

/** The media types a photo may have (and `GET /customer/photo/{id}` answers with). */
export const PHOTO_MEDIA_TYPES = SIGNATURES.map(([type]) => type);

/** Names in messages, extensions in file names. */
const FORMATS: Record<string, { name: string; extension: string }> = {
  'image/png': { name: 'PNG', extension: 'png' },
  'image/jpeg': { name: 'JPEG', extension: 'jpg' },
  'image/gif': { name: 'GIF', extension: 'gif' },
  'image/webp': { name: 'WebP', extension: 'webp' },
};

/** The name `GET /customer/photo/{id}` gives the file: `customer-<id>.<extension of its type>`. */
export const photoFileName = (customerId: string, contentType: string) =>
  `customer-${customerId}.${FORMATS[contentType]?.extension ?? 'bin'}`;

const imageType = (bytes: Buffer) => SIGNATURES.find(([, matches]) => matches(bytes))?.[0];

const invalid = (message: string) =>
  new InvalidInput('The body is invalid.', [{ path: 'profilePhotoBlob', message }]);

/** The size the header declares is what a decoder allocates for, whatever the bytes hold. */
const checkDimensions = (bytes: Buffer, contentType: string) => {
  const name = FORMATS[contentType]?.name ?? contentType;
  const size = imageDimensions(bytes, contentType);
  if (!size) throw invalid(`must be a whole ${name} image: its header cannot be read`);
  const { width, height } = size;
  if (width < 1 || height < 1 || width > PHOTO_MAX_SIDE || height > PHOTO_MAX_SIDE) {
    throw invalid(
      `the ${name} image declares ${width} × ${height} pixels: it must be at least 1 × 1 and at most ${PHOTO_MAX_SIDE} × ${PHOTO_MAX_SIDE} pixels`,
    );
  }
};

/** Hex first (Deskero's blob format); a string that is not a hex image is tried as base64. */
export const decodePhoto = (text: string): { bytes: Buffer; contentType: string } => {
  const candidates: Buffer[] = [];
  if (text.length > 0 && HEX.test(text)) candidates.push(Buffer.from(text, 'hex'));
  const compact = text.replace(/\s+/g, '');
  if (isBase64(compact)) {
    candidates.push(Buffer.from(compact, 'base64'));
  }
  if (candidates.length === 0) throw invalid('must be hexadecimal or base64');
  for (const bytes of candidates) {
    const contentType = imageType(bytes);
    if (!contentType) continue;
    if (bytes.length > PHOTO_MAX_BYTES) {
      throw new LimitExceeded(
        `The photo is larger than ${PHOTO_MAX_BYTES} bytes.`,
        'profilePhotoBlob',
        PHOTO_MAX_BYTES,
      );
    }
    checkDimensions(bytes, contentType);
    return { bytes, contentType };
  }
  throw invalid('must be a PNG, JPEG, GIF or WebP image');
};

/**
 * Before the transaction: store a sent photo (`photo` is where), or mark it removed (`null`);
 * `undefined` when the body does not touch it.
 */
export const stagePhoto = async (
  tenantId: string,
  blob: string | null | undefined,
): Promise<{ photo: Photo | null | undefined; undo: () => Promise<void> }> => {
  if (blob === undefined || blob === null) return { photo: blob, undo: async () => undefined };
  const { bytes, contentType } = decodePhoto(blob);
  const key = blobKeys.photo(tenantId, newId());
  await putBlob(key, bytes, contentType, createHash('sha256').update(bytes).digest('base64'));
  return { photo: { key, contentType, size: bytes.length }, undo: () => deleteBlobs([key]) };
};

/** The photo object a change leaves no customer pointing at (deleted by the change's cascade). */
export const releasedPhotos = (
  before: Photo | null | undefined,
  after: Photo | null | undefined,
): string[] => (before?.key && before.key !== after?.key ? [before.key] : []);
