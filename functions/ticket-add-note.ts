import { addNote } from '../shared/domain/tickets';
import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';

/** `PUT /ticket/addNote/{id}` answers the id of the new note. */
export const handler = apiHandler('ticketAddNote', async ({ params, body, write }) =>
  json(200, { id: await addNote(write, params.id, body) }),
);
