import { DOWNLOAD_URL_SECONDS, downloadUrl } from '../shared/blobs/s3';
import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';
import type { RedirectView } from '../shared/schemas/views';
import { readDocument } from '../shared/store/ticket-reads';

/**
 * `GET /ticket/{id}/attachment/{documentId}`: a 302 to a short-lived presigned S3 address that
 * downloads the exact bytes with their media type and name. The body repeats the address for
 * clients that do not follow redirects.
 */
export const handler = apiHandler('ticketAttachment', async ({ tenantId, params }) => {
  const doc = await readDocument(tenantId, params.id, params.documentId);
  const url = await downloadUrl(doc.key, doc.documentName, doc.documentType);
  const body: RedirectView = { url, expiresIn: DOWNLOAD_URL_SECONDS };
  return json(302, body, { location: url, 'cache-control': 'no-store' });
});
