import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { db, tableName } from './dynamo';
import type { Item } from './entity';
import { newId } from './ids';
import { keys } from './keys';
import { storeRegion } from './store-region';
import { FEED_CLOCK, TTL_ATTRIBUTE } from './table-schema';
import { FeedClockAhead } from './transact';
import type { WriteOp } from './write-ops';

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
}

/** An event as stored. */
export interface StoredEvent {
  pk: string;
  sk: string;
  id: string;
  type: string;
  occurredAt: number;
  resourceId: string;
  resource: Item | null;
}

/**
 * `op` (marked `feedOrdered`) stamped `stamp` and conditioned on the item's clock
 * (table-schema.ts `FEED_CLOCK`) being older.
 */
export const orderInFeed = (op: WriteOp, stamp: number): WriteOp => {
  const { Put, Update, Delete } = op.item;
  if (Put) return { ...op, item: { Put: { ...Put, Item: { ...Put.Item, [FEED_CLOCK]: stamp } } } };
  const clock = '(attribute_not_exists(#feedClock) OR #feedClock < :feedClock)';
  const conditioned = <
    T extends {
      ConditionExpression?: string;
      ExpressionAttributeNames?: Record<string, string>;
      ExpressionAttributeValues?: Item;
    },
  >(
    element: T,
  ): T => ({
    ...element,
    ConditionExpression: element.ConditionExpression
      ? `(${element.ConditionExpression}) AND ${clock}`
      : clock,
    ExpressionAttributeNames: { ...element.ExpressionAttributeNames, '#feedClock': FEED_CLOCK },
    ExpressionAttributeValues: { ...element.ExpressionAttributeValues, ':feedClock': stamp },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  });
  const onConditionFailed: WriteOp['onConditionFailed'] = (current) => {
    const clock = current?.[FEED_CLOCK];
    if (typeof clock === 'number' && clock >= stamp) return new FeedClockAhead(clock);
    return op.onConditionFailed?.(current) ?? 'stale';
  };
  if (Update) {
    const expression = Update.UpdateExpression ?? '';
    const set = /(^|\s)SET\s/.test(expression)
      ? expression.replace(/(^|\s)SET\s/, '$1SET #feedClock = :feedClock, ')
      : `SET #feedClock = :feedClock ${expression}`;
    return { ...op, onConditionFailed, item: { Update: { ...conditioned(Update), UpdateExpression: set } } };
  }
  if (Delete) return { ...op, onConditionFailed, item: { Delete: conditioned(Delete) } };
  throw new Error('only a Put, an Update or a Delete can be ordered in the feed');
};

/** The event items of a write stamped `stamp` (when its transaction is sent). */
export const eventWrites = (tenantId: string, drafts: readonly EventDraft[], stamp: number): WriteOp[] => {
  const retention = config().EVENT_RETENTION_DAYS * 86_400;
  return drafts.map((draft) => {
    const id = newId(stamp);
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
            // Several regions: where it was written (the tenant's home), so that only that
            // region's webhook fan-out takes it from its replica's stream (docs/regions.md).
            ...(config().REGIONS ? { region: storeRegion() } : {}),
            [TTL_ATTRIBUTE]: Math.floor(stamp / 1000) + retention,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
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
  const filter = range.types?.length
    ? {
        FilterExpression: `#type IN (${range.types.map((_, i) => `:t${i}`).join(', ')})`,
        types: Object.fromEntries(range.types.map((t, i) => [`:t${i}`, t])),
      }
    : undefined;
  if (range.after >= range.until) return { events, reached: range.after };
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        // `after` + NUL: strictly after it; `until` has no id part: strictly before that instant.
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :after AND :until',
        ExpressionAttributeValues: {
          ':pk': keys.events(tenantId),
          ':after': `${range.after}\u0000`,
          ':until': range.until,
          ...filter?.types,
        },
        ...(filter
          ? { FilterExpression: filter.FilterExpression, ExpressionAttributeNames: { '#type': 'type' } }
          : {}),
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
