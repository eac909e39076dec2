import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';
import { exportJobView } from '../shared/http/views/jobs';
import { readJob } from '../shared/store/jobs';

/** `GET /customer/export/{id}`: an export job's state; once done, the document's download address. */
export const handler = apiHandler('customerExportStatus', async ({ tenantId, params }) =>
  json(200, await exportJobView(await readJob(tenantId, 'export', params.id))),
);
