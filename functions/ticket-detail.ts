import { apiHandler } from '../shared/http/api-handler';
import { etagOf, json } from '../shared/http/responses';
import { readTicketDetail } from '../shared/store/ticket-read';

export const handler = apiHandler('ticketDetail', async ({ tenantId, pathId, baseUrl }) => {
  const { ticket, version } = await readTicketDetail(tenantId, pathId, baseUrl);
  return json(200, ticket, { etag: etagOf(version) });
});
