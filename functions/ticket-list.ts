import { readTicketDetailPage, readTicketPage } from '../shared/domain/ticket-reads';
import { apiHandler } from '../shared/http/api-handler';
import { listRequest } from '../shared/http/list-query';
import { pageResponse } from '../shared/http/views/page';
import { ticketDetailView, ticketView } from '../shared/http/views/ticket';

export const handler = apiHandler(
  'ticketList',
  async ({ tenantId, query, rawQuery, baseUrl, routeUrl, compat }) => {
    const { query: list, filter, view } = listRequest(query, rawQuery);
    if (view === 'summary') {
      const page = await readTicketPage(tenantId, list);
      return compat.page(
        'ticket',
        await pageResponse(page, (t) => ticketView(t, page.related, baseUrl, compat), routeUrl, filter),
      );
    }
    const page = await readTicketDetailPage(tenantId, list);
    return compat.page(
      'ticket',
      await pageResponse(
        page,
        async (read) => {
          const { ticket, parts, related } = await read();
          return ticketDetailView(ticket, parts, related, baseUrl, compat);
        },
        routeUrl,
        filter,
      ),
    );
  },
);
