import type { EntityKind, ItemKey } from '../store/keys';
import { keys } from '../store/keys';
import { agents } from './agent';
import { customers } from './customer';
import { ticketAreas, ticketGroups, ticketTypes } from './lookups';
import type { Fields, ResourceSpec } from './resource-spec';
import { SOURCE_LABELS, STATUS_LABELS, type Status } from './ticket-schema';

/**
 * The ticket as the API returns it: every field of the seed's Ticket table, references
 * expanded into the objects they name (customer, agents, lookups with labels).
 */

/** Records a ticket points at, read in one BatchGet and looked up by kind and id. */
export type Related = Map<string, Fields>;

const SPECS: Partial<Record<EntityKind, ResourceSpec>> = {
  CUSTOMER: customers,
  AGENT: agents,
  TICKET_TYPE: ticketTypes,
  TICKET_AREA: ticketAreas,
  TICKET_GROUP: ticketGroups,
};

const LOOKUP_FIELDS: [string, EntityKind][] = [
  ['type', 'TICKET_TYPE'],
  ['area', 'TICKET_AREA'],
  ['group', 'TICKET_GROUP'],
];

/** Keys of every record a set of tickets, replies and notes points at. */
export const relatedKeys = (
  tenantId: string,
  tickets: Fields[],
  replies: Fields[] = [],
  notes: Fields[] = [],
) => {
  const found: ItemKey[] = [];
  const add = (kind: EntityKind, id: unknown) => {
    if (typeof id === 'string' && id) found.push(keys.record(tenantId, kind, id));
  };
  for (const t of tickets) {
    add('CUSTOMER', t.openedBy);
    add('AGENT', t.assignedTo);
    for (const id of (t.cc as string[] | undefined) ?? []) add('AGENT', id);
    for (const [field, kind] of LOOKUP_FIELDS) add(kind, t[field]);
  }
  for (const r of replies) add('AGENT', r.replyFromOperator);
  for (const n of notes) {
    add('AGENT', n.insertBy);
    add('AGENT', n.assignedTo);
  }
  return found;
};

const expand = (related: Related, tenantId: string, kind: EntityKind, id: unknown, baseUrl: string) => {
  if (typeof id !== 'string' || !id) return null;
  const key = keys.record(tenantId, kind, id);
  const item = related.get(`${key.pk}\n${key.sk}`);
  const spec = SPECS[kind];
  // A reply or note author may have been deleted since; tickets' own references cannot be.
  return item && spec ? spec.toApi(item, baseUrl) : null;
};

/** Documents come without their bytes, with an address that downloads them. */
const documentToApi = (doc: Fields, baseUrl: string) => ({
  id: doc.id,
  documentName: doc.documentName,
  documentType: doc.documentType,
  size: doc.size,
  checksum: doc.checksum,
  downloadUrl: `${baseUrl}/ticket/${doc.ticketId}/attachment/${doc.id}`,
});

const documentsOf = (parts: TicketParts, owner: string | null, baseUrl: string) =>
  parts.documents.filter((d) => (d.replyId ?? null) === owner).map((d) => documentToApi(d, baseUrl));

const replyToApi = (
  reply: Fields,
  parts: TicketParts,
  related: Related,
  tenantId: string,
  baseUrl: string,
) => ({
  id: reply.id,
  text: reply.text,
  replyDate: reply.replyDate,
  replyFromOperator: expand(related, tenantId, 'AGENT', reply.replyFromOperator, baseUrl),
  attachedDocuments: documentsOf(parts, reply.id as string, baseUrl),
});

const noteToApi = (note: Fields, related: Related, tenantId: string, baseUrl: string) => ({
  id: note.id,
  note: note.note,
  insertBy: expand(related, tenantId, 'AGENT', note.insertBy, baseUrl),
  assignedTo: expand(related, tenantId, 'AGENT', note.assignedTo, baseUrl),
  date: note.date,
  remindMe: note.remindMe ?? null,
});

export interface TicketParts {
  replies: Fields[];
  notes: Fields[];
  /** Document records of the ticket and its replies, in the order they were added. */
  documents: Fields[];
}

/**
 * A list record carries every field except the conversation and the files (`replies`,
 * `ticketNotes`, `attachedDocuments`), which only the detail reads; `numberOfReplies` still
 * counts the replies.
 */
export const ticketToApi = (
  t: Fields,
  related: Related,
  tenantId: string,
  baseUrl: string,
  parts?: TicketParts,
): Fields => {
  const status = t.status as Status;
  const source = t.source as keyof typeof SOURCE_LABELS;
  const lookup = (field: string, kind: EntityKind) => expand(related, tenantId, kind, t[field], baseUrl);
  const out: Fields = {
    id: t.id,
    number: t.number,
    subject: t.subject,
    description: t.description,
    insertDate: t.insertDate,
    managedDate: t.managedDate,
    closedDate: t.closedDate ?? null,
    priority: t.priority,
    assignedTo: lookup('assignedTo', 'AGENT'),
    cc: ((t.cc as string[] | undefined) ?? []).map((id) => expand(related, tenantId, 'AGENT', id, baseUrl)),
    openedBy: lookup('openedBy', 'CUSTOMER'),
    numberOfReplies: t.numberOfReplies,
    ...(parts ? { replies: parts.replies.map((r) => replyToApi(r, parts, related, tenantId, baseUrl)) } : {}),
    tags: ((t.tags as string[] | undefined) ?? []).map((tag) => ({ tag })),
    ...(parts ? { attachedDocuments: documentsOf(parts, null, baseUrl) } : {}),
    status: { status, labels: STATUS_LABELS[status] },
    type: lookup('type', 'TICKET_TYPE'),
    area: lookup('area', 'TICKET_AREA'),
    group: lookup('group', 'TICKET_GROUP'),
    memo: t.memo ?? null,
    source: { source, labels: SOURCE_LABELS[source] },
    customFields: t.customFields ?? [],
    ...(parts ? { ticketNotes: parts.notes.map((n) => noteToApi(n, related, tenantId, baseUrl)) } : {}),
  };
  for (const field of [
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
  ]) {
    out[field] = t[field] ?? null;
  }
  out.toReply = t.toReply;
  out.toReplyCustomer = t.toReplyCustomer;
  return out;
};
