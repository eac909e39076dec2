import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';
import { erasureJobView } from '../shared/http/views/jobs';
import { readJob } from '../shared/store/jobs';

/** `GET /customer/erase/{id}`: an erasure job's state; once done, its receipt. */
export const handler = apiHandler('customerEraseStatus', async ({ tenantId, params, baseUrl }) =>
  json(200, erasureJobView(await readJob(tenantId, 'erasure', params.id), baseUrl)),
);
