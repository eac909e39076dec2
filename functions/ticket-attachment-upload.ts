import * as z from 'zod/mini';
import { stagingKey } from '../shared/blobs/documents';
import { UPLOAD_URL_SECONDS, uploadUrl } from '../shared/blobs/s3';
import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';
import { DOCUMENT_LIMITS, mediaType } from '../shared/schemas/documents';
import { requiredText } from '../shared/schemas/fields';
import { validate } from '../shared/schemas/validate';
import { newId } from '../shared/store/ids';

const uploadRequest = z.object({ documentName: requiredText(255), documentType: mediaType });

/**
 * `POST /ticket/attachment/upload`: for files too big for a JSON body. Answers a presigned PUT
 * address; after the upload, send `{documentName, documentType, uploadId}` in `attachedDocuments`
 * of a ticket insert, update or reply. Unattached uploads expire after a day.
 */
export const handler = apiHandler('ticketAttachmentUpload', async ({ tenantId, body }) => {
  const { documentType } = validate(uploadRequest, body);
  const uploadId = newId();
  return json(201, {
    uploadId,
    uploadUrl: await uploadUrl(stagingKey(tenantId, uploadId), documentType),
    method: 'PUT',
    headers: { 'content-type': documentType },
    expiresIn: UPLOAD_URL_SECONDS,
    maxBytes: DOCUMENT_LIMITS.uploadBytes,
  });
});
