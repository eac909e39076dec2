import { requestErasure } from '../shared/domain/customer-jobs';
import { apiHandler } from '../shared/http/api-handler';
import { pendingJobView } from '../shared/http/job-answer';

/** `POST /customer/erase/{id}`: the customer erased now, every copy of their data by the worker (202). */
export const handler = apiHandler('customerErase', {
  write: ({ params, body, write, baseUrl }) => requestErasure(write, params.id, body, baseUrl),
  answer: pendingJobView,
});
