import { readNotePage } from '../shared/domain/ticket-reads';
import { apiHandler } from '../shared/http/api-handler';
import { pageResponse } from '../shared/http/views/page';
import { noteView, ticketPartUrls } from '../shared/http/views/ticket';

export const handler = apiHandler('ticketNotes', async ({ tenantId, params, query, baseUrl, compat }) => {
  const page = await readNotePage(tenantId, params.id, query);
  const url = ticketPartUrls(baseUrl, params.id).notes;
  return compat.page('note', await pageResponse(page, (n) => noteView(n, page.related, baseUrl), url, {}));
});
