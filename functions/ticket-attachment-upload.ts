import { UPLOAD_URL_SECONDS, uploadUrl } from '../shared/blobs/s3';
import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';
import { DOCUMENT_LIMITS } from '../shared/schemas/documents';
import type { UploadView } from '../shared/schemas/views';
import { newId } from '../shared/store/ids';
import { blobKeys } from '../shared/store/keys';

/**
 * `POST /ticket/attachment/upload`: for files too big for a JSON body. Answers a presigned PUT
 * address; after the upload, send `{documentName, documentType, uploadId}` in `attachedDocuments`
 * of a ticket insert, update or reply. Unattached uploads expire after a day.
 */
export const handler = apiHandler('ticketAttachmentUpload', async ({ tenantId, body }) => {
  const uploadId = newId();
  return json(201, {
    uploadId,
    uploadUrl: await uploadUrl(blobKeys.staging(tenantId, uploadId), body.documentType),
    method: 'PUT',
    headers: { 'content-type': body.documentType },
    expiresIn: UPLOAD_URL_SECONDS,
    maxBytes: DOCUMENT_LIMITS.uploadBytes,
  } satisfies UploadView);
});
