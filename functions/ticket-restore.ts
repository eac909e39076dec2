import { restoreTicket } from '../shared/domain/tickets';
import { apiHandler } from '../shared/http/api-handler';

/** `PUT /ticket/restore/{id}`: the ticket back from the trash, as it was deleted. */
export const handler = apiHandler('ticketRestore', {
  write: ({ params, write }) => restoreTicket(write, params.id),
  answer: (id) => ({ id }),
});
