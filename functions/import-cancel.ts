import { cancelImport } from '../shared/domain/import-jobs';
import { apiHandler } from '../shared/http/api-handler';
import { importJobView } from '../shared/http/import-answer';

/** `PUT /import/{id}/cancel`: no further line of the job is applied; what it wrote stays. */
export const handler = apiHandler('importCancel', {
  write: ({ params, write, baseUrl }) => cancelImport(write, params.id, (job) => importJobView(job, baseUrl)),
  answer: (view) => view,
});
