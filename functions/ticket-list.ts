import { readTicketPage } from '../shared/domain/ticket-reads';
import { apiHandler } from '../shared/http/api-handler';
import { listRequest } from '../shared/http/list-query';
import { pageResponse } from '../shared/http/views/page';
import { ticketView } from '../shared/http/views/ticket';

export const handler = apiHandler(
  'ticketList',
  async ({ tenantId, query, rawQuery, baseUrl, routeUrl, compat }) => {
    const { query: list, filter } = listRequest(query, rawQuery);
    const page = await readTicketPage(tenantId, list);
    return compat.page(
      'ticket',
      await pageResponse(page, (t) => ticketView(t, page.related, baseUrl, compat), routeUrl, filter),
    );
  },
);
