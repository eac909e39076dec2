import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { getMany } from './batch-get';
import { slotKeys } from './delivery-slots';
import { db, tableName } from './dynamo';
import type { Stored, WebhookRecord } from './entities/records';
import { conditionOf, queryOf, updateOf } from './expression';
import { isId } from './ids';
import { inParallel } from './in-parallel';
import { type ItemKey, keys } from './keys';
import { storeRegion } from './store-region';
import { TTL_ATTRIBUTE } from './table-schema';
import { isConditionFailed, updateIf } from './update-if';
import { ABSENT, EXISTS, itemId, type WriteOp } from './write-ops';

/**
 * What each webhook subscription has not yet been delivered (docs/decisions.md, "Webhook
 * recovery"). The fan-out writes one item per event a subscription wants (enabled or not), in the
 * subscription's own partition (`keys.pendingDeliveries`) under the event's own sort key, so the
 * partition reads in feed order; the delivery removes it once a receiver took the event (or the
 * subscription stopped wanting it). What is left is exactly what is owed: the oldest item bounds
 * the feed cursor every delivery carries, and re-enabling a subscription sends them all again
 * (the redelivery below). DynamoDB's TTL removes an item with its event (EVENT_RETENTION_DAYS).
 */
export interface PendingDelivery {
  /** The event's sort key in the tenant's feed (its place). */
  eventSk: string;
  eventId: string;
  type: string;
  resourceId: string;
  /** Attempts made to deliver it (0 until the first). */
  attempts: number;
  /** When the first of the failing run of attempts was made; absent before any. */
  firstAttemptAt?: number;
  /** When the last attempt was made; absent before any. */
  lastAttemptAt?: number;
  /** The redelivery (its version) that sent it again; absent while only the fan-out's message exists. */
  requeue?: number;
}

const retentionEpoch = (occurredAt: number) =>
  Math.floor(occurredAt / 1000) + config().EVENT_RETENTION_DAYS * 86_400;

const pendingKey = (tenantId: string, webhookId: string, eventSk: string): ItemKey => ({
  pk: keys.pendingDeliveries(tenantId, webhookId),
  sk: eventSk,
});

const asPending = (item: Record<string, unknown>): PendingDelivery => ({
  eventSk: String(item.sk),
  eventId: String(item.eventId),
  type: String(item.type),
  resourceId: String(item.resourceId),
  attempts: typeof item.attempts === 'number' ? item.attempts : 0,
  ...(typeof item.firstAttemptAt === 'number' ? { firstAttemptAt: item.firstAttemptAt } : {}),
  ...(typeof item.lastAttemptAt === 'number' ? { lastAttemptAt: item.lastAttemptAt } : {}),
  ...(typeof item.requeue === 'number' ? { requeue: item.requeue } : {}),
});

/** How many writes of pending items the fan-out keeps in flight at once. */
export const PENDING_CONCURRENCY = 16;

/**
 * Records that `webhookId` is owed each event (before its message is queued). Only where there is
 * none: a stream batch handed again never resets the attempts of one already being retried.
 */
export const markPending = (
  tenantId: string,
  entries: readonly {
    webhookId: string;
    event: { sk: string; id: string; type: string; resourceId: string; occurredAt: number };
  }[],
): Promise<void> =>
  inParallel(entries, PENDING_CONCURRENCY, async ({ webhookId, event }) => {
    try {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...pendingKey(tenantId, webhookId, event.sk),
            eventId: event.id,
            type: event.type,
            resourceId: event.resourceId,
            attempts: 0,
            [TTL_ATTRIBUTE]: retentionEpoch(event.occurredAt),
          },
          ...conditionOf(ABSENT),
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  });

/**
 * Everything a delivery decides on, in one consistent BatchGetItem: the subscription as it is now,
 * its pending item of the event, its redelivery, and the tenant's `slots` delivery slots
 * (store/delivery-slots.ts).
 */
export const readDeliveryState = async (
  tenantId: string,
  webhookId: string,
  eventSk: string,
  slots: number,
): Promise<{
  subscription?: Stored<WebhookRecord>;
  pending?: PendingDelivery;
  redelivery?: Redelivery;
  slotItems: Record<string, unknown>[];
}> => {
  const subscription = keys.record(tenantId, 'WEBHOOK', webhookId);
  const own = pendingKey(tenantId, webhookId, eventSk);
  const state = keys.redelivery(tenantId, webhookId);
  const slotsOf = slotKeys(tenantId, slots);
  const found = isId(webhookId)
    ? await getMany([subscription, own, state, ...slotsOf], { consistent: true })
    : new Map<string, Record<string, unknown>>();
  const item = found.get(itemId(own));
  const redelivery = found.get(itemId(state));
  const record = found.get(itemId(subscription));
  return {
    ...(record ? { subscription: record as unknown as Stored<WebhookRecord> } : {}),
    ...(item ? { pending: asPending(item) } : {}),
    ...(redelivery ? { redelivery: asRedelivery(redelivery) } : {}),
    slotItems: slotsOf.flatMap((k) => {
      const slot = found.get(itemId(k));
      return slot ? [slot] : [];
    }),
  };
};

/**
 * The place in the feed of the oldest event the subscription is owed besides `eventSk`, or
 * undefined when there is none (one consistent Query of two keys).
 */
export const oldestPendingBesides = async (
  tenantId: string,
  webhookId: string,
  eventSk: string,
): Promise<string | undefined> => {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      ...queryOf({ partition: ['pk', keys.pendingDeliveries(tenantId, webhookId)] }, { project: ['sk'] }),
      ConsistentRead: true,
      Limit: 2,
    }),
  );
  return (out.Items ?? []).map((i) => String(i.sk)).find((sk) => sk !== eventSk);
};

/** The event was delivered (or is no longer wanted): the subscription is not owed it any more. */
export const settlePending = async (tenantId: string, webhookId: string, eventSk: string): Promise<void> => {
  await db().send(
    new DeleteCommand({ TableName: tableName(), Key: pendingKey(tenantId, webhookId, eventSk) }),
  );
};

/** Counts a failed attempt on the pending item (where the next one's number and backoff come from). */
export const recordPendingFailure = async (
  tenantId: string,
  webhookId: string,
  eventSk: string,
  run: { attempts: number; firstAttemptAt: number; at: number },
): Promise<void> => {
  // Not applied when another copy of the delivery settled it meanwhile: nothing is owed any more.
  await updateIf({
    Key: pendingKey(tenantId, webhookId, eventSk),
    ...updateOf(
      { set: { attempts: run.attempts, firstAttemptAt: run.firstAttemptAt, lastAttemptAt: run.at } },
      EXISTS,
    ),
  });
};

/** Up to `limit` of what the subscription is owed after `after` (a feed position), oldest first. */
export const pendingAfter = async (
  tenantId: string,
  webhookId: string,
  after: string,
  limit: number,
): Promise<PendingDelivery[]> => {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      ...queryOf({
        partition: ['pk', keys.pendingDeliveries(tenantId, webhookId)],
        ...(after ? { sort: { gt: ['sk', after] } } : {}),
      }),
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map(asPending);
};

/**
 * Marks a pending item as sent again by redelivery `version` (unless a later one did already);
 * answers false when it is gone (delivered meanwhile) or belongs to a later redelivery.
 */
export const markRequeued = async (
  tenantId: string,
  webhookId: string,
  eventSk: string,
  version: number,
): Promise<boolean> =>
  updateIf({
    Key: pendingKey(tenantId, webhookId, eventSk),
    ...updateOf(
      { set: { requeue: version } },
      { and: [EXISTS, { or: [{ missing: 'requeue' }, { le: ['requeue', version] }] }] },
    ),
  });

/**
 * A redelivery: when a subscription that was not enabled is enabled again, everything it is owed is
 * sent again, oldest first, by the fan-out function, one page at a time (`after`: how far it got).
 * The item is written by the enabling update itself (`redeliveryStart`, in its transaction), and
 * each step rewrites it, so the table's stream drives the work to its end through any crash.
 */
export interface Redelivery {
  webhookId: string;
  tenantId: string;
  /** The subscription's version the enabling update wrote: copies carry it. */
  version: number;
  /** The feed position sent so far ('' at the start). */
  after: string;
  done: boolean;
}

/** The attribute (on redelivery items only) the stream's filter looks for. */
export const REDELIVERY_MARK = 'redeliverOf';

const asRedelivery = (item: Record<string, unknown>): Redelivery => ({
  webhookId: String(item[REDELIVERY_MARK]),
  tenantId: String(item.tenantId),
  version: Number(item.version),
  after: String(item.after ?? ''),
  done: item.done === true,
});

/** Reads a redelivery item from a stream image (undefined when the image is not one). */
export const redeliveryOf = (image: Record<string, unknown>): Redelivery | undefined =>
  typeof image[REDELIVERY_MARK] === 'string' && typeof image.tenantId === 'string'
    ? asRedelivery(image)
    : undefined;

/** The redelivery an enabling update starts, written in its transaction. */
export const redeliveryStart = (tenantId: string, webhookId: string, version: number): WriteOp => ({
  item: {
    Put: {
      Item: {
        ...keys.redelivery(tenantId, webhookId),
        [REDELIVERY_MARK]: webhookId,
        tenantId,
        version,
        after: '',
        done: false,
        // Several regions: only the region that wrote it (the tenant's home) works it off.
        ...(config().REGIONS ? { region: storeRegion() } : {}),
      },
    },
  },
});

/**
 * Records how far redelivery `version` got (`done` when it sent everything); false when a later
 * redelivery replaced it (that one starts from the beginning).
 */
export const advanceRedelivery = (
  r: Pick<Redelivery, 'tenantId' | 'webhookId' | 'version'>,
  after: string,
  done: boolean,
): Promise<boolean> =>
  updateIf({
    Key: keys.redelivery(r.tenantId, r.webhookId),
    ...updateOf(
      {
        set: {
          after,
          done,
          // A finished redelivery is kept as long as the events it could concern.
          ...(done ? { [TTL_ATTRIBUTE]: retentionEpoch(Date.now()) } : {}),
        },
      },
      { eq: ['version', r.version] },
    ),
  });
