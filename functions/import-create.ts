import { UPLOAD_URL_SECONDS, uploadUrl } from '../shared/blobs/s3';
import { createImport } from '../shared/domain/import-jobs';
import { apiHandler } from '../shared/http/api-handler';
import { IMPORT_MEDIA_TYPE, importJobView } from '../shared/http/import-answer';
import { newId } from '../shared/store/ids';
import { blobKeys } from '../shared/store/keys';

/**
 * `POST /import`: a new import job (201), with the presigned address its NDJSON file is PUT to;
 * then `PUT /import/{id}/start` (docs/import.md).
 */
export const handler = apiHandler('importCreate', {
  write: async ({ tenantId, write, baseUrl }) => {
    const id = newId();
    const url = await uploadUrl(blobKeys.importFile(tenantId, id), IMPORT_MEDIA_TYPE);
    return createImport(write, id, (job) =>
      importJobView(job, baseUrl, { url, expiresIn: UPLOAD_URL_SECONDS }),
    );
  },
  answer: (view) => view,
});
