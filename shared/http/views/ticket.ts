import type { DetailParts, TicketParts } from '../../domain/ticket-reads';
import { SOURCE_LABELS, STATUS_LABELS } from '../../schemas/ticket';
import type {
  DocumentView,
  NoteView,
  ReplyView,
  TicketDetailView,
  TicketSummaryView,
  TrashedTicketView,
} from '../../schemas/views';
import type { DocumentRecord, NoteRecord, ReplyRecord, TicketRecord } from '../../store/entities/ticket';
import type { Item } from '../../store/entity';
import { PAGE_BYTES } from '../../store/pages';
import type { TrashedTicket } from '../../store/ticket-trash';
import type { Related } from '../../store/tickets';
import { arrayBytes, fitCount, payloadBound, payloadBytes, shareRoom } from '../byte-budget';
import type { Compat } from '../compat';
import { objectSlot } from '../object-slot';
import { RECORD_VIEWS } from './records';
import { TICKET_FIELDS } from './ticket-fields';

/**
 * The ticket as the API returns it: every field of the seed's Ticket table, references
 * expanded into the objects they name (customer, agents, lookups with labels). Each view is
 * typed by its response schema (shared/schemas/views.ts).
 */
type RecordView<K extends keyof typeof RECORD_VIEWS> = ReturnType<(typeof RECORD_VIEWS)[K]>;

/** The kinds of record a ticket view expands a reference into. */
type ViewKind = keyof typeof RECORD_VIEWS;

/** A reference expanded into the view of the record it names, or null (none, or deleted since). */
type Expand = <K extends ViewKind>(kind: K, id: string | null | undefined) => RecordView<K> | null;

/**
 * Each read's expansions, made once per record: a detail's replies and a page's tickets name the
 * same few agents, customers and lookups again and again. Views are plain data, never changed
 * once built (byte-budget.ts), so one object may stand in several places of a response. A read's
 * `Related` is its request's, so the base URL is always the request's.
 */
const expansions = objectSlot<Related, Expand>('expansions');

const expanderOf = (related: Related, baseUrl: string): Expand => {
  let expand = expansions.get(related);
  if (expand) return expand;
  const made: Record<ViewKind, Map<string, unknown>> = {
    CUSTOMER: new Map(),
    AGENT: new Map(),
    TICKET_TYPE: new Map(),
    TICKET_AREA: new Map(),
    TICKET_GROUP: new Map(),
  };
  expand = <K extends ViewKind>(kind: K, id: string | null | undefined): RecordView<K> | null => {
    if (!id) return null;
    const views = made[kind];
    let view = views.get(id) as RecordView<K> | null | undefined;
    if (view !== undefined) return view;
    const item = related(kind, id);
    // A reply or note author may have been deleted since; tickets' own references cannot be.
    view = item
      ? (RECORD_VIEWS[kind] as unknown as (item: Item, baseUrl: string) => RecordView<K>)(item, baseUrl)
      : null;
    views.set(id, view);
    return view;
  };
  expansions.set(related, expand);
  return expand;
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

const replyOf = (reply: ReplyRecord, documents: DocumentView[], expand: Expand): ReplyView => ({
  id: reply.id,
  text: reply.text,
  replyDate: reply.replyDate,
  replyFromOperator: expand('AGENT', reply.replyFromOperator),
  attachedDocuments: documents,
});

/**
 * A conversation's documents by owner, grouped in one pass (not every document scanned for every
 * reply): the ticket's own, and each reply's, in the order added; the Map only when some reply has
 * one (most tickets have none).
 */
const documentsByOwner = (documents: DocumentRecord[]) => {
  const own: DocumentRecord[] = [];
  let byReply: Map<string, DocumentRecord[]> | undefined;
  for (const d of documents) {
    const replyId = d.replyId ?? null;
    if (replyId === null) {
      own.push(d);
      continue;
    }
    byReply ??= new Map();
    const ofReply = byReply.get(replyId);
    if (ofReply) ofReply.push(d);
    else byReply.set(replyId, [d]);
  }
  return { own, byReply };
};

/** Replies with their documents, grouped by `documentsByOwner`. */
const repliesOf = (
  replies: ReplyRecord[],
  byReply: Map<string, DocumentRecord[]> | undefined,
  expand: Expand,
  baseUrl: string,
): ReplyView[] =>
  replies.map((r) => {
    const documents = byReply?.get(r.id);
    return replyOf(r, documents ? documents.map((d) => documentView(d, baseUrl)) : [], expand);
  });

/** A reply with its documents (those of `parts.documents` attached to it). */
export const replyView = (
  reply: ReplyRecord,
  parts: Pick<TicketParts, 'documents'>,
  related: Related,
  baseUrl: string,
): ReplyView => replyOf(reply, documentsOf(parts, reply.id, baseUrl), expanderOf(related, baseUrl));

const noteOf = (note: NoteRecord, expand: Expand): NoteView => ({
  id: note.id,
  note: note.note,
  insertBy: expand('AGENT', note.insertBy),
  assignedTo: expand('AGENT', note.assignedTo),
  date: note.date,
  remindMe: note.remindMe ?? null,
});

export const noteView = (note: NoteRecord, related: Related, baseUrl: string): NoteView =>
  noteOf(note, expanderOf(related, baseUrl));

/** What of the request's compatibility profile a ticket view follows: the status's machine name. */
export type TicketNames = Pick<Compat, 'statusName'>;

/** What a ticket read with its parts adds to the summary (the detail's conversation and files). */
type Conversation = Pick<TicketDetailView, 'replies' | 'attachedDocuments' | 'ticketNotes'>;

/** What a ticket view is made with besides the ticket. */
type Shaping = { expand: Expand; baseUrl: string; names: TicketNames };

/**
 * The fields a ticket view shapes: references expanded into the records they name, status and
 * source with their labels (the status's name as the request's profile says), tags as objects,
 * lists `[]` when absent. Every other field of the response schema is plain: copied from the
 * stored ticket as it is, `null` when absent, so a new plain field needs no line here.
 */
const SHAPED = {
  assignedTo: (t, { expand }) => expand('AGENT', t.assignedTo),
  cc: (t, { expand }) => (t.cc ? t.cc.map((id) => expand('AGENT', id)) : []),
  openedBy: (t, { expand }) => expand('CUSTOMER', t.openedBy),
  tags: (t) => (t.tags ? t.tags.map((tag) => ({ tag })) : []),
  status: (t, { names }) => ({ status: names.statusName(t.status), labels: STATUS_LABELS[t.status] }),
  type: (t, { expand }) => expand('TICKET_TYPE', t.type),
  area: (t, { expand }) => expand('TICKET_AREA', t.area),
  group: (t, { expand }) => expand('TICKET_GROUP', t.group),
  source: (t) => ({ source: t.source, labels: SOURCE_LABELS[t.source] }),
  customFields: (t) => t.customFields ?? [],
  mergedInto: (t) => t.mergedInto ?? null,
  mergedTickets: (t) => (t.merged ? t.merged.map((m) => m.id) : []),
} satisfies { [K in keyof TicketSummaryView]?: (t: TicketRecord, shaping: Shaping) => TicketSummaryView[K] };
type Shaped = { [K in keyof typeof SHAPED]: ReturnType<(typeof SHAPED)[K]> };

/** Every field of the response schema, in its order (generated from it by `npm run openapi`). */
type Field = (typeof TICKET_FIELDS)[number];
/** A plain field the store does not keep does not compile: shape it in SHAPED. */
type Copied = { [K in Exclude<Field, keyof Shaped>]: TicketRecord[K] };

/** Where the seed places the conversation and the files: each right after the field named. */
const CONVERSATION_AFTER: Partial<Record<Field, keyof Conversation>> = {
  numberOfReplies: 'replies',
  tags: 'attachedDocuments',
  customFields: 'ticketNotes',
};

type Make = (t: TicketRecord, shaping: Shaping) => unknown;
const copy =
  (field: keyof Copied): Make =>
  (t) =>
    t[field] ?? null;

/** How each field of a view is made, in the schema's order. */
const FIELD_VALUES = TICKET_FIELDS.map((field) => ({
  field,
  value: Object.hasOwn(SHAPED, field) ? (SHAPED[field as keyof Shaped] as Make) : copy(field as keyof Copied),
}));

/**
 * A summary's and a detail's keys in order, which each view copies and fills: an object built
 * key by key is slower to build and to send (V8 makes it a dictionary past a dozen keys).
 */
const keysOf = (withConversation: boolean): Record<string, null> =>
  Object.fromEntries(
    TICKET_FIELDS.flatMap((field) => {
      const part = withConversation && CONVERSATION_AFTER[field];
      return part ? [field, part] : [field];
    }).map((key) => [key, null]),
  );
const SUMMARY_KEYS = keysOf(false);
const DETAIL_KEYS = keysOf(true);

/**
 * A summary carries every field except the conversation and the files (`replies`,
 * `ticketNotes`, `attachedDocuments`): the records of `?view=summary` list pages and the tickets
 * of the change feed; `numberOfReplies` still counts the replies. With `parts`, those three are
 * added in the seed's places (the detail). Fields come in the response schema's order: the
 * seed's, then ours (`externalId1`).
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
  const expand = expanderOf(related, baseUrl);
  const shaping: Shaping = { expand, baseUrl, names };
  const view: Record<string, unknown> = { ...(parts ? DETAIL_KEYS : SUMMARY_KEYS) };
  for (const { field, value } of FIELD_VALUES) view[field] = value(t, shaping);
  if (parts) {
    const { own, byReply } = documentsByOwner(parts.documents);
    const conversation: Conversation = {
      replies: repliesOf(parts.replies, byReply, expand, baseUrl),
      attachedDocuments: own.map((d) => documentView(d, baseUrl)),
      ticketNotes: parts.notes.map((n) => noteOf(n, expand)),
    };
    Object.assign(view, conversation);
  }
  // Checked by the compiler: a plain field's stored type is its response type, and the fields
  // are the schema's (a field missing here: run `npm run openapi`).
  const summary: { [K in Field]: TicketSummaryView[K] } = view as Copied & Shaped;
  return summary;
}

/** A ticket in the trash: its summary as it was deleted, when, and until when the trash keeps it. */
export const trashedTicketView = (
  trashed: TrashedTicket,
  related: Related,
  baseUrl: string,
  names: TicketNames,
): TrashedTicketView => ({
  ...ticketView(trashed.ticket, related, baseUrl, names),
  deletedAt: trashed.deletedAt,
  purgesAt: trashed.expiresAt,
});

/**
 * The detail as one object literal, its keys in the response schema's order (the seed's, the
 * conversation and files in the seed's places, ours, then the detail's own): the response
 * of `GET /ticket/{id}` and of every record of a detail list page, so its hottest view.
 * `ticketView` fills a copy of its keys field by field instead (one place for every other
 * shape); test/unit/views.test.ts holds the two to the same values for any ticket, and the
 * compiler holds this one to the schema's fields.
 */
const detailObject = (
  t: TicketRecord,
  shaping: Shaping,
  shown: { replies: ReplyView[]; documents: DocumentRecord[]; notes: NoteView[] },
  cut: { documents: boolean; replies: boolean; notes: boolean },
  urls: ReturnType<typeof ticketPartUrls>,
): TicketDetailView => ({
  id: t.id,
  number: t.number,
  subject: t.subject,
  description: t.description,
  insertDate: t.insertDate,
  managedDate: t.managedDate ?? null,
  closedDate: t.closedDate ?? null,
  priority: t.priority,
  assignedTo: SHAPED.assignedTo(t, shaping),
  cc: SHAPED.cc(t, shaping),
  openedBy: SHAPED.openedBy(t, shaping),
  numberOfReplies: t.numberOfReplies,
  replies: shown.replies,
  tags: SHAPED.tags(t),
  attachedDocuments: shown.documents.map((d) => documentView(d, shaping.baseUrl)),
  status: SHAPED.status(t, shaping),
  type: SHAPED.type(t, shaping),
  area: SHAPED.area(t, shaping),
  group: SHAPED.group(t, shaping),
  memo: t.memo ?? null,
  source: SHAPED.source(t),
  customFields: SHAPED.customFields(t),
  ticketNotes: shown.notes,
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
  toReply: t.toReply ?? null,
  toReplyCustomer: t.toReplyCustomer ?? null,
  externalId1: t.externalId1 ?? null,
  mergedInto: SHAPED.mergedInto(t),
  mergedTickets: SHAPED.mergedTickets(t),
  documentsTruncated: cut.documents,
  documentsUrl: urls.documents,
  repliesTruncated: cut.replies,
  repliesUrl: urls.replies,
  notesTruncated: cut.notes,
  notesUrl: urls.notes,
});

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
  const expand = expanderOf(related, baseUrl);
  const shaping: Shaping = { expand, baseUrl, names };
  const build = (
    documents: DocumentRecord[],
    replies: ReplyView[],
    notes: NoteView[],
    cut: { documents: boolean; replies: boolean; notes: boolean },
  ): TicketDetailView => detailObject(t, shaping, { replies, documents, notes }, cut, urls);
  const { own, byReply } = documentsByOwner(parts.documents);
  const replies = repliesOf(parts.replies, byReply, expand, baseUrl);
  const notes = parts.notes.map((n) => noteOf(n, expand));
  const whole = build(own, replies, notes, {
    documents: false,
    replies: !parts.allReplies,
    notes: !parts.allNotes,
  });
  // Most tickets are far below the budget: when an upper bound of the whole detail fits, the
  // measuring below would keep everything (the whole detail with every flag `false`, its longest
  // form, is at most 2 bytes more), and the text serialised for the bound is the response's.
  if (payloadBound(whole) + 2 <= PAGE_BYTES) return whole;
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
