import { contentDisposition, FILE_HEADERS } from '../shared/blobs/file-headers';
import { photoFileName } from '../shared/blobs/photos';
import { getBlob } from '../shared/blobs/s3';
import { apiHandler } from '../shared/http/api-handler';
import { customerEntity } from '../shared/store/entities/records';
import { NotFound } from '../shared/store/errors';
import { getRecord } from '../shared/store/record-reads';

/**
 * `GET /customer/photo/{id}`: the photo's bytes with the media type their signature showed on
 * the way in, from the API's own origin: never sniffed, never run (shared/blobs/file-headers.ts).
 * 404 when there is none.
 */
export const handler = apiHandler('customerPhoto', async ({ tenantId, params }) => {
  const { photo } = await getRecord(customerEntity, tenantId, params.id);
  const blob = photo ? await getBlob(photo.key) : undefined;
  if (!photo || !blob) throw new NotFound(`Photo of customer ${params.id}`);
  return {
    statusCode: 200,
    headers: {
      ...FILE_HEADERS,
      'content-type': photo.contentType,
      'content-disposition': contentDisposition('inline', photoFileName(params.id, photo.contentType)),
      'cache-control': 'private, max-age=60',
    },
    body: blob.bytes.toString('base64'),
    isBase64Encoded: true,
  };
});
