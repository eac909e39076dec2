import { readDeliveryPage } from '../shared/domain/webhook-attempts';
import { apiHandler } from '../shared/http/api-handler';
import { pageResponse } from '../shared/http/views/page';
import { deliveryView } from '../shared/http/views/records';

export const handler = apiHandler(
  'webhookDeliveries',
  async ({ tenantId, params, query, baseUrl, compat }) => {
    const page = await readDeliveryPage(tenantId, params.id, query);
    const url = `${baseUrl}/webhook/${params.id}/deliveries`;
    return compat.page('delivery', await pageResponse(page, deliveryView, url, {}));
  },
);
