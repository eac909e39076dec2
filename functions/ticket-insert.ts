import { insertTicket } from '../shared/domain/tickets';
import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';

/** `POST /ticket/insert` answers the id of the new ticket. */
export const handler = apiHandler('ticketInsert', async ({ body, write }) =>
  json(201, { id: await insertTicket(write, body) }),
);
