import {
  type DetailHead,
  finishDetailItems,
  readDetailHead,
  readDetailItems,
  type TicketDetailItems,
  wholeDetailItems,
} from '../store/detail-items';
import type { DocumentRecord, NoteRecord, ReplyRecord, TicketRecord } from '../store/entities/ticket';
import type { EntityKind } from '../store/keys';
import { PAGE_BYTES } from '../store/pages';
import { listTicketHeads } from '../store/ticket-detail-page';
import { listDocuments, listNotes, listReplies, listTickets } from '../store/ticket-pages';
import { readRelated } from '../store/ticket-reads';
import { type Related, type StoredTicket, ticketKey, ticketMissing } from '../store/tickets';
import { listTrash } from '../store/trash-pages';

/**
 * Ticket reads: a detail (its collection in one Query for most tickets, the records it points at
 * in one BatchGet), a list page of detail records (the detail's reads for every ticket of the
 * page, in parallel), a summary page (one index Query, then one BatchGet for tickets and their
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

/**
 * Every record a set of tickets, replies and notes points at, each once: replies and notes name
 * the same few agents again and again (the bench's detail has up to 35 pointers to 5 records), and
 * every one named would be a key built and looked up.
 */
export const relatedOf = (
  tickets: Partial<TicketRecord>[],
  replies: ReplyRecord[] = [],
  notes: NoteRecord[] = [],
) => {
  const wanted: { kind: EntityKind; id: string }[] = [];
  const seen = new Map<EntityKind, Set<string>>();
  const add = (kind: EntityKind, id: string | null | undefined) => {
    if (!id) return;
    let ids = seen.get(kind);
    if (!ids) {
      ids = new Set();
      seen.set(kind, ids);
    }
    if (ids.has(id)) return;
    ids.add(id);
    wanted.push({ kind, id });
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

/** How much of a conversation a detail reads (store/detail-items.ts). */
const DETAIL_LIMIT = { count: Math.max(DETAIL_MAX_REPLIES, DETAIL_MAX_NOTES), bytes: PAGE_BYTES };

/** A ticket as its detail shows it: the ticket, its parts, and the records they point at. */
export interface TicketDetail {
  ticket: StoredTicket;
  parts: DetailParts;
  related: Related;
}

/** What a detail shows of what was read: the most recent replies and notes, and whether they are all. */
const partsOf = ({ replies, notes, documents }: TicketDetailItems): DetailParts => ({
  replies: replies.items.slice(-DETAIL_MAX_REPLIES),
  notes: notes.items.slice(-DETAIL_MAX_NOTES),
  documents,
  allReplies: replies.complete && replies.items.length <= DETAIL_MAX_REPLIES,
  allNotes: notes.complete && notes.items.length <= DETAIL_MAX_NOTES,
});

export const readTicketDetail = async (tenantId: string, id: string): Promise<TicketDetail> => {
  const items = await readDetailItems(tenantId, id, DETAIL_LIMIT);
  const { ticket } = items;
  if (!ticket) throw ticketMissing(id);
  const parts = partsOf(items);
  const related = await readRelated(tenantId, relatedOf([ticket], parts.replies, parts.notes));
  return { ticket, parts, related };
};

/** A page of tickets with the records they point at: two requests (store/ticket-pages.ts `listTickets`). */
export const readTicketPage = (tenantId: string, query: Parameters<typeof listTickets>[1]) =>
  listTickets(tenantId, query, (tickets) => relatedOf(tickets));

/** A page of the trash with the records its tickets point at: two requests (store/trash-pages.ts). */
export const readTrashPage = (tenantId: string, query: { page: number; cursor?: string }) =>
  listTrash(tenantId, query, (tickets) => relatedOf(tickets));

/**
 * A head read for a page of details, with what its detail shows when the head read all of it (a
 * ticket others were merged into reads theirs too: finished as the page reaches it).
 */
const withParts = (head: DetailHead | undefined) => {
  const items = head && !head.ticket.merged?.length ? wholeDetailItems(head, DETAIL_LIMIT) : undefined;
  return head && { head, parts: items && partsOf(items) };
};

/** What the heads' tickets, and the replies and notes they read whole, point at: each record once. */
const relatedOfHeads = (heads: ReturnType<typeof withParts>[]) => {
  const read = heads.filter((h) => h !== undefined);
  return relatedOf(
    read.map((h) => h.head.ticket),
    read.flatMap((h) => h.parts?.replies ?? []),
    read.flatMap((h) => h.parts?.notes ?? []),
  );
};

/** A record of a page of details: its detail, read with the page or finished when the page reaches it. */
export type DetailRecord = () => Promise<TicketDetail>;

/**
 * A page of tickets as their details (docs/decisions.md, "Lists"): every ticket's collection read
 * as its detail reads it, all at once, with the page (store/ticket-detail-page.ts), then one
 * BatchGet of what the tickets and their replies and notes point at that the page did not read
 * yet (none when the page's own read them all). A ticket whose collection passes 1 MB is finished
 * (the rest of its replies, notes and documents, and their authors) only if the page reaches it:
 * a page ends at its byte budget, and the records after it are not read further.
 */
export const readTicketDetailPage = async (tenantId: string, query: Parameters<typeof listTickets>[1]) => {
  const page = await listTicketHeads(tenantId, query, (tickets) => relatedOf(tickets));
  const heads = page.items.map(withParts);
  const related = await readMore(tenantId, page.related, relatedOfHeads(heads));
  return {
    ...page,
    items: heads.map((h) => h && detailRecord(tenantId, h.head, h.parts, related)),
  };
};

/**
 * Tickets by id as their details, in the order given (undefined: no such ticket now): every
 * collection read at once, then one BatchGet of what they point at; a ticket whose collection
 * passes 1 MB is finished only if the page reaches it (as `readTicketDetailPage`). For the records
 * a search found (`GET /ticket/search`).
 */
export const readTicketDetails = async (
  tenantId: string,
  ids: readonly string[],
): Promise<(DetailRecord | undefined)[]> => {
  const heads = (await Promise.all(ids.map((id) => readDetailHead(ticketKey(tenantId, id).pk)))).map(
    withParts,
  );
  const wanted = relatedOfHeads(heads);
  const related = wanted.length ? await readRelated(tenantId, wanted) : () => undefined;
  return heads.map((h) => h && detailRecord(tenantId, h.head, h.parts, related));
};

const detailRecord = (
  tenantId: string,
  head: DetailHead,
  parts: DetailParts | undefined,
  related: Related,
): DetailRecord => {
  const { ticket } = head;
  if (parts) return async () => ({ ticket, parts, related });
  return async () => {
    const finished = partsOf(await finishDetailItems(tenantId, head, DETAIL_LIMIT));
    const more = await readMore(tenantId, related, relatedOf([], finished.replies, finished.notes));
    return { ticket, parts: finished, related: more };
  };
};

/** `known`, and the records of `wanted` it does not hold, read in one BatchGet (none when it holds them all). */
const readMore = async (
  tenantId: string,
  known: Related,
  wanted: { kind: EntityKind; id: string }[],
): Promise<Related> => {
  const missing = wanted.filter((w) => known(w.kind, w.id) === undefined);
  if (missing.length === 0) return known;
  const more = await readRelated(tenantId, missing);
  return (kind, id) => known(kind, id) ?? more(kind, id);
};

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
