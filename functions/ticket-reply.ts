import { replyToTicket } from '../shared/domain/tickets';
import { apiHandler } from '../shared/http/api-handler';

/** `PUT /ticket/reply/{id}` answers the id of the new reply. */
export const handler = apiHandler('ticketReply', {
  write: ({ params, body, write }) => replyToTicket(write, params.id, body),
  answer: (id) => ({ id }),
});
