import { getBlob } from '../shared/blobs/s3';
import { apiHandler } from '../shared/http/api-handler';
import { notFound } from '../shared/http/errors';
import { customers } from '../shared/resources/customer';
import { getRecord } from '../shared/store/records';

/** `GET /customer/photo/{id}`: the photo's bytes with their media type; 404 when there is none. */
export const handler = apiHandler('customerPhoto', async ({ tenantId, pathId }) => {
  const photo = (await getRecord(customers, tenantId, pathId)).photo as { key: string } | null | undefined;
  const blob = photo ? await getBlob(photo.key) : undefined;
  if (!blob) throw notFound(`Photo of customer ${pathId}`);
  return {
    statusCode: 200,
    headers: { 'content-type': blob.contentType, 'cache-control': 'private, max-age=60' },
    body: blob.bytes.toString('base64'),
    isBase64Encoded: true,
  };
});
