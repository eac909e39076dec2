import { apiHandler } from '../shared/http/api-handler';
import { historyEntryView } from '../shared/http/views/history';
import { pageResponse } from '../shared/http/views/page';
import { listHistory } from '../shared/store/history-pages';

/** `GET /ticket/{id}/history`: every change of the ticket, oldest first. */
export const handler = apiHandler('ticketHistory', async ({ tenantId, params, query, baseUrl, compat }) => {
  const page = await listHistory(tenantId, 'TICKET', params.id, query);
  return compat.page(
    'history',
    await pageResponse(page, historyEntryView, `${baseUrl}/ticket/${params.id}/history`, {}),
  );
});
