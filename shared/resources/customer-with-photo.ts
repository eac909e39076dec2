import { releasePhoto, stagePhoto } from '../blobs/photos';
import { customers } from './customer';
import type { ResourceSpec } from './resource-spec';

/**
 * Customers as their write routes see them: the photo in `profilePhotoBlob` goes to S3.
 * Kept apart from `customers` so the read routes do not bundle the S3 client.
 */
export const customersWithPhoto: ResourceSpec = {
  ...customers,
  blobs: { stage: stagePhoto, release: releasePhoto },
};
