import { readTicketPage } from '../shared/domain/ticket-reads';
import { apiHandler } from '../shared/http/api-handler';
import { listRequest } from '../shared/http/list-query';
import { json } from '../shared/http/responses';
import { pageView } from '../shared/http/views/page';
import { ticketView } from '../shared/http/views/ticket';

export const handler = apiHandler('ticketList', async ({ tenantId, query, rawQuery, baseUrl, routeUrl }) => {
  const { query: list, filter } = listRequest(query, rawQuery);
  const page = await readTicketPage(tenantId, list);
  const records = page.items.map((t) => ticketView(t, page.related, baseUrl));
  return json(200, { ticket: pageView(page, records, routeUrl, filter) });
});
