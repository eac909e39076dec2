import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';
import { ticketInsert } from '../shared/resources/ticket-schema';
import { validate } from '../shared/schemas/validate';
import { insertTicket } from '../shared/store/tickets';

export const handler = apiHandler('ticketInsert', async ({ tenantId, body, remember }) => {
  const input = validate(ticketInsert, body);
  return json(201, { id: await insertTicket(tenantId, input, (id) => remember(201, { id })) });
});
