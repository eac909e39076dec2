import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';

/**
 * One conditional UpdateItem of the table: true when it was applied, false when its condition
 * did not hold (nothing written); any other failure is thrown.
 */
export const updateIf = async (input: Omit<UpdateCommandInput, 'TableName'>): Promise<boolean> => {
  try {
    await db().send(new UpdateCommand({ ...input, TableName: tableName() }));
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
};
