import type { DetailParts, TicketParts } from '../../domain/ticket-reads';
import { SOURCE_LABELS, STATUS_LABELS } from '../../schemas/ticket';
import type {
  DocumentView,
  NoteView,
  ReplyView,
  TicketDetailView,
  TicketSummaryView,
} from '../../schemas/views';
import type { DocumentRecord, NoteRecord, ReplyRecord, TicketRecord } from '../../store/entities/ticket';
import type { Item } from '../../store/entity';
import { PAGE_BYTES } from '../../store/pages';
import type { Related } from '../../store/tickets';
import { arrayBytes, fitCount, payloadBytes, shareRoom } from '../byte-budget';
import type { Compat } from '../compat';
import { RECORD_VIEWS } from './records';

/**
 * The ticket as the API returns it: every field of the seed's Ticket table, references
 * expanded into the objects they name (customer, agents, lookups with labels). Each view is
 * typed by its response schema (shared/schemas/views.ts).
 */
type RecordView<K extends keyof typeof RECORD_VIEWS> = ReturnType<(typeof RECORD_VIEWS)[K]>;

const expand = <K extends keyof typeof RECORD_VIEWS>(
  related: Related,
  kind: K,
  id: string | null | undefined,
  baseUrl: string,
): RecordView<K> | null => {
  if (!id) return null;
  const item = related(kind, id);
  // A reply or note author may have been deleted since; tickets' own references cannot be.
  const view = RECORD_VIEWS[kind] as unknown as (item: Item, baseUrl: string) => RecordView<K>;
  return item ? view(item, baseUrl) : null;
};

/** Documents come without their bytes, with an address that downloads them. */
export const documentView = (doc: DocumentRecord, baseUrl: string): DocumentView => ({
  id: doc.id,
  documentName: doc.documentName,
  documentType: doc.documentType,
  size: doc.size,
  checksum: doc.checksum,
  downloadUrl: `${baseUrl}/ticket/${doc.ticketId}/attachment/${doc.id}`,
});

const documentsOf = (parts: Pick<TicketParts, 'documents'>, owner: string | null, baseUrl: string) =>
  parts.documents.filter((d) => (d.replyId ?? null) === owner).map((d) => documentView(d, baseUrl));

/** A reply with its documents (those of `parts.documents` attached to it). */
export const replyView = (
  reply: ReplyRecord,
  parts: Pick<TicketParts, 'documents'>,
  related: Related,
  baseUrl: string,
): ReplyView => ({
  id: reply.id,
  text: reply.text,
  replyDate: reply.replyDate,
  replyFromOperator: expand(related, 'AGENT', reply.replyFromOperator, baseUrl),
  attachedDocuments: documentsOf(parts, reply.id, baseUrl),
});

export const noteView = (note: NoteRecord, related: Related, baseUrl: string): NoteView => ({
  id: note.id,
  note: note.note,
  insertBy: expand(related, 'AGENT', note.insertBy, baseUrl),
  assignedTo: expand(related, 'AGENT', note.assignedTo, baseUrl),
  date: note.date,
  remindMe: note.remindMe ?? null,
});

/** What of the request's compatibility profile a ticket view follows: the status's machine name. */
export type TicketNames = Pick<Compat, 'statusName'>;

/** What a ticket read with its parts adds to the summary (the detail's conversation and files). */
type Conversation = Pick<TicketDetailView, 'replies' | 'attachedDocuments' | 'ticketNotes'>;

/**
 * A summary carries every field except the conversation and the files (`replies`,
 * `ticketNotes`, `attachedDocuments`): the records of `?view=summary` list pages and the tickets
 * of the change feed; `numberOfReplies` still counts the replies. With `parts`, those three are
 * added in the seed's order (the detail). The seed's fields come first, then ours (`externalId1`).
 */
export function ticketView(
  t: TicketRecord,
  related: Related,
  baseUrl: string,
  names: TicketNames,
): TicketSummaryView;
export function ticketView(
  t: TicketRecord,
  related: Related,
  baseUrl: string,
  names: TicketNames,
  parts: TicketParts,
): TicketSummaryView & Conversation;
export function ticketView(
  t: TicketRecord,
  related: Related,
  baseUrl: string,
  names: TicketNames,
  parts?: TicketParts,
): TicketSummaryView | (TicketSummaryView & Conversation) {
  return {
    id: t.id,
    number: t.number,
    subject: t.subject,
    description: t.description,
    insertDate: t.insertDate,
    managedDate: t.managedDate,
    closedDate: t.closedDate ?? null,
    priority: t.priority,
    assignedTo: expand(related, 'AGENT', t.assignedTo, baseUrl),
    cc: (t.cc ?? []).map((id) => expand(related, 'AGENT', id, baseUrl)),
    openedBy: expand(related, 'CUSTOMER', t.openedBy, baseUrl),
    numberOfReplies: t.numberOfReplies,
    ...(parts ? { replies: parts.replies.map((r) => replyView(r, parts, related, baseUrl)) } : {}),
    tags: (t.tags ?? []).map((tag) => ({ tag })),
    ...(parts ? { attachedDocuments: documentsOf(parts, null, baseUrl) } : {}),
    status: { status: names.statusName(t.status), labels: STATUS_LABELS[t.status] },
    type: expand(related, 'TICKET_TYPE', t.type, baseUrl),
    area: expand(related, 'TICKET_AREA', t.area, baseUrl),
    group: expand(related, 'TICKET_GROUP', t.group, baseUrl),
    memo: t.memo ?? null,
    source: { source: t.source, labels: SOURCE_LABELS[t.source] },
    customFields: t.customFields ?? [],
    ...(parts ? { ticketNotes: parts.notes.map((n) => noteView(n, related, baseUrl)) } : {}),
    tweetId: t.tweetId ?? null,
    tweetType: t.tweetType ?? null,
    facebookId: t.facebookId ?? null,
    facebookType: t.facebookType ?? null,
    linkedinId: t.linkedinId ?? null,
    linkedinType: t.linkedinType ?? null,
    googlePlusId: t.googlePlusId ?? null,
    googlePlusType: t.googlePlusType ?? null,
    youtubeId: t.youtubeId ?? null,
    youtubeType: t.youtubeType ?? null,
    messageUniqueId: t.messageUniqueId ?? null,
    customPortalId: t.customPortalId ?? null,
    toReply: t.toReply,
    toReplyCustomer: t.toReplyCustomer,
    // Ours, after the seed's fields.
    externalId1: t.externalId1 ?? null,
  };
}

/** Where all of a ticket's documents, replies and notes can be read, a page at a time. */
export const ticketPartUrls = (baseUrl: string, id: string) => ({
  documents: `${baseUrl}/ticket/${id}/documents`,
  replies: `${baseUrl}/ticket/${id}/replies`,
  notes: `${baseUrl}/ticket/${id}/notes`,
});

/**
 * The detail: the ticket view with as much of its own documents and of its conversation as fits
 * in PAGE_BYTES of the response, measured on the JSON about to be sent. The ticket itself comes
 * first (its largest possible view is about half of the budget). Its own documents, in the order
 * they were added, may then use half of the room left, or more if replies and notes leave it;
 * the most recent replies and notes share the rest: each may use half, and what one does not
 * need the other may use (byte-budget.ts `shareRoom`); both stay oldest first.
 * `documentsTruncated` / `repliesTruncated` / `notesTruncated` say that some were left out,
 * and `documentsUrl` / `repliesUrl` / `notesUrl` (always present) page through all of them.
 */
export const ticketDetailView = (
  t: TicketRecord,
  parts: DetailParts,
  related: Related,
  baseUrl: string,
  names: TicketNames,
): TicketDetailView => {
  const urls = ticketPartUrls(baseUrl, t.id);
  const own = parts.documents.filter((d) => (d.replyId ?? null) === null);
  const build = (
    documents: DocumentRecord[],
    replies: ReplyView[],
    notes: NoteView[],
    cut: { documents: boolean; replies: boolean; notes: boolean },
  ): TicketDetailView => ({
    ...ticketView(t, related, baseUrl, names, { replies: [], notes: [], documents }),
    replies,
    ticketNotes: notes,
    documentsTruncated: cut.documents,
    documentsUrl: urls.documents,
    repliesTruncated: cut.replies,
    repliesUrl: urls.replies,
    notesTruncated: cut.notes,
    notesUrl: urls.notes,
  });
  const replies = parts.replies.map((r) => replyView(r, parts, related, baseUrl));
  const notes = parts.notes.map((n) => noteView(n, related, baseUrl));
  // `false` is the longer of the two flags: the bare detail measured with it is an upper bound.
  const room =
    PAGE_BYTES - payloadBytes(build([], [], [], { documents: false, replies: false, notes: false }));
  const documentSizes = own.map((d) => payloadBytes(documentView(d, baseUrl)));
  const replySizes = replies.map(payloadBytes).reverse();
  const noteSizes = notes.map(payloadBytes).reverse();
  const keptDocuments = fitCount(
    documentSizes,
    Math.max(room / 2, room - arrayBytes(replySizes) - arrayBytes(noteSizes)),
  );
  const [keptReplies, keptNotes] = shareRoom(
    room - arrayBytes(documentSizes, keptDocuments),
    replySizes,
    noteSizes,
  );
  const documents = own.slice(0, keptDocuments);
  return build(
    documents,
    replies.slice(replies.length - keptReplies),
    notes.slice(notes.length - keptNotes),
    {
      documents: keptDocuments < own.length,
      replies: keptReplies < replies.length || !parts.allReplies,
      notes: keptNotes < notes.length || !parts.allNotes,
    },
  );
};
