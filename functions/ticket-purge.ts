import { purgeTicket } from '../shared/domain/tickets';
import { apiHandler } from '../shared/http/api-handler';

/** `DELETE /ticket/purge/{id}`: a ticket in the trash removed for good, now. */
export const handler = apiHandler('ticketPurge', {
  write: ({ params, write }) => purgeTicket(write, params.id),
  answer: (id) => ({ id }),
});
