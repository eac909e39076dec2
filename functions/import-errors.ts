import { apiHandler } from '../shared/http/api-handler';
import { importErrorView } from '../shared/http/import-answer';
import { pageResponse } from '../shared/http/views/page';
import { importErrorPage } from '../shared/store/import-errors';
import { readImportJob } from '../shared/store/imports';

/** `GET /import/{id}/errors`: the job's failed lines in line order, each with its problem. */
export const handler = apiHandler('importErrors', async ({ tenantId, params, query, baseUrl, compat }) => {
  // The job first: another tenant's (or no) job is a 404, never an empty page.
  await readImportJob(tenantId, params.id);
  const page = await importErrorPage(tenantId, params.id, query);
  const url = `${baseUrl}/import/${params.id}/errors`;
  return compat.page('error', await pageResponse(page, importErrorView, url, {}));
});
