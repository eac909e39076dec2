import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type BucketProps,
  HttpMethods,
  type IBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { IMPORT_KEPT_DAYS } from '../shared/store/imports';
import { EXPORTS_PREFIX, IMPORTS_PREFIX, STAGING_PREFIX } from '../shared/store/keys';

export interface AttachmentsBucketProps {
  readonly removalPolicy: RemovalPolicy;
  /** Days the server access logs are kept (the stack's log retention). */
  readonly accessLogDays: number;
  /**
   * Adopt this bucket instead of creating one (context `existingBucketName`): the functions are
   * granted on it, and everything below (encryption, versioning, the TLS-only policy, CORS, the
   * lifecycle rules, the access-log bucket) is then the bucket owner's to set, not this stack's.
   */
  readonly existingBucketName?: string;
}

export type { STAGING_PREFIX };
export const STAGING_DAYS = 1;
/** Days an export document stays (its links stop working after an hour). */
export const EXPORT_DAYS = 1;
/** Days an import file stays: as long as its job and failed lines (their TTL, shared/store/imports.ts). */
export const IMPORT_FILE_DAYS = IMPORT_KEPT_DAYS;
export const NONCURRENT_VERSION_DAYS = 30;
export const ACCESS_LOG_PREFIX = 'attachments/';

/**
 * The bucket of ticket attachments and customer photos, and the bucket of its server access logs.
 *
 * SSE-S3 rather than a customer-managed KMS key: the table holding the same tenants' data is on an
 * AWS-owned key too; a KMS key costs a monthly fee and KMS requests, every grant would also need
 * kms:Decrypt / kms:GenerateDataKey, and a future cross-region replica would need a key per region.
 * Move to KMS when someone must be able to revoke decryption separately from S3 access.
 *
 * No `autoDeleteObjects` (it adds a custom-resource Lambda): with removalPolicy `destroy` a stack
 * delete still fails on a bucket that holds objects or old versions; empty it (all versions) first.
 */
export class AttachmentsBucket extends Construct {
  readonly bucket: IBucket;
  /** Absent for an adopted bucket. */
  readonly accessLogs?: Bucket;

  constructor(scope: Construct, id: string, props: AttachmentsBucketProps) {
    super(scope, id);
    if (props.existingBucketName) {
      this.bucket = Bucket.fromBucketName(this, 'Bucket', props.existingBucketName);
      return;
    }
    // Scoped to these buckets and set before any child exists: log delivery by bucket policy, since
    // ACLs are disabled below (cdk.json does not set this feature flag for the whole app).
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);

    const common: BucketProps = {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      removalPolicy: props.removalPolicy,
    };

    // Presigned downloads and uploads go straight to S3, so only these logs show who fetched what.
    this.accessLogs = new Bucket(this, 'AccessLogs', {
      ...common,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(props.accessLogDays) }],
    });

    this.bucket = new Bucket(this, 'Bucket', {
      ...common,
      // An overwrite or delete (a bug, a bad cleanup) stays recoverable for 30 days.
      versioned: true,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: ACCESS_LOG_PREFIX,
      // Browsers PUT uploads and GET downloads on presigned URLs: the signature is the authorization,
      // CORS only lets a page read the answer. Only content-type is signed and sent.
      cors: [
        {
          allowedMethods: [HttpMethods.GET, HttpMethods.PUT],
          allowedOrigins: ['*'],
          allowedHeaders: ['content-type'],
          maxAge: 3600,
        },
      ],
      lifecycleRules: [
        {
          // Uploads never attached to a ticket; their old versions go as fast.
          id: 'expire-unattached-uploads',
          prefix: STAGING_PREFIX,
          expiration: Duration.days(STAGING_DAYS),
          noncurrentVersionExpiration: Duration.days(STAGING_DAYS),
        },
        {
          // Customers' exports: their links work an hour (domain/customer-export.ts); gone in a day.
          id: 'expire-customer-exports',
          prefix: EXPORTS_PREFIX,
          expiration: Duration.days(EXPORT_DAYS),
          noncurrentVersionExpiration: Duration.days(EXPORT_DAYS),
        },
        {
          // Import files (`imports/<tenant>/<job>.ndjson`): kept as long as their jobs, 30 days.
          id: 'expire-import-files',
          prefix: IMPORTS_PREFIX,
          expiration: Duration.days(IMPORT_FILE_DAYS),
          noncurrentVersionExpiration: Duration.days(IMPORT_FILE_DAYS),
        },
        {
          id: 'abort-incomplete-multipart-uploads',
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
        {
          // Overwritten and deleted objects are kept a month, then gone with their delete markers.
          id: 'expire-noncurrent-versions',
          noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS),
          expiredObjectDeleteMarker: true,
        },
      ],
    });
  }
}
