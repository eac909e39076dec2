import { apiHandler } from '../shared/http/api-handler';
import { notFound } from '../shared/http/errors';
import { customers } from '../shared/resources/customer';
import { getRecord } from '../shared/store/records';

/**
 * `GET /customer/photo/{id}`. Photo storage (S3) is not built yet, so no customer has a photo:
 * an unknown customer and a customer without a photo are both 404, with different details.
 */
export const handler = apiHandler('customerPhoto', async ({ tenantId, pathId }) => {
  await getRecord(customers, tenantId, pathId);
  throw notFound(`Photo of customer ${pathId}`);
});
