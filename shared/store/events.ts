import { GetCommand, paginateQuery, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { db, tableName } from './dynamo';
import type { Item } from './entity';
import { andCondition, andUpdate, type Cond, conditionOf, queryOf } from './expression';
import { newId } from './ids';
import { keys, sortableTime } from './keys';
import { storeRegion } from './store-region';
import { FEED_CLOCK, TTL_ATTRIBUTE } from './table-schema';
import { FeedClockAhead } from './transact';
import { ABSENT, type WriteOp } from './write-ops';

/**
 * The change feed. Every committed change is an event item written in the change's own
 * transaction (domain/commit.ts), so there is an event exactly when the write committed, once.
 * A tenant's events share one partition, ordered by the instant their write was sent
 * (`keys.eventOrder`); DynamoDB's TTL removes them after EVENT_RETENTION_DAYS.
 */

/** What a write says happened: its type (`ticket.replied`), the resource and what it reads like now. */
export interface EventDraft {
  type: string;
  /** The resource the event is about (a ticket's id for its replies, notes and documents). */
  resourceId: string;
  /** The changed record as stored after the change (null for a deletion: a tombstone). */
  resource: Item | null;
  /** An update's record as it was before (its history lists what changed); not stored with the event. */
  before?: Item | null;
}

/**
 * The attribute naming the import job whose write an event reports: the feed shows it, the
 * webhook fan-out's filter leaves such events out (infra/webhook-pipeline.ts).
 */
export const IMPORT_MARK = 'importId';

/** An event as stored. */
export interface StoredEvent {
  pk: string;
  sk: string;
  id: string;
  type: string;
  occurredAt: number;
  resourceId: string;
  resource: Item | null;
  /** The import job that wrote it (IMPORT_MARK), if one did. */
  importId?: string;
}

/**
 * `op` (marked `feedOrdered`) stamped `stamp` and conditioned on the item's clock
 * (table-schema.ts `FEED_CLOCK`) being older.
 */
export const orderInFeed = (op: WriteOp, stamp: number): WriteOp => {
  const { Put, Update, Delete } = op.item;
  if (Put) return { ...op, item: { Put: { ...Put, Item: { ...Put.Item, [FEED_CLOCK]: stamp } } } };
  const older: Cond = { or: [{ missing: FEED_CLOCK }, { lt: [FEED_CLOCK, stamp] }] };
  const onConditionFailed: WriteOp['onConditionFailed'] = (current) => {
    const clock = current?.[FEED_CLOCK];
    if (typeof clock === 'number' && clock >= stamp) return new FeedClockAhead(clock);
    return op.onConditionFailed?.(current) ?? 'stale';
  };
  const returnOld = { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } as const;
  if (Update) {
    const stamped = andUpdate(Update, { set: { [FEED_CLOCK]: stamp } }, 'fs');
    return {
      ...op,
      onConditionFailed,
      item: { Update: { ...andCondition(stamped, older, 'fc'), ...returnOld } },
    };
  }
  if (Delete)
    return {
      ...op,
      onConditionFailed,
      item: { Delete: { ...andCondition(Delete, older, 'fc'), ...returnOld } },
    };
  throw new Error('only a Put, an Update or a Delete can be ordered in the feed');
};

/** The event items of a write stamped `stamp` (when its transaction is sent). */
export const eventWrites = (
  tenantId: string,
  drafts: readonly EventDraft[],
  stamp: number,
  /** Marks the events of an import job's writes (IMPORT_MARK). */
  importId?: string,
): WriteOp[] => {
  const retention = config().EVENT_RETENTION_DAYS * 86_400;
  // One stamp for all: their ids, sorted, keep them in the order the plan made them.
  const ids = drafts.map(() => newId(stamp)).sort();
  return drafts.map((draft, i) => {
    const id = ids[i] as string;
    return {
      item: {
        Put: {
          Item: {
            pk: keys.events(tenantId),
            sk: keys.eventOrder(stamp, id),
            id,
            type: draft.type,
            occurredAt: stamp,
            resourceId: draft.resourceId,
            resource: draft.resource,
            ...(importId ? { [IMPORT_MARK]: importId } : {}),
            // Several regions: where it was written (the tenant's home), so that only that
            // region's webhook fan-out takes it from its replica's stream (docs/regions.md).
            ...(config().REGIONS ? { region: storeRegion() } : {}),
            [TTL_ATTRIBUTE]: Math.floor(stamp / 1000) + retention,
          },
          ...conditionOf(ABSENT),
        },
      },
    };
  });
};

/**
 * Events after `after` (a feed position, exclusive) up to `until` (the feed's frontier), oldest
 * first, at most `limit` of them (with `types`, only those: each further Query of a read asks for
 * twice as many, as a Limit counts entries before the filter). Consistent: the feed partition is
 * on the table. Returns the events and where the next read starts: after the last event of a
 * full page, else at `until` (everything before it was read: nothing older can still commit).
 */
export const readEvents = async (
  tenantId: string,
  range: { after: string; until: string; limit: number; types?: readonly string[] },
): Promise<{ events: StoredEvent[]; reached: string }> => {
  const events: StoredEvent[] = [];
  let start: Item | undefined;
  let widen = 1;
  const filter: Cond | undefined = range.types?.length ? { in: ['type', range.types] } : undefined;
  if (range.after >= range.until) return { events, reached: range.after };
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        // `after` + NUL: strictly after it; `until` has no id part: strictly before that instant.
        ...queryOf(
          {
            partition: ['pk', keys.events(tenantId)],
            sort: { between: ['sk', `${range.after}\u0000`, range.until] },
          },
          filter ? { filter } : {},
        ),
        ConsistentRead: true,
        Limit: (range.limit - events.length) * widen,
        ExclusiveStartKey: start,
      }),
    );
    if (filter) widen *= 2;
    for (const item of (out.Items ?? []) as StoredEvent[]) if (events.length < range.limit) events.push(item);
    start = out.LastEvaluatedKey;
  } while (start && events.length < range.limit);
  const full = events.length === range.limit;
  return { events, reached: full ? (events.at(-1) as StoredEvent).sk : range.until };
};

/** One event by its place in the feed (consistent); undefined once DynamoDB's TTL removed it. */
export const readEvent = async (tenantId: string, sk: string): Promise<StoredEvent | undefined> => {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: { pk: keys.events(tenantId), sk }, ConsistentRead: true }),
  );
  return out.Item as StoredEvent | undefined;
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
