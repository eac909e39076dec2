import { apiHandler } from '../shared/http/api-handler';
import { historyEntryView } from '../shared/http/views/history';
import { pageResponse } from '../shared/http/views/page';
import { listHistory } from '../shared/store/history-pages';

/** `GET /customer/{id}/history`: every change of the customer, oldest first. */
export const handler = apiHandler('customerHistory', async ({ tenantId, params, query, baseUrl, compat }) => {
  const page = await listHistory(tenantId, 'CUSTOMER', params.id, query);
  return compat.page(
    'history',
    await pageResponse(page, historyEntryView, `${baseUrl}/customer/${params.id}/history`, {}),
  );
});
