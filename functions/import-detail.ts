import { UPLOAD_URL_SECONDS, uploadUrl } from '../shared/blobs/s3';
import { apiHandler } from '../shared/http/api-handler';
import { IMPORT_MEDIA_TYPE, importJobView } from '../shared/http/import-answer';
import { json } from '../shared/http/responses';
import { readImportJob } from '../shared/store/imports';
import { blobKeys } from '../shared/store/keys';

/** `GET /import/{id}`: the job's state, counts and progress; while it waits for its file, a fresh upload address. */
export const handler = apiHandler('importDetail', async ({ tenantId, params, baseUrl }) => {
  const job = await readImportJob(tenantId, params.id);
  const upload =
    job.status === 'created'
      ? {
          url: await uploadUrl(blobKeys.importFile(tenantId, job.id), IMPORT_MEDIA_TYPE),
          expiresIn: UPLOAD_URL_SECONDS,
        }
      : undefined;
  return json(200, importJobView(job, baseUrl, upload));
});
