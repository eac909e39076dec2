import type { DocumentRecord, NoteRecord, ReplyRecord, TicketRecord } from '../store/entities/ticket';
import type { EntityKind } from '../store/keys';
import { PAGE_BYTES } from '../store/pages';
import {
  listDocuments,
  listNotes,
  listReplies,
  listTickets,
  type Related,
  readDetailItems,
  readRelated,
  type StoredTicket,
  ticketMissing,
} from '../store/tickets';

/**
 * Ticket reads: a detail (its collection in one Query for most tickets, the records it points at
 * in one BatchGet), a list page (one index Query, then one BatchGet for tickets and their
 * records), and pages of a ticket's replies or notes.
 */

/**
 * A detail reads at most this many of the most recent replies, and as many notes; the response
 * then shows those that fit its byte budget (http/views/ticket.ts), and says when it left some
 * out. `numberOfReplies` always counts them all; `GET /ticket/{id}/replies` and `/notes` page
 * through every one.
 */
export const DETAIL_MAX_REPLIES = 1000;
export const DETAIL_MAX_NOTES = 1000;

export interface TicketParts {
  replies: ReplyRecord[];
  notes: NoteRecord[];
  /** Document records of the ticket and its replies, in the order they were added. */
  documents: DocumentRecord[];
}

/** A detail's parts, and whether the replies and notes read are all there are. */
export interface DetailParts extends TicketParts {
  allReplies: boolean;
  allNotes: boolean;
}

/** Every record a set of tickets, replies and notes points at. */
export const relatedOf = (
  tickets: Partial<TicketRecord>[],
  replies: ReplyRecord[] = [],
  notes: NoteRecord[] = [],
) => {
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
): Promise<{ ticket: StoredTicket; parts: DetailParts; related: Related }> => {
  const { ticket, replies, notes, documents } = await readDetailItems(tenantId, id, {
    count: Math.max(DETAIL_MAX_REPLIES, DETAIL_MAX_NOTES),
    bytes: PAGE_BYTES,
  });
  if (!ticket) throw ticketMissing(id);
  const parts = {
    replies: replies.items.slice(-DETAIL_MAX_REPLIES),
    notes: notes.items.slice(-DETAIL_MAX_NOTES),
    documents,
    allReplies: replies.complete && replies.items.length <= DETAIL_MAX_REPLIES,
    allNotes: notes.complete && notes.items.length <= DETAIL_MAX_NOTES,
  };
  const related = await readRelated(tenantId, relatedOf([ticket], parts.replies, parts.notes));
  return { ticket, parts, related };
};

/** A page of tickets with the records they point at: two requests (store/tickets.ts `listTickets`). */
export const readTicketPage = (tenantId: string, query: Parameters<typeof listTickets>[1]) =>
  listTickets(tenantId, query, (tickets) => relatedOf(tickets));

type ChildQuery = { page: number; cursor?: string };

/** A page of a ticket's replies with their documents and authors. */
export const readReplyPage = async (tenantId: string, ticketId: string, query: ChildQuery) => {
  const { page, documents } = await listReplies(tenantId, ticketId, query);
  const related = await readRelated(tenantId, relatedOf([], page.items));
  return { ...page, documents, related };
};

/** A page of a ticket's notes with the agents they name. */
export const readNotePage = async (tenantId: string, ticketId: string, query: ChildQuery) => {
  const page = await listNotes(tenantId, ticketId, query);
  const related = await readRelated(tenantId, relatedOf([], [], page.items));
  return { ...page, related };
};

/** A page of a ticket's own documents. */
export const readDocumentPage = (tenantId: string, ticketId: string, query: ChildQuery) =>
  listDocuments(tenantId, ticketId, query);
