import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';
import { noteInput } from '../shared/resources/ticket-schema';
import { validate } from '../shared/schemas/validate';
import { addNote } from '../shared/store/tickets';

/** `PUT /ticket/addNote/{id}` answers the id of the new note. */
export const handler = apiHandler('ticketAddNote', async ({ tenantId, pathId, body, remember }) => {
  const note = validate(noteInput, body);
  return json(200, { id: await addNote(tenantId, pathId, note, (id) => remember(200, { id })) });
});
