import { deleteTicket } from '../shared/domain/tickets';
import { apiHandler } from '../shared/http/api-handler';

/** `DELETE /ticket/delete/{id}` answers the ticket's id. */
export const handler = apiHandler('ticketDelete', {
  write: ({ params, write }) => deleteTicket(write, params.id),
  answer: (id) => ({ id }),
});
