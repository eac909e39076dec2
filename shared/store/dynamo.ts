import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';

let client: DynamoDBDocumentClient | undefined;

/** One DocumentClient per process, created on first use (not at import, to keep cold starts lean). */
export const db = (): DynamoDBDocumentClient => {
  if (!client) {
    const { AWS_REGION, DYNAMODB_ENDPOINT } = config();
    const base = new DynamoDBClient({
      region: AWS_REGION,
      maxAttempts: 4,
      ...(DYNAMODB_ENDPOINT
        ? { endpoint: DYNAMODB_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    });
    client = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return client;
};

export const tableName = (): string => config().TABLE_NAME;

/** For tests and the local server when the endpoint changes. */
export const resetDb = (): void => {
  client?.destroy();
  client = undefined;
};
