import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';
import type { CustomerRecord, Stored } from './entities/records';
import { conditionOf, type UpdateSpec, updateOf } from './expression';
import { ERASED_MARK, type ItemKey, keys } from './keys';
import { isConditionFailed, updateIf } from './update-if';
import { EXISTS, type WriteOp } from './write-ops';

/**
 * What an erasure (domain/customer-erasure.ts) reads and writes in the table. The customer's
 * record becomes a mark at its key (`erasedAt`, its `refCount`, nothing else): it is in no list,
 * search or count, every read takes it for missing (entity-item.ts `liveItem`), no
 * new ticket can point at it (derived-writes.ts `referenceOp`), while the tickets an anonymising
 * erasure keeps still count on it, so they can change and be deleted as any ticket.
 */

/** The record read as `current` becomes the mark, only if it is still what was read. */
export const erasedMarkWrite = (tenantId: string, current: Stored<CustomerRecord>, now: number): WriteOp => {
  const keep = new Set(['pk', 'sk', 'refCount', 'version']);
  const remove = Object.keys(current).filter((attr) => !keep.has(attr));
  return {
    item: {
      Update: {
        Key: keys.record(tenantId, 'CUSTOMER', current.id),
        ...updateOf(
          { set: { [ERASED_MARK]: now }, remove, add: { version: 1 } },
          {
            and: [EXISTS, { eq: ['version', current.version] }, { missing: ERASED_MARK }],
          },
        ),
      },
    },
    onConditionFailed: () => 'stale',
  };
};

/** How many live tickets an erased customer's mark counts (0: no mark). */
export const markedTickets = async (tenantId: string, customerId: string): Promise<number> => {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.record(tenantId, 'CUSTOMER', customerId),
      ConsistentRead: true,
    }),
  );
  return out.Item && ERASED_MARK in out.Item ? Number(out.Item.refCount ?? 0) : 0;
};

/** The mark of an erased customer no ticket points at any more goes (a deleting erasure's last step). */
export const removeUnusedMark = async (tenantId: string, customerId: string): Promise<void> => {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.record(tenantId, 'CUSTOMER', customerId),
        ...conditionOf({
          and: [{ exists: ERASED_MARK }, { or: [{ missing: 'refCount' }, { le: ['refCount', 0] }] }],
        }),
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
};

/** Changes some attributes of an item that is still there (an item gone meanwhile stays gone). */
export const rewriteItem = async (key: ItemKey, change: UpdateSpec): Promise<void> => {
  // Its key alone, whatever else the object given carries.
  await updateIf({ Key: { pk: key.pk, sk: key.sk }, ...updateOf(change, EXISTS) });
};
