import { derivedWrites } from './derived-writes';
import {
  type DocumentRecord,
  documentEntity,
  type NoteRecord,
  noteEntity,
  type ReplyRecord,
  replyEntity,
  type TicketRecord,
  ticketEntity,
} from './entities/ticket';
import type { Item } from './entity';
import { itemOf } from './entity-item';
import { type Cond, conditionOf, updateOf } from './expression';
import { deleteWrite, preconditionOf, updateWrite } from './item-changes';
import { FEED_CLOCK, SEARCH_INDEXES } from './table-schema';
import {
  NOT_MERGED,
  type StoredTicket,
  ticketFields,
  ticketItem,
  ticketKey,
  ticketMerged,
  ticketMissing,
} from './tickets';
import { ABSENT, EXISTS, FIRST_VERSION, type WriteOp } from './write-ops';
/**
 * The writes of a ticket as transaction elements: its creation, change and deletion with their
 * tags, counts and reference counts, the touch a reply or note gives it, and its replies, notes
 * and documents. Orchestration of a write (files, idempotency, retries) is domain/tickets.ts.
 */
/** A new ticket (or one back from the trash, at its next version) with its tags, counts and reference counts. */
export const createTicketWrites = (
  tenantId: string,
  ticket: TicketRecord,
  version = FIRST_VERSION,
): WriteOp[] => [
  {
    item: { Put: { Item: ticketItem(tenantId, ticket, version), ...conditionOf(ABSENT) } },
    feedOrdered: true,
  },
  ...derivedWrites(ticketEntity, tenantId, ticket.id, ticket),
];

/**
 * Changes the ticket read as `current` into `after`: only what differs is written, replies sent
 * with the update are added to `numberOfReplies` (never overwriting concurrent replies), and the
 * write is conditioned only on what it moves counters, tags and references from.
 */
export const updateTicketWrites = (
  tenantId: string,
  current: StoredTicket,
  after: TicketRecord,
  options: { ifMatch?: readonly number[]; addedReplies: number; condition?: Cond },
): WriteOp[] => [
  {
    ...updateWrite(ticketEntity, tenantId, current as unknown as Item, after, {
      ...preconditionOf(ticketEntity.label, current.id, options.ifMatch),
      add: { numberOfReplies: options.addedReplies },
      keep: [FEED_CLOCK],
      ...(options.condition ? { condition: options.condition } : {}),
    }),
    feedOrdered: true,
  },
  ...derivedWrites(ticketEntity, tenantId, current.id, after, ticketFields(current)),
];

/** Removes the ticket, its tags, counts and reference counts (its other children are swept after). */
export const deleteTicketWrites = (
  tenantId: string,
  current: StoredTicket,
  ifMatch?: readonly number[],
): WriteOp[] => [
  {
    ...deleteWrite(ticketEntity, tenantId, current as unknown as Item, {
      ...preconditionOf(ticketEntity.label, current.id, ifMatch),
      condition: NOT_MERGED,
    }),
    feedOrdered: true,
  },
  ...derivedWrites(ticketEntity, tenantId, current.id, undefined, ticketFields(current)),
];

/**
 * The ticket-side half of a reply or note, without reading the ticket: move `managedDate` (and
 * its index entry), bump the version, set the fields the caller names and add to its counts;
 * refused (409) when the ticket was merged into another.
 */
export const touchTicketWrite = (
  tenantId: string,
  id: string,
  now: number,
  extra: { set?: Partial<TicketRecord>; add?: Partial<Record<'numberOfReplies', number>> } = {},
  /** The versions `If-Match` names (none: any); a malformed header names none and matches nothing. */
  ifMatch?: readonly number[],
): WriteOp => {
  const managed = ticketEntity.ranges?.managedDate;
  if (!managed) throw new Error('tickets are ordered by managedDate');
  const pre = preconditionOf(ticketEntity.label, id, ifMatch);
  if (ifMatch?.length === 0) throw pre.stale();
  return {
    item: {
      Update: {
        Key: ticketKey(tenantId, id),
        // managedDate is read from its order key (an older item's copy of it goes).
        ...updateOf(
          {
            set: {
              [SEARCH_INDEXES[managed.slot].sort]: managed.order({ id, managedDate: now } as TicketRecord),
              ...extra.set,
            },
            remove: ['managedDate'],
            add: { version: 1, ...extra.add },
          },
          { and: [EXISTS, NOT_MERGED, ifMatch ? { in: ['version', ifMatch] } : undefined] },
        ),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    onConditionFailed: (old) => {
      if (!old) return ticketMissing(id);
      if (old.mergedInto) return ticketMerged(id, old.mergedInto);
      return pre.stale();
    },
    feedOrdered: true,
  };
};

/** A reply item and the check that its author is an agent of the tenant; `path` prefixes error paths. */
export const replyWrites = (tenantId: string, reply: ReplyRecord, path = ''): WriteOp[] => [
  {
    item: {
      Put: { Item: itemOf(replyEntity, tenantId, reply), ...conditionOf(ABSENT) },
    },
  },
  ...derivedWrites(replyEntity, tenantId, reply.id, reply, undefined, path),
];

export const noteWrites = (tenantId: string, note: NoteRecord): WriteOp[] => [
  {
    item: {
      Put: { Item: itemOf(noteEntity, tenantId, note), ...conditionOf(ABSENT) },
    },
  },
  ...derivedWrites(noteEntity, tenantId, note.id, note),
];

export const documentWrites = (tenantId: string, documents: DocumentRecord[]): WriteOp[] =>
  documents.map((doc) => ({
    item: {
      Put: { Item: itemOf(documentEntity, tenantId, doc), ...conditionOf(ABSENT) },
    },
  }));

/**
 * Changes the ticket read as `current` into `after` only if nothing else changed it since (its
 * version; else the write re-reads): a merge or unmerge moves counts, tags and conversations
 * between tickets, so it builds on exactly what it read.
 */
export const exactUpdateWrites = (
  tenantId: string,
  current: StoredTicket,
  after: TicketRecord,
  addedReplies: number,
): WriteOp[] =>
  updateTicketWrites(tenantId, current, after, {
    addedReplies,
    condition: { eq: ['version', current.version] },
  });

/**
 * A ticket merged into `targetId` is let go when that ticket is purged: it stays as it is
 * (closed), no longer merged, its conversation its own again.
 */
export const releaseWrite = (tenantId: string, sourceId: string, targetId: string): WriteOp => ({
  item: {
    Update: {
      Key: ticketKey(tenantId, sourceId),
      ...updateOf(
        { remove: ['mergedInto', 'mergedAt', 'premerge'], add: { version: 1 } },
        { eq: ['mergedInto', targetId] },
      ),
    },
  },
  onConditionFailed: () => new Error(`Ticket ${sourceId} is no longer merged into ${targetId}`),
});
