import { config } from '../config';
import { conditionOf, queryOf } from './expression';
import { type ItemKey, keys, sortableTime } from './keys';
import { countEntries } from './page-count';
import { pageOf } from './page-read';
import type { PageSource } from './page-source';
import type { Page } from './pages';
import { queryAll } from './query-all';
import { TABLE_KEY, TTL_ATTRIBUTE } from './table-schema';
import { ABSENT, type WriteOp } from './write-ops';

/**
 * Delivery attempts of webhook subscriptions: one item per attempt of one event to one
 * subscription, in the subscription's own partition (`keys.deliveries`), ordered by when the
 * attempt was made (`keys.deliveryOrder`). DynamoDB's TTL deletes them EVENT_RETENTION_DAYS
 * after the attempt. Never the payload or the secret; of the receiver's answer, its first
 * RESPONSE_EXCERPT characters.
 */
export const RESPONSE_EXCERPT = 200;
/** Errors are short texts made by domain/webhook-delivery.ts; kept short whatever they are. */
const ERROR_CHARS = 200;

/** An attempt as stored and read back. */
export interface DeliveryAttempt {
  eventId: string;
  eventType: string;
  /** 1 for the first attempt of the event, then 2… */
  attempt: number;
  /** When it was made (ms). */
  at: number;
  ok: boolean;
  /** The receiver's HTTP status, null when it did not answer. */
  status: number | null;
  /** Why it failed, null when it did not. */
  error: string | null;
  /** The first RESPONSE_EXCERPT characters of what the receiver answered, null when nothing. */
  response: string | null;
  /** How long it took. */
  ms: number;
}

export const attemptItem = (tenantId: string, webhookId: string, a: DeliveryAttempt) => ({
  pk: keys.deliveries(tenantId, webhookId),
  sk: keys.deliveryOrder(a.at, a.eventId, a.attempt),
  eventId: a.eventId,
  eventType: a.eventType,
  attempt: a.attempt,
  at: a.at,
  ok: a.ok,
  status: a.status,
  error: a.error === null ? null : a.error.slice(0, ERROR_CHARS),
  response: a.response ? a.response.slice(0, RESPONSE_EXCERPT) : null,
  ms: a.ms,
  [TTL_ATTRIBUTE]: Math.floor(a.at / 1000) + config().EVENT_RETENTION_DAYS * 86_400,
});

/** The Put of one attempt (a retry of the same write cannot add it twice). */
export const attemptWrite = (tenantId: string, webhookId: string, a: DeliveryAttempt): WriteOp => ({
  item: {
    Put: { Item: attemptItem(tenantId, webhookId, a), ...conditionOf(ABSENT) },
  },
});

/**
 * A page of one subscription's attempts, newest first (the caller checked the subscription
 * exists in the tenant). No counter holds their number: it is counted with key-only COUNT
 * queries on the page a client starts from and carried in the cursors, as a ticket's notes are.
 */
export const listAttempts = async (
  tenantId: string,
  webhookId: string,
  query: { page: number; cursor?: string },
): Promise<Page<DeliveryAttempt>> => {
  const source: PageSource = {
    tenantId,
    resource: 'delivery',
    index: TABLE_KEY,
    partition: keys.deliveries(tenantId, webhookId),
    order: 'newest',
    consistent: true,
    count: { by: () => countEntries(source) },
    carryCount: true,
  };
  const page = await pageOf(source, query.page, query.cursor);
  return page as unknown as Page<DeliveryAttempt>;
};

/** The attempts made from `since` on (ms) of one subscription: their keys, events and answers' excerpts. */
export const attemptsSince = async (
  tenantId: string,
  webhookId: string,
  since: number,
): Promise<(ItemKey & Pick<DeliveryAttempt, 'eventId' | 'response'>)[]> =>
  (await queryAll({
    ...queryOf(
      { partition: ['pk', keys.deliveries(tenantId, webhookId)], sort: { ge: ['sk', sortableTime(since)] } },
      { project: ['pk', 'sk', 'eventId', 'response'] },
    ),
    ConsistentRead: true,
  })) as unknown as (ItemKey & Pick<DeliveryAttempt, 'eventId' | 'response'>)[];
