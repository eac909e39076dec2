import { mergeTickets } from '../shared/domain/ticket-merge';
import { apiHandler } from '../shared/http/api-handler';

/** `PUT /ticket/merge/{id}`: the tickets named in `sources` merged into this one. */
export const handler = apiHandler('ticketMerge', {
  write: ({ params, body, write }) => mergeTickets(write, params.id, body.sources),
  answer: (id) => ({ id }),
});
