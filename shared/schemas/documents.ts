import * as z from 'zod/mini';
import { requiredText } from './fields';

/**
 * Attached documents as request bodies carry them (seed: Attached document table), plus the
 * base64 and presigned-upload forms. Decoding and storage: shared/blobs/documents.ts.
 */
export const DOCUMENT_LIMITS = {
  /** Decoded bytes of one document sent inline (hex doubles it, base64 adds a third). */
  inlineBytes: 3 * 1024 * 1024,
  /** Bytes of one document uploaded through a presigned URL. */
  uploadBytes: 100 * 1024 * 1024,
  perRequest: 10,
} as const;

const MEDIA_TYPE = /^[A-Za-z0-9][\w!#$&^.+-]{0,126}\/[A-Za-z0-9][\w!#$&^.+-]{0,126}$/;
export const HEX = /^(?:[0-9a-fA-F]{2})*$/;
/**
 * Base64 with its padding: whole groups of four, the last one maybe `xx==` or `xxx=`. Tested as
 * one character class and a length: V8 runs `^(?:[A-Za-z0-9+/]{4})*…$` with a backtracking
 * stack that overflows (RangeError) on a string of ~5 MB, which a ticket body may carry.
 */
const BASE64_TEXT = /^[A-Za-z0-9+/]*={0,2}$/;
export const isBase64 = (text: string): boolean => text.length % 4 === 0 && BASE64_TEXT.test(text);

export const mediaType = z
  .string()
  .check(z.regex(MEDIA_TYPE, 'must be a media type such as application/pdf'));

/** Exactly one content field: hex `documentBlob`, `documentBase64`, or the `uploadId` of a presigned upload. */
export const documentInput = z.lazy(() =>
  z
    .object({
      documentName: requiredText(255),
      documentType: mediaType,
      documentBlob: z.optional(
        z.string().check(z.regex(HEX, 'must be hexadecimal (an even number of 0-9, a-f, A-F)')),
      ),
      documentBase64: z.optional(
        z.pipe(
          z.pipe(
            z.string(),
            z.transform((s: string) => s.replace(/\s+/g, '')),
          ),
          z.string().check(z.refine(isBase64, 'must be base64')),
        ),
      ),
      uploadId: z.optional(
        z.string().check(z.regex(/^[0-9a-f]{24}$/, 'must be an uploadId from /ticket/attachment/upload')),
      ),
    })
    .check(
      z.refine(
        (d) => [d.documentBlob, d.documentBase64, d.uploadId].filter((v) => v !== undefined).length === 1,
        'send exactly one of documentBlob, documentBase64 or uploadId',
      ),
    ),
);
export type DocumentInput = z.output<typeof documentInput>;

export const documentList = z.lazy(() =>
  z
    .array(documentInput)
    .check(z.maxLength(DOCUMENT_LIMITS.perRequest, `at most ${DOCUMENT_LIMITS.perRequest} documents`)),
);
