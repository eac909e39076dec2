import { readReplyPage } from '../shared/domain/ticket-reads';
import { apiHandler } from '../shared/http/api-handler';
import { pageResponse } from '../shared/http/views/page';
import { replyView, ticketPartUrls } from '../shared/http/views/ticket';

export const handler = apiHandler('ticketReplies', async ({ tenantId, params, query, baseUrl, compat }) => {
  const page = await readReplyPage(tenantId, params.id, query);
  const url = ticketPartUrls(baseUrl, params.id).replies;
  return compat.page(
    'reply',
    await pageResponse(page, (r) => replyView(r, page, page.related, baseUrl), url, {}),
  );
});
