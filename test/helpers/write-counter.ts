import { db } from '../../shared/store/dynamo';
import { interceptS3 } from './bucket';

// Names as the SDK clients see them (the DocumentClient sends the low-level commands).
const WRITE_COMMANDS = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);

/**
 * Counts what the service sends to write from now on: table writes other than rate-limit leases
 * (`RATE#` keys, which every authenticated request claims), and with `s3` every S3 request but a
 * read. A refused request must leave the count as it was.
 */
export const countWrites = (options: { s3?: boolean } = {}): { n: number } => {
  const writes = { n: 0 };
  const counting =
    (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) =>
    async (args: unknown) => {
      const pk = (args as { input?: { Key?: { pk?: string | { S?: string } } } }).input?.Key?.pk;
      const rateLease = (typeof pk === 'string' ? pk : (pk?.S ?? '')).startsWith('RATE#');
      if (WRITE_COMMANDS.has(context.commandName ?? '') && !rateLease) writes.n++;
      return next(args);
    };
  db().middlewareStack.add(counting as never, { step: 'initialize', name: 'count-writes' });
  if (options.s3) {
    interceptS3((method) => {
      if (method !== 'GET' && method !== 'HEAD') writes.n++;
      return undefined;
    });
  }
  return writes;
};
