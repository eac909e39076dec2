import type { TestProject } from 'vitest/node';
import { localDynamoClient, startDynamoDbLocal } from '../../local/dynamodb-local';
import { startS3Local } from '../../local/s3-local';
import { ensureTable } from '../../shared/store/create-table';

/** The table every test uses; tests isolate themselves by tenant, not by table. */
const TEST_TABLE = 'helpdesk-test';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    tableName: string;
    s3Endpoint: string;
    bucketName: string;
  }
}

/**
 * Starts one local S3 server (temporary directory) and one in-memory DynamoDB Local for the whole run and creates the table. shortLived:
 * a test run is short enough that the quicker JVM start wins (integration suite 17 s vs 24 s).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dynamo = await startDynamoDbLocal({ shortLived: true });
  const client = localDynamoClient(dynamo.endpoint);
  try {
    await ensureTable(client, TEST_TABLE);
  } catch (error) {
    await dynamo.stop();
    throw error;
  } finally {
    client.destroy();
  }
  const s3 = await startS3Local().catch(async (error) => {
    await dynamo.stop();
    throw error;
  });
  project.provide('dynamodbEndpoint', dynamo.endpoint);
  project.provide('tableName', TEST_TABLE);
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('bucketName', s3.bucket);
  return async () => {
    await s3.stop();
    await dynamo.stop();
  };
}
