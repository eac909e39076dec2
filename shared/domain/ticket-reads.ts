import type { DocumentRecord, NoteRecord, ReplyRecord, TicketRecord } from '../store/entities/ticket';
import type { Item } from '../store/entity';
import type { EntityKind } from '../store/keys';
import { listTickets, readCollection, readRelated, type StoredTicket, ticketMissing } from '../store/tickets';

/**
 * Ticket reads: a detail (the collection in one Query, the records it points at in one
 * BatchGet) and a list page (one index Query, then one BatchGet for tickets and their records).
 */

/**
 * A detail carries at most this many replies (the most recent ones, oldest first), and stops
 * earlier if their text would pass REPLY_BYTES, so the response stays under Lambda's 6 MB.
 * `numberOfReplies` always counts them all.
 */
export const DETAIL_MAX_REPLIES = 1000;
const REPLY_BYTES = 4_500_000;

export const latestReplies = (replies: ReplyRecord[]): ReplyRecord[] => {
  const kept: ReplyRecord[] = [];
  let bytes = 0;
  for (let i = replies.length - 1; i >= 0 && kept.length < DETAIL_MAX_REPLIES; i--) {
    const reply = replies[i] as ReplyRecord;
    bytes += Buffer.byteLength(String(reply.text), 'utf8') + 200;
    if (bytes > REPLY_BYTES) break;
    kept.push(reply);
  }
  return kept.reverse();
};

/** Finds a record a ticket, reply or note points at (undefined when it was deleted since). */
export type Related = (kind: EntityKind, id: string) => Item | undefined;

export interface TicketParts {
  replies: ReplyRecord[];
  notes: NoteRecord[];
  /** Document records of the ticket and its replies, in the order they were added. */
  documents: DocumentRecord[];
}

/** Every record a set of tickets, replies and notes points at. */
export const relatedOf = (tickets: TicketRecord[], replies: ReplyRecord[] = [], notes: NoteRecord[] = []) => {
  const wanted: { kind: EntityKind; id: string }[] = [];
  const add = (kind: EntityKind, id: string | null | undefined) => {
    if (id) wanted.push({ kind, id });
  };
  for (const t of tickets) {
    add('CUSTOMER', t.openedBy);
    add('AGENT', t.assignedTo);
    for (const id of t.cc ?? []) add('AGENT', id);
    add('TICKET_TYPE', t.type);
    add('TICKET_AREA', t.area);
    add('TICKET_GROUP', t.group);
  }
  for (const r of replies) add('AGENT', r.replyFromOperator);
  for (const n of notes) {
    add('AGENT', n.insertBy);
    add('AGENT', n.assignedTo);
  }
  return wanted;
};

export const readTicketDetail = async (
  tenantId: string,
  id: string,
): Promise<{ ticket: StoredTicket; parts: TicketParts; related: Related }> => {
  const collection = await readCollection(tenantId, id);
  if (!collection.ticket) throw ticketMissing(id);
  const parts = {
    replies: latestReplies(collection.replies),
    notes: collection.notes,
    documents: collection.documents,
  };
  const related = await readRelated(tenantId, relatedOf([collection.ticket], parts.replies, parts.notes));
  return { ticket: collection.ticket, parts, related };
};

export const readTicketPage = async (tenantId: string, query: Parameters<typeof listTickets>[1]) => {
  const page = await listTickets(tenantId, query);
  const related = await readRelated(tenantId, relatedOf(page.items));
  return { ...page, related };
};
