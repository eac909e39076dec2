import { readTrashPage } from '../shared/domain/ticket-reads';
import { apiHandler } from '../shared/http/api-handler';
import { pageResponse } from '../shared/http/views/page';
import { trashedTicketView } from '../shared/http/views/ticket';

/** `GET /ticket/trash/list`: the tenant's deleted tickets, most recently deleted first. */
export const handler = apiHandler(
  'ticketTrashList',
  async ({ tenantId, query, baseUrl, routeUrl, compat }) => {
    const page = await readTrashPage(tenantId, query);
    return compat.page(
      'ticket',
      await pageResponse(page, (t) => trashedTicketView(t, page.related, baseUrl, compat), routeUrl, {}),
    );
  },
);
