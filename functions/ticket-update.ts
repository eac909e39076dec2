import { updateTicket } from '../shared/domain/tickets';
import { apiHandler } from '../shared/http/api-handler';

/** `PUT /ticket/update/{id}` answers the ticket's id. */
export const handler = apiHandler('ticketUpdate', {
  write: ({ params, body, write }) => updateTicket(write, params.id, body),
  answer: (id) => ({ id }),
});
