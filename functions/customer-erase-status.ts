import { apiHandler } from '../shared/http/api-handler';
import { erasureJobView } from '../shared/http/job-answer';
import { json } from '../shared/http/responses';
import { readJob } from '../shared/store/jobs';

/** `GET /customer/erase/{id}`: an erasure job's state; once done, its receipt. */
export const handler = apiHandler('customerEraseStatus', async ({ tenantId, params }) =>
  json(200, erasureJobView(await readJob(tenantId, 'erasure', params.id))),
);
