import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';
import { readTicketDetail } from '../shared/store/ticket-read';

export const handler = apiHandler('ticketDetail', async ({ tenantId, pathId, baseUrl }) =>
  json(200, await readTicketDetail(tenantId, pathId, baseUrl)),
);
