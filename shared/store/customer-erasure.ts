import { DeleteCommand, GetCommand, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';
import type { CustomerRecord, Stored } from './entities/records';
import type { StoredEvent } from './events';
import { conditionOf, queryOf, type UpdateSpec, updateOf } from './expression';
import { ERASED_MARK, keys, sortableTime } from './keys';
import { EXISTS, type WriteOp } from './write-ops';

/**
 * What an erasure (domain/customer-erasure.ts) reads and writes in the table. The customer's
 * record becomes a mark at its key (`erasedAt`, its `refCount`, nothing else): it is in no list,
 * search or count, every read takes it for missing (record-reads.ts, tickets.ts `relatedIn`), no
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
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
};

/**
 * Every event of the tenant's feed from `since` on, a page at a time (the feed is one partition:
 * nothing indexes it by resource, so an erasure reads the part of it the customer can be in).
 */
export const visitEvents = async (
  tenantId: string,
  since: number,
  visit: (event: StoredEvent) => Promise<void>,
): Promise<void> => {
  const input = {
    TableName: tableName(),
    ...queryOf({
      partition: ['pk', keys.events(tenantId)],
      sort: { ge: ['sk', sortableTime(since)] },
    }),
    ConsistentRead: true,
  };
  for await (const page of paginateQuery({ client: db() }, input))
    for (const item of page.Items ?? []) await visit(item as StoredEvent);
};

/** Changes some attributes of an item that is still there (an item gone meanwhile stays gone). */
export const rewriteItem = async (key: { pk: string; sk: string }, change: UpdateSpec): Promise<void> => {
  try {
    // Its key alone, whatever else the object given carries.
    const Key = { pk: key.pk, sk: key.sk };
    await db().send(new UpdateCommand({ TableName: tableName(), Key, ...updateOf(change, EXISTS) }));
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
};
