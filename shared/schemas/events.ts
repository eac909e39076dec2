import * as z from 'zod/mini';
import { cursorText, pageNumber } from './list-query';

/**
 * The change feed's event types: `<resource>.<what happened>`. Records are created, updated
 * and deleted; a ticket also gets replies, notes and attachments, and a deleted one is in the
 * trash until it is restored or purged, and is merged into another ticket or unmerged. An import
 * job reports that it finished (`import.completed`); the records it wrote have their own events,
 * marked with its id.
 */
const RECORDS = ['customer', 'agent', 'ticket_type', 'ticket_area', 'ticket_group', 'ticket'] as const;
export const EVENT_TYPES = [
  ...RECORDS.flatMap((r) => [`${r}.created`, `${r}.updated`, `${r}.deleted`] as const),
  'ticket.replied',
  'ticket.note_added',
  'ticket.attachment_added',
  'ticket.restored',
  'ticket.purged',
  'ticket.merged',
  'ticket.unmerged',
  'customer.erased',
  'import.completed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const MS = /^\d{1,16}$/;

/**
 * `GET /event/list`: `cursor` (from nextQuery), or `since` (ms: events from that instant on),
 * `type` (one or more types, comma-separated), `page` (carried by nextQuery).
 */
export const eventListQuery = z.lazy(() =>
  z.strictObject({
    page: z._default(pageNumber, 1),
    cursor: z.optional(cursorText),
    since: z.optional(
      z.pipe(
        z
          .string()
          .check(
            z.refine(
              (s) => MS.test(s) && Number.isSafeInteger(Number(s)),
              'since must be a millisecond timestamp',
            ),
          ),
        z.transform(Number),
      ),
    ),
    type: z.optional(
      z.pipe(
        z
          .string()
          .check(
            z.refine(
              (s) => s.split(',').every((t) => (EVENT_TYPES as readonly string[]).includes(t)),
              `type must be one or more of ${EVENT_TYPES.join(', ')}, comma-separated`,
            ),
          ),
        z.transform((s) => [...new Set(s.split(','))].sort() as EventType[]),
      ),
    ),
  }),
);
export type EventListQuery = z.output<typeof eventListQuery>;
