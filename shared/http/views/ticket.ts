import type { Related, TicketParts } from '../../domain/ticket-reads';
import { SOURCE_LABELS, STATUS_LABELS } from '../../schemas/ticket';
import type { DocumentRecord, NoteRecord, ReplyRecord, TicketRecord } from '../../store/entities/ticket';
import type { EntityKind } from '../../store/keys';
import { RECORD_VIEWS, type View } from './records';

/**
 * The ticket as the API returns it: every field of the seed's Ticket table, references
 * expanded into the objects they name (customer, agents, lookups with labels).
 */
const expand = (
  related: Related,
  kind: Exclude<EntityKind, 'TICKET'>,
  id: string | null | undefined,
  baseUrl: string,
) => {
  if (!id) return null;
  const item = related(kind, id);
  // A reply or note author may have been deleted since; tickets' own references cannot be.
  return item ? RECORD_VIEWS[kind](item as never, baseUrl) : null;
};

/** Documents come without their bytes, with an address that downloads them. */
const documentView = (doc: DocumentRecord, baseUrl: string) => ({
  id: doc.id,
  documentName: doc.documentName,
  documentType: doc.documentType,
  size: doc.size,
  checksum: doc.checksum,
  downloadUrl: `${baseUrl}/ticket/${doc.ticketId}/attachment/${doc.id}`,
});

const documentsOf = (parts: TicketParts, owner: string | null, baseUrl: string) =>
  parts.documents.filter((d) => (d.replyId ?? null) === owner).map((d) => documentView(d, baseUrl));

const replyView = (reply: ReplyRecord, parts: TicketParts, related: Related, baseUrl: string) => ({
  id: reply.id,
  text: reply.text,
  replyDate: reply.replyDate,
  replyFromOperator: expand(related, 'AGENT', reply.replyFromOperator, baseUrl),
  attachedDocuments: documentsOf(parts, reply.id, baseUrl),
});

const noteView = (note: NoteRecord, related: Related, baseUrl: string) => ({
  id: note.id,
  note: note.note,
  insertBy: expand(related, 'AGENT', note.insertBy, baseUrl),
  assignedTo: expand(related, 'AGENT', note.assignedTo, baseUrl),
  date: note.date,
  remindMe: note.remindMe ?? null,
});

const SOCIAL_FIELDS = [
  'tweetId',
  'tweetType',
  'facebookId',
  'facebookType',
  'linkedinId',
  'linkedinType',
  'googlePlusId',
  'googlePlusType',
  'youtubeId',
  'youtubeType',
  'messageUniqueId',
  'customPortalId',
] as const;

/**
 * A list record carries every field except the conversation and the files (`replies`,
 * `ticketNotes`, `attachedDocuments`), which only the detail reads; `numberOfReplies` still
 * counts the replies.
 */
export const ticketView = (t: TicketRecord, related: Related, baseUrl: string, parts?: TicketParts): View => {
  const out: View = {
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
    status: { status: t.status, labels: STATUS_LABELS[t.status] },
    type: expand(related, 'TICKET_TYPE', t.type, baseUrl),
    area: expand(related, 'TICKET_AREA', t.area, baseUrl),
    group: expand(related, 'TICKET_GROUP', t.group, baseUrl),
    memo: t.memo ?? null,
    source: { source: t.source, labels: SOURCE_LABELS[t.source] },
    customFields: t.customFields ?? [],
    ...(parts ? { ticketNotes: parts.notes.map((n) => noteView(n, related, baseUrl)) } : {}),
  };
  for (const field of SOCIAL_FIELDS) out[field] = t[field] ?? null;
  out.toReply = t.toReply;
  out.toReplyCustomer = t.toReplyCustomer;
  return out;
};
