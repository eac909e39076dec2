import { deleteTicket } from '../shared/domain/tickets';
import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';

export const handler = apiHandler('ticketDelete', async ({ params, write }) =>
  json(200, { id: await deleteTicket(write, params.id) }),
);
