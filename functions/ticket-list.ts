import { apiHandler } from '../shared/http/api-handler';
import { parseListQuery } from '../shared/http/list-query';
import { json } from '../shared/http/responses';
import { TICKET_SEARCH_PARAMS } from '../shared/store/ticket-index';
import { listTickets } from '../shared/store/ticket-read';

export const handler = apiHandler('ticketList', async ({ tenantId, query, baseUrl }) => {
  const page = await listTickets(tenantId, parseListQuery(query, TICKET_SEARCH_PARAMS), baseUrl);
  return json(200, { ticket: page });
});
