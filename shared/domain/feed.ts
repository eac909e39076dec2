import { config } from '../config';
import type { EventListQuery } from '../schemas/events';
import { decodeCursor, encodeCursor } from '../store/cursor';
import type { NoteRecord, ReplyRecord, TicketRecord } from '../store/entities/ticket';
import { CursorExpired, InvalidCursor } from '../store/errors';
import { readEvent, readEvents, type StoredEvent } from '../store/events';
import { keys, sortableTime, timeOf } from '../store/keys';
import { RECORDS_PER_PAGE } from '../store/pages';
import { readRelated } from '../store/ticket-reads';
import type { Related } from '../store/tickets';
import { relatedOf } from './ticket-reads';

/**
 * Reading the change feed (`GET /event/list`): a tenant's events oldest first, from a cursor, a
 * time (`since`) or the oldest kept, up to the feed's frontier: EVENT_FEED_LAG_MS behind the
 * present, so that an event whose write was sent before a later one's but committed after it
 * is already there when a reader passes its place (docs/decisions.md, "Events"). Two requests a
 * page: the Query of the events, one BatchGetItem of the records their resources point at.
 */
export interface FeedPage {
  events: StoredEvent[];
  related: Related;
  /** Where reading goes on when the response carries the first `kept` events (all: where the read stopped). */
  next: (kept: number) => Promise<{ page: number; cursor: string }>;
}

const DAY = 86_400_000;

export const readFeed = async (
  tenantId: string,
  query: EventListQuery,
  now = Date.now(),
): Promise<FeedPage> => {
  const { EVENT_RETENTION_DAYS, EVENT_FEED_LAG_MS } = config();
  const types = query.type ?? [];
  const binding = { t: tenantId, r: 'EVENT', f: types.join(',') };
  const cursor = query.cursor ? await decodeCursor(query.cursor, binding) : undefined;
  if (cursor && cursor.p !== query.page)
    throw new InvalidCursor('The page parameter does not match the cursor.');
  const oldest = now - EVENT_RETENTION_DAYS * DAY;
  if (cursor && timeOf(cursor.k[0]) < oldest)
    throw new CursorExpired(
      `This cursor points ${EVENT_RETENTION_DAYS} days or more back: the feed no longer has those events. Start again with ?since=.`,
    );
  // Events past their retention may wait for DynamoDB's TTL a while: never served.
  const floor = sortableTime(oldest);
  const start = cursor ? cursor.k[0] : query.since !== undefined ? sortableTime(query.since) : '';
  // Positions are strings: the later of the two.
  const after = [start, floor].sort()[1] as string;
  const until = sortableTime(now - EVENT_FEED_LAG_MS);
  const { events, reached } = await readEvents(tenantId, { after, until, limit: RECORDS_PER_PAGE, types });
  const related = await readRelated(tenantId, relatedOf(...resourcesOf(events)));
  return {
    events,
    related,
    next: (kept) =>
      cursorAt(
        binding,
        query.page + 1,
        kept < events.length ? (events[kept - 1] as StoredEvent).sk : reached,
      ),
  };
};

/** The feed's cursor that resumes after position `at` (exclusive), as the `page`-th page. */
const cursorAt = async (binding: { t: string; r: string; f: string }, page: number, at: string) => {
  const position: [string, string, string] = [at, keys.events(binding.t), at];
  return { page, cursor: await encodeCursor({ ...binding, p: page, d: 'n', k: position }) };
};

/**
 * One event with the records its view expands, and the cursor of the whole feed (no type filter)
 * reading on after feed position `resumeAfter`: what a webhook delivery carries
 * (domain/webhook-dispatch.ts `resumePosition`: before anything its subscription is still owed),
 * so a receiver that missed deliveries reads them from `GET /event/list`. Undefined once the event
 * is past its retention.
 */
export const readFeedEvent = async (
  tenantId: string,
  sk: string,
  resumeAfter: string,
): Promise<{ event: StoredEvent; related: Related; next: { page: number; cursor: string } } | undefined> => {
  const event = await readEvent(tenantId, sk);
  if (!event) return undefined;
  const [related, next] = await Promise.all([
    readRelated(tenantId, relatedOf(...resourcesOf([event]))),
    cursorAt({ t: tenantId, r: 'EVENT', f: '' }, 2, resumeAfter),
  ]);
  return { event, related, next };
};

/** The tickets, replies and notes the events carry (what their views expand). */
const resourcesOf = (events: StoredEvent[]): [TicketRecord[], ReplyRecord[], NoteRecord[]] => {
  const of = <T>(...types: string[]) =>
    events.filter((e) => e.resource && types.includes(e.type)).map((e) => e.resource as unknown as T);
  return [
    of<TicketRecord>(
      'ticket.created',
      'ticket.updated',
      'ticket.restored',
      'ticket.merged',
      'ticket.unmerged',
    ),
    of<ReplyRecord>('ticket.replied'),
    of<NoteRecord>('ticket.note_added'),
  ];
};
