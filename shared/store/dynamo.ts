import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { withoutSdkLogging } from '../aws/sdk-logging';
import { sdkHashing } from '../aws/sha256';
import { config } from '../config';
import { type DeadlineSignal, deadlineSignal, noAnswer } from './deadline';
import { DeadlineExceeded, OutcomeUnknown } from './errors';
import { endpointOf, storeRegion } from './store-region';

/** One DocumentClient per region (store-region.ts), created on first use. */
const clients = new Map<string, DynamoDBDocumentClient>();

type Send = (command: unknown, options?: { abortSignal?: DeadlineSignal }) => Promise<unknown>;

/**
 * Every call carries the request's deadline (store/deadline.ts): none starts after it, and one
 * in flight is aborted at it. A call that got no answer tells the truth about what it may have
 * done: a read or a never-sent call wrote nothing (DeadlineExceeded, a 503), but a transaction
 * that was sent may or may not have been applied (OutcomeUnknown, a 504).
 */
const withDeadlines = (doc: DynamoDBDocumentClient): DynamoDBDocumentClient => {
  const send = doc.send.bind(doc) as Send;
  const guarded: Send = async (command, options) => {
    const signal = deadlineSignal();
    if (signal?.aborted) throw new DeadlineExceeded();
    try {
      return await send(command, { ...(signal ? { abortSignal: signal } : {}), ...options });
    } catch (error) {
      const unanswered = signal?.aborted || noAnswer(error);
      if (unanswered && command instanceof TransactWriteCommand) throw new OutcomeUnknown();
      if (signal?.aborted) throw new DeadlineExceeded();
      throw error;
    }
  };
  doc.send = guarded as typeof doc.send;
  return doc;
};

/** One DocumentClient per process, created on first use (not at import, to keep cold starts lean). */
export const db = (): DynamoDBDocumentClient => {
  const region = storeRegion();
  let client = clients.get(region);
  if (!client) {
    const endpoint = endpointOf(region);
    const base = withoutSdkLogging(
      new DynamoDBClient({
        ...sdkHashing,
        region,
        maxAttempts: 4,
        ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
      }),
    );
    client = withDeadlines(
      DynamoDBDocumentClient.from(base, {
        marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
      }),
    );
    clients.set(region, client);
  }
  return client;
};

export const tableName = (): string => config().TABLE_NAME;

/** For tests and the local server when the endpoint changes. */
export const resetDb = (): void => {
  for (const client of clients.values()) client.destroy();
  clients.clear();
};
