import { replyToTicket } from '../shared/domain/tickets';
import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';

/** `PUT /ticket/reply/{id}` answers the id of the new reply. */
export const handler = apiHandler('ticketReply', async ({ params, body, write }) =>
  json(200, { id: await replyToTicket(write, params.id, body) }),
);
