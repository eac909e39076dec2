import { readNotePage } from '../shared/domain/ticket-reads';
import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';
import { pageResponse } from '../shared/http/views/page';
import { noteView, ticketPartUrls } from '../shared/http/views/ticket';

export const handler = apiHandler('ticketNotes', async ({ tenantId, params, query, baseUrl }) => {
  const page = await readNotePage(tenantId, params.id, query);
  const url = ticketPartUrls(baseUrl, params.id).notes;
  return json(200, { note: await pageResponse(page, (n) => noteView(n, page.related, baseUrl), url, {}) });
});
