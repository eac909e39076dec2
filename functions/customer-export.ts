import { requestExport } from '../shared/domain/customer-jobs';
import { apiHandler } from '../shared/http/api-handler';
import { pendingJobView } from '../shared/http/job-answer';

/** `POST /customer/export/{id}`: an export job of the customer (202; the worker makes the document). */
export const handler = apiHandler('customerExport', {
  write: ({ params, write, baseUrl }) => requestExport(write, params.id, baseUrl),
  answer: pendingJobView,
});
