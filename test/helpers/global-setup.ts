import type { TestProject } from 'vitest/node';
import { startS3Local } from '../../local/s3-local';

declare module 'vitest' {
  export interface ProvidedContext {
    s3Endpoint: string;
    bucketName: string;
  }
}

/**
 * Starts one local S3 server (temporary directory) for the whole run; each test file starts its
 * own DynamoDB Local (test/helpers/env.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const s3 = await startS3Local();
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('bucketName', s3.bucket);
  return () => s3.stop();
}
