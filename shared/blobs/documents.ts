import { createHash } from 'node:crypto';
import { badRequest, contentTooLarge, HttpError } from '../http/errors';
import { DOCUMENT_LIMITS, type DocumentInput } from '../schemas/documents';
import { newId } from '../store/ids';
import { keys } from '../store/keys';
import type { WriteOp } from '../store/transact';
import { copyBlob, deleteBlobs, headBlob, putBlob } from './s3';

/**
 * Attached documents: validated here, their bytes put in S3 before the table transaction,
 * their records (id, name, type, size, checksum, object key) written in that transaction.
 * If the transaction fails the objects are deleted again, so nothing is half-written.
 */
export interface DocumentRecord {
  id: string;
  documentName: string;
  documentType: string;
  size: number;
  checksum: string;
  key: string;
  replyId: string | null;
}

const tooLarge = (path: string, limit: number) =>
  contentTooLarge(`${path} is larger than ${limit} bytes.`, path, limit);

export const documentKey = (tenantId: string, ticketId: string, documentId: string) =>
  `t/${tenantId}/ticket/${ticketId}/${documentId}`;
export const stagingKey = (tenantId: string, uploadId: string) => `staging/${tenantId}/${uploadId}`;

/** Documents of one write, staged in S3 and ready to be recorded. */
export interface StagedDocuments {
  /** In the order sent; `replyId` null for the ticket's own documents. */
  records: DocumentRecord[];
  /** Objects written for this request (deleted if the table write fails). */
  written: string[];
  /** Presigned uploads consumed (deleted once the table write succeeded). */
  consumed: string[];
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
    throw badRequest('Too many documents.', [
      { path: 'attachedDocuments', message: `at most ${DOCUMENT_LIMITS.perRequest} documents per request` },
    ]);
  }
  const written: string[] = [];
  const consumed: string[] = [];
  const uploads = await Promise.allSettled(
    planned.map(async ({ doc, path, replyId, bytes }): Promise<DocumentRecord> => {
      const id = newId();
      const key = documentKey(tenantId, ticketId, id);
      let size: number;
      let checksum: string;
      if (bytes) {
        const sha = createHash('sha256').update(bytes).digest();
        await putBlob(key, bytes, doc.documentType, sha.toString('base64'));
        size = bytes.length;
        checksum = `sha256:${sha.toString('hex')}`;
      } else {
        const source = stagingKey(tenantId, doc.uploadId as string);
        const head = await headBlob(source);
        if (!head) {
          throw new HttpError(400, 'invalid-reference', 'Bad Request', `${path}.uploadId names no upload.`, [
            {
              path: `${path}.uploadId`,
              message: 'no uploaded file with this uploadId (it may have expired)',
            },
          ]);
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
  const records = uploads.map((u) => (u as PromiseFulfilledResult<DocumentRecord>).value);
  return { records, written, consumed };
};

/** The table items recording staged documents, inside the ticket's collection. */
export const documentItems = (
  tenantId: string,
  ticketId: string,
  staged: StagedDocuments,
  now: number,
): WriteOp[] =>
  staged.records.map((record, i) => ({
    item: {
      Put: {
        Item: {
          pk: keys.record(tenantId, 'TICKET', ticketId).pk,
          sk: keys.document(record.id),
          entity: 'TICKET_DOCUMENT',
          tenantId,
          ticketId,
          ...record,
          addedAt: now,
          position: i,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  }));

/**
 * Runs the table write; if it fails, the objects staged for it are deleted before the error
 * goes on. After success, consumed presigned uploads are removed (the staging lifecycle rule
 * would expire them anyway).
 */
export const commitWithDocuments = async <T>(
  staged: StagedDocuments,
  write: () => Promise<T>,
): Promise<T> => {
  let result: T;
  try {
    result = await write();
  } catch (error) {
    await deleteBlobs(staged.written);
    throw error;
  }
  await deleteBlobs(staged.consumed).catch(() => undefined);
  return result;
};
