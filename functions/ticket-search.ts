import { readTicketDetails } from '../shared/domain/ticket-reads';
import { apiHandler } from '../shared/http/api-handler';
import { searchRequest } from '../shared/http/search-request';
import { pageResponse } from '../shared/http/views/page';
import { ticketDetailView } from '../shared/http/views/ticket';
import { search, TICKETS } from '../shared/search/searches';

/**
 * `GET /ticket/search`: the index names the page's tickets and their highlights; the tickets
 * themselves are read from the table, as `/ticket/list` reads them (a ticket removed since the
 * index saw it is left out of the page).
 */
export const handler = apiHandler(
  'ticketSearch',
  async ({ tenantId, query, rawQuery, event, baseUrl, routeUrl, compat }) => {
    const { request, filter, minPosition } = searchRequest(query, rawQuery, event);
    const found = await search(TICKETS, tenantId, request, minPosition);
    const details = await readTicketDetails(
      tenantId,
      found.hits.map((h) => h.id),
    );
    const items = found.hits.map((hit, i) => {
      const read = details[i];
      return read && { hit, read };
    });
    return compat.page(
      'ticket',
      await pageResponse(
        { ...found, items, fetched: new Map() },
        async ({ hit, read }) => {
          const { ticket, parts, related } = await read();
          return { ...ticketDetailView(ticket, parts, related, baseUrl, compat), highlights: hit.highlights };
        },
        routeUrl,
        filter,
      ),
    );
  },
);
