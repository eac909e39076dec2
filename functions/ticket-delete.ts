import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';
import { deleteTicket } from '../shared/store/tickets';

export const handler = apiHandler('ticketDelete', async ({ tenantId, pathId, ifMatch }) =>
  json(200, { id: await deleteTicket(tenantId, pathId, ifMatch) }),
);
