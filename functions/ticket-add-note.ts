import { addNote } from '../shared/domain/tickets';
import { apiHandler } from '../shared/http/api-handler';

/** `PUT /ticket/addNote/{id}` answers the id of the new note. */
export const handler = apiHandler('ticketAddNote', {
  write: ({ params, body, write }) => addNote(write, params.id, body),
  answer: (id) => ({ id }),
});
