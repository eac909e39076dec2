import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { db, tableName } from './dynamo';
import { updateOf } from './expression';
import { keys } from './keys';
import { TTL_ATTRIBUTE } from './table-schema';
import { isConditionFailed } from './update-if';

/**
 * The shared half of rate limiting: one counter item per subject and minute holds how many
 * requests all instances together have been granted. A subject (`rateSubjects` in keys.ts) is a
 * client's requests, the failed authentications naming a client or coming from an address, or a
 * client's token exchanges; every one lives under `RATE#`. An instance claims a lease of several
 * at once (one conditional UpdateItem), so the counter never passes the limit and the cost per
 * request is 1/lease of a write. Returns how many were granted (0 = budget spent) and the counter
 * after the claim.
 */
/**
 * In a multi-region deployment each region counts its own windows (docs/regions.md): a window
 * incremented in two regions at once would lose increments to the global table's last writer
 * wins, and counting at the tenant's home would put a cross-region round trip on every request.
 */
const regional = (subject: string): string => {
  const { REGIONS, AWS_REGION } = config();
  return REGIONS ? `${AWS_REGION}#${subject}` : subject;
};

export const claimLease = async (
  subject: string,
  minute: number,
  want: number,
  limit: number,
): Promise<{ granted: number; total: number }> => {
  let ask = want;
  for (let attempt = 0; attempt < 2 && ask > 0; attempt++) {
    try {
      const out = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.rateWindow(regional(subject), minute),
          ...updateOf(
            { add: { n: ask }, set: { [TTL_ATTRIBUTE]: (minute + 2) * 60 } },
            { or: [{ missing: 'n' }, { le: ['n', limit - ask] }] },
          ),
          ReturnValues: 'UPDATED_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { granted: ask, total: out.Attributes?.n as number };
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      const used = Number((error as { Item?: { n?: { N?: string } } }).Item?.n?.N ?? limit);
      ask = Math.min(ask, limit - used); // take what is left, if anything
    }
  }
  return { granted: 0, total: limit };
};
