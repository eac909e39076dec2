import { localDynamoClient } from '../../local/dynamodb-local';
import { resetConfig } from '../../shared/config';
import { ensureTable } from '../../shared/store/create-table';
import { resetDb } from '../../shared/store/dynamo';

/**
 * Moves this test process to a table of its own. For the files that run the local event
 * pipeline: it reads its table's whole stream (every tenant's cascades and events). Since each
 * test file has a DynamoDB Local of its own (global-setup.ts) no other file writes to that
 * stream any more; the named table keeps the pipeline's table apparent in the file.
 */
export const useOwnTable = async (name: string): Promise<void> => {
  const client = localDynamoClient(String(process.env.DYNAMODB_ENDPOINT));
  try {
    await ensureTable(client, name);
  } finally {
    client.destroy();
  }
  process.env.TABLE_NAME = name;
  resetConfig();
  resetDb();
};
