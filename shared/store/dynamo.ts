import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { deadlineSignal, noAnswer } from './deadline';
import { DeadlineExceeded, OutcomeUnknown } from './errors';

let client: DynamoDBDocumentClient | undefined;

type Send = (command: unknown, options?: { abortSignal?: AbortSignal }) => Promise<unknown>;

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
  if (!client) {
    const { AWS_REGION, DYNAMODB_ENDPOINT } = config();
    const base = new DynamoDBClient({
      region: AWS_REGION,
      maxAttempts: 4,
      ...(DYNAMODB_ENDPOINT
        ? { endpoint: DYNAMODB_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    });
    client = withDeadlines(
      DynamoDBDocumentClient.from(base, {
        marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
      }),
    );
  }
  return client;
};

export const tableName = (): string => config().TABLE_NAME;

/** For tests and the local server when the endpoint changes. */
export const resetDb = (): void => {
  client?.destroy();
  client = undefined;
};
