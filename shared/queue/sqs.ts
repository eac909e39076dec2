import { SQSClient } from '@aws-sdk/client-sqs';
import { withoutSdkLogging } from '../aws/sdk-logging';
import { sdkHashing } from '../aws/sha256';
import { config } from '../config';

/** The one SQS client of a function (the webhook delivery queue, the import queue); locally local/sqs-local.ts. */
let client: SQSClient | undefined;

export const sqs = (): SQSClient => {
  if (!client) {
    const { AWS_REGION, SQS_ENDPOINT } = config();
    client = withoutSdkLogging(
      new SQSClient({
        ...sdkHashing,
        region: AWS_REGION,
        maxAttempts: 4,
        ...(SQS_ENDPOINT
          ? { endpoint: SQS_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
          : {}),
      }),
    );
  }
  return client;
};

/** Forgets the client (tests that start a new queue server). */
export const resetSqs = (): void => {
  client?.destroy();
  client = undefined;
};
