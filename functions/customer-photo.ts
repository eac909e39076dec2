import { getBlob } from '../shared/blobs/s3';
import { apiHandler } from '../shared/http/api-handler';
import { customerEntity } from '../shared/store/entities/records';
import { NotFound } from '../shared/store/errors';
import { getRecord } from '../shared/store/records';

/** `GET /customer/photo/{id}`: the photo's bytes with their media type; 404 when there is none. */
export const handler = apiHandler('customerPhoto', async ({ tenantId, params }) => {
  const { photo } = await getRecord(customerEntity, tenantId, params.id);
  const blob = photo ? await getBlob(photo.key) : undefined;
  if (!blob) throw new NotFound(`Photo of customer ${params.id}`);
  return {
    statusCode: 200,
    headers: { 'content-type': blob.contentType, 'cache-control': 'private, max-age=60' },
    body: blob.bytes.toString('base64'),
    isBase64Encoded: true,
  };
});
