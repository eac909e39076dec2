import { readTicketPage } from '../shared/domain/ticket-reads';
import { apiHandler } from '../shared/http/api-handler';
import { listRequest } from '../shared/http/list-query';
import { json } from '../shared/http/responses';
import { pageResponse } from '../shared/http/views/page';
import { ticketView } from '../shared/http/views/ticket';

export const handler = apiHandler('ticketList', async ({ tenantId, query, rawQuery, baseUrl, routeUrl }) => {
  const { query: list, filter } = listRequest(query, rawQuery);
  const page = await readTicketPage(tenantId, list);
  return json(200, {
    ticket: await pageResponse(page, (t) => ticketView(t, page.related, baseUrl), routeUrl, filter),
  });
});
