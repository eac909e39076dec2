import { insertTicket } from '../shared/domain/tickets';
import { apiHandler } from '../shared/http/api-handler';

/** `POST /ticket/insert` answers the id of the new ticket. */
export const handler = apiHandler('ticketInsert', {
  write: ({ body, write }) => insertTicket(write, body),
  answer: (id) => ({ id }),
});
