import { updateTicket } from '../shared/domain/tickets';
import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';

export const handler = apiHandler('ticketUpdate', async ({ params, body, write }) =>
  json(200, { id: await updateTicket(write, params.id, body) }),
);
