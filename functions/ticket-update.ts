import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';
import { ticketUpdate } from '../shared/resources/ticket-schema';
import { validate } from '../shared/schemas/validate';
import { updateTicket } from '../shared/store/tickets';

export const handler = apiHandler('ticketUpdate', async ({ tenantId, pathId, body, ifMatch }) => {
  const patch = validate(ticketUpdate, body);
  return json(200, { id: await updateTicket(tenantId, pathId, patch, ifMatch) });
});
