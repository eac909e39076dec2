import { unmergeTicket } from '../shared/domain/ticket-merge';
import { apiHandler } from '../shared/http/api-handler';

/** `PUT /ticket/unmerge/{id}`: this ticket's merge undone, both tickets back as they were. */
export const handler = apiHandler('ticketUnmerge', {
  write: ({ params, write }) => unmergeTicket(write, params.id),
  answer: (id) => ({ id }),
});
