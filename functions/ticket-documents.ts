import { readDocumentPage } from '../shared/domain/ticket-reads';
import { apiHandler } from '../shared/http/api-handler';
import { pageResponse } from '../shared/http/views/page';
import { documentView, ticketPartUrls } from '../shared/http/views/ticket';

export const handler = apiHandler('ticketDocuments', async ({ tenantId, params, query, baseUrl, compat }) => {
  const page = await readDocumentPage(tenantId, params.id, query);
  const url = ticketPartUrls(baseUrl, params.id).documents;
  return compat.page('document', await pageResponse(page, (d) => documentView(d, baseUrl), url, {}));
});
