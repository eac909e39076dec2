import { readTicketDetail } from '../shared/domain/ticket-reads';
import { apiHandler } from '../shared/http/api-handler';
import { etagOf, json } from '../shared/http/responses';
import { ticketDetailView } from '../shared/http/views/ticket';

export const handler = apiHandler('ticketDetail', async ({ tenantId, params, baseUrl, compat }) => {
  const { ticket, parts, related } = await readTicketDetail(tenantId, params.id);
  return json(200, ticketDetailView(ticket, parts, related, baseUrl, compat), {
    etag: etagOf(ticket.version),
  });
});
