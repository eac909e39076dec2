import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';

/** Whether a write failed because its condition did not hold (nothing was written). */
export const isConditionFailed = (error: unknown): boolean =>
  (error as Error | undefined)?.name === 'ConditionalCheckFailedException';

/**
 * One conditional UpdateItem of the table: true when it was applied, false when its condition
 * did not hold (nothing written); any other failure is thrown.
 */
export const updateIf = async (input: Omit<UpdateCommandInput, 'TableName'>): Promise<boolean> => {
  try {
    await db().send(new UpdateCommand({ ...input, TableName: tableName() }));
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
};
