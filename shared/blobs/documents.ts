import { createHash } from 'node:crypto';
import { DOCUMENT_LIMITS, type DocumentInput } from '../schemas/documents';
import type { DocumentRecord } from '../store/entities/ticket';
import { InvalidInput, InvalidReference, LimitExceeded } from '../store/errors';
import { newId } from '../store/ids';
import { blobKeys } from '../store/keys';
import { copyBlob, deleteBlobs, headBlob, putBlob } from './s3';

/**
 * Attached documents: checked here and their bytes put in S3 before the table transaction;
 * their records (id, name, type, size, checksum, object key) are written in that transaction.
 * If the transaction fails the objects are deleted again (`staged.undo`), so nothing is
 * half-written; once it committed, consumed presigned uploads are removed (`staged.after`).
 */
const tooLarge = (path: string, limit: number) =>
  new LimitExceeded(`${path} is larger than ${limit} bytes.`, path, limit);

/** A document as staged: its record without the ticket it will be added to and when. */
export type StagedDocument = Omit<DocumentRecord, 'ticketId' | 'addedAt' | 'position'>;

/** Documents of one write, staged in S3 and ready to be recorded. */
export interface StagedDocuments {
  /** In the order sent; `replyId` null for the ticket's own documents. */
  documents: StagedDocument[];
  /** Transaction failed: delete the objects written for it. Committed: delete consumed uploads. */
  staged: { undo: () => Promise<void>; after: () => Promise<void> };
}

export interface DocumentBatch {
  documents: DocumentInput[] | undefined;
  /** Body path of the list, for error messages: `attachedDocuments`, `replies.0.attachedDocuments`. */
  path: string;
  replyId: string | null;
}

const decode = (doc: DocumentInput, path: string): Buffer | undefined => {
  if (doc.uploadId !== undefined) return undefined;
  const bytes =
    doc.documentBlob !== undefined
      ? Buffer.from(doc.documentBlob, 'hex')
      : Buffer.from(doc.documentBase64 ?? '', 'base64');
  if (bytes.length > DOCUMENT_LIMITS.inlineBytes) throw tooLarge(path, DOCUMENT_LIMITS.inlineBytes);
  return bytes;
};

/**
 * What the documents of a request will look like as records, before anything is stored: the
 * count checked, sizes at their longest, so that the write can be checked against DynamoDB's
 * limits (domain/tickets.ts) before a byte goes to S3.
 */
export const plannedDocuments = (batches: DocumentBatch[]): StagedDocument[] => {
  const planned = batches.flatMap(({ documents, replyId }) =>
    (documents ?? []).map(
      (doc): StagedDocument => ({
        id: newId(),
        documentName: doc.documentName,
        documentType: doc.documentType,
        size: Number.MAX_SAFE_INTEGER,
        checksum: `sha256:${'0'.repeat(64)}`,
        key: blobKeys.document('0'.repeat(24), '0'.repeat(24), '0'.repeat(24)),
        replyId,
      }),
    ),
  );
  if (planned.length > DOCUMENT_LIMITS.perRequest) {
    throw new InvalidInput('Too many documents.', [
      { path: 'attachedDocuments', message: `at most ${DOCUMENT_LIMITS.perRequest} documents per request` },
    ]);
  }
  return planned;
};

/**
 * Checks every document first (sizes, uploads present), then puts the bytes in S3 in parallel.
 * If any put fails, the ones that succeeded are removed and nothing reaches the table.
 */
export const stageDocuments = async (
  tenantId: string,
  ticketId: string,
  batches: DocumentBatch[],
): Promise<StagedDocuments> => {
  const planned = batches.flatMap(({ documents, path, replyId }) =>
    (documents ?? []).map((doc, i) => ({
      doc,
      path: `${path}.${i}`,
      replyId,
      bytes: decode(doc, `${path}.${i}`),
    })),
  );
  if (planned.length > DOCUMENT_LIMITS.perRequest) {
    throw new InvalidInput('Too many documents.', [
      { path: 'attachedDocuments', message: `at most ${DOCUMENT_LIMITS.perRequest} documents per request` },
    ]);
  }
  const written: string[] = [];
  const consumed: string[] = [];
  const uploads = await Promise.allSettled(
    planned.map(async ({ doc, path, replyId, bytes }): Promise<StagedDocument> => {
      const id = newId();
      const key = blobKeys.document(tenantId, ticketId, id);
      let size: number;
      let checksum: string;
      if (bytes) {
        const sha = createHash('sha256').update(bytes).digest();
        await putBlob(key, bytes, doc.documentType, sha.toString('base64'));
        size = bytes.length;
        checksum = `sha256:${sha.toString('hex')}`;
      } else {
        const source = blobKeys.staging(tenantId, doc.uploadId as string);
        const head = await headBlob(source);
        if (!head) {
          throw new InvalidReference(
            `${path}.uploadId`,
            'The upload',
            'no uploaded file with this uploadId (it may have expired)',
          );
        }
        if (head.size > DOCUMENT_LIMITS.uploadBytes) throw tooLarge(path, DOCUMENT_LIMITS.uploadBytes);
        await copyBlob(source, key, doc.documentType);
        consumed.push(source);
        size = head.size;
        checksum = `etag:${head.etag}`;
      }
      written.push(key);
      return {
        id,
        documentName: doc.documentName,
        documentType: doc.documentType,
        size,
        checksum,
        key,
        replyId,
      };
    }),
  );
  const failed = uploads.find((u): u is PromiseRejectedResult => u.status === 'rejected');
  if (failed) {
    await deleteBlobs(written);
    throw failed.reason;
  }
  return {
    documents: uploads.map((u) => (u as PromiseFulfilledResult<StagedDocument>).value),
    staged: {
      undo: () => deleteBlobs(written),
      // The staging lifecycle rule would expire them anyway.
      after: () => deleteBlobs(consumed).catch(() => undefined),
    },
  };
};

/** The records of staged documents, added to one ticket at one instant in the order sent. */
export const documentRecords = (
  ticketId: string,
  documents: StagedDocument[],
  now: number,
): DocumentRecord[] => documents.map((doc, position) => ({ ...doc, ticketId, addedAt: now, position }));
