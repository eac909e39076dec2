import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';
import { replyInput } from '../shared/resources/ticket-schema';
import { validate } from '../shared/schemas/validate';
import { replyToTicket } from '../shared/store/tickets';

/** `PUT /ticket/reply/{id}` answers the id of the new reply. */
export const handler = apiHandler('ticketReply', async ({ tenantId, pathId, body, remember }) => {
  const reply = validate(replyInput, body);
  return json(200, { id: await replyToTicket(tenantId, pathId, reply, (id) => remember(200, { id })) });
});
