import { startImport } from '../shared/domain/import-jobs';
import { apiHandler } from '../shared/http/api-handler';
import { importJobView } from '../shared/http/import-answer';

/** `PUT /import/{id}/start`: runs the job on its uploaded file (a running one goes on). */
export const handler = apiHandler('importStart', {
  write: ({ params, write, baseUrl }) => startImport(write, params.id, (job) => importJobView(job, baseUrl)),
  answer: (view) => view,
});
