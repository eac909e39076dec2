import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from './batch-get';
import { derivedWrites } from './derived-writes';
import { readDocuments, sortDocuments } from './detail-items';
import { db, tableName } from './dynamo';
import {
  type DocumentRecord,
  documentEntity,
  type NoteRecord,
  noteEntity,
  type ReplyRecord,
  replyEntity,
  TICKET_META,
  type TicketRecord,
  ticketEntity,
} from './entities/ticket';
import type { Item } from './entity';
import { hydrate, itemOf, recordOf } from './entity-item';
import { NotFound, StaleVersion } from './errors';
import { conditionOf, projectionOf, queryOf, updateOf } from './expression';
import { isId } from './ids';
import { deleteWrite, updateWrite } from './item-changes';
import {
  type ChildKind,
  childKind,
  childPrefix,
  type EntityKind,
  type ItemKey,
  keys,
  RECORD_SK,
} from './keys';
import { hasPageAttributes } from './migrations/legacy';
import { countEntries, listPage, type Page, type PageSource, pageOf } from './pages';
import { queryAll } from './query-all';
import { searchTarget } from './search-targets';
import { FEED_CLOCK, SEARCH_INDEXES, TABLE_KEY } from './table-schema';
import { ABSENT, EXISTS, itemId, type WriteOp } from './write-ops';

/**
 * Ticket items and queries: the ticket, its replies, notes, documents and tags as transaction
 * elements, and the reads of a collection, a list page and a document. The rules (defaults,
 * numbering, who replies next) are the domain's (domain/ticket-rules.ts); orchestration of a
 * write (files, idempotency, retries) is domain/tickets.ts.
 */
export type StoredTicket = TicketRecord & { version: number };

export const ticketMissing = (id: string) => new NotFound(`Ticket ${id}`);
const ticketKey = (tenantId: string, id: string): ItemKey => keys.record(tenantId, 'TICKET', id);

const ticketItem = (tenantId: string, ticket: TicketRecord, version: number): Item =>
  itemOf(ticketEntity, tenantId, ticket, { version });

export const ticketFields = (item: StoredTicket): TicketRecord => recordOf<TicketRecord>(item, TICKET_META);

/** A ticket item as read, with what is not stored (dates the keys hold, empty lists) put back. */
const ticketOf = (item: Item | undefined): StoredTicket | undefined =>
  item && (hydrate(ticketEntity, item) as StoredTicket);

/** A new ticket with its tags, counts and reference counts. */
export const createTicketWrites = (tenantId: string, ticket: TicketRecord): WriteOp[] => [
  {
    item: { Put: { Item: ticketItem(tenantId, ticket, 1), ...conditionOf(ABSENT) } },
    feedOrdered: true,
  },
  ...derivedWrites(ticketEntity, tenantId, ticket.id, ticket),
];

/** How a ticket write's condition failures read: gone (404) or If-Match no longer holding (412). */
const precondition = (id: string, ifMatch?: readonly number[]) => ({
  ifMatch,
  missing: () => ticketMissing(id),
  stale: () => new StaleVersion(`Ticket ${id}`),
});

/**
 * Changes the ticket read as `current` into `after`: only what differs is written, replies sent
 * with the update are added to `numberOfReplies` (never overwriting concurrent replies), and the
 * write is conditioned only on what it moves counters, tags and references from.
 */
export const updateTicketWrites = (
  tenantId: string,
  current: StoredTicket,
  after: TicketRecord,
  options: { ifMatch?: readonly number[]; addedReplies: number },
): WriteOp[] => [
  {
    ...updateWrite(ticketEntity, tenantId, current as unknown as Item, after, {
      ...precondition(current.id, options.ifMatch),
      add: { numberOfReplies: options.addedReplies },
      keep: [FEED_CLOCK],
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
    ...deleteWrite(ticketEntity, tenantId, current as unknown as Item, precondition(current.id, ifMatch)),
    feedOrdered: true,
  },
  ...derivedWrites(ticketEntity, tenantId, current.id, undefined, ticketFields(current)),
];

/**
 * The ticket-side half of a reply or note, without reading the ticket: move `managedDate` (and
 * its index entry), bump the version, set the fields the caller names and add to its counts.
 */
export const touchTicketWrite = (
  tenantId: string,
  id: string,
  now: number,
  extra: { set?: Partial<TicketRecord>; add?: Partial<Record<'numberOfReplies', number>> } = {},
): WriteOp => {
  const managed = ticketEntity.ranges?.managedDate;
  if (!managed) throw new Error('tickets are ordered by managedDate');
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
          EXISTS,
        ),
      },
    },
    onConditionFailed: () => ticketMissing(id),
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

/** The ticket item alone (consistent), or undefined. */
export const findTicket = async (tenantId: string, id: string): Promise<StoredTicket | undefined> => {
  if (!isId(id)) return undefined;
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: ticketKey(tenantId, id), ConsistentRead: true }),
  );
  return ticketOf(out.Item);
};

/** The ticket item (consistent): what an update starts from; 404 when there is none. */
export const readTicket = async (tenantId: string, id: string): Promise<StoredTicket> => {
  const ticket = await findTicket(tenantId, id);
  if (!ticket) throw ticketMissing(id);
  return ticket;
};

export interface TicketCollection {
  ticket: StoredTicket | undefined;
  replies: ReplyRecord[];
  notes: NoteRecord[];
  documents: DocumentRecord[];
  /** Every item key of the collection, the ticket's own and its tags' included. */
  keys: ItemKey[];
}

/** The whole item collection of a ticket (all of its 1 MB pages, consistent), sorted by kind. */
export const readCollection = async (
  tenantId: string,
  id: string,
  projection?: 'keys',
): Promise<TicketCollection> => {
  const items = isId(id)
    ? await queryAll({
        ...queryOf(
          { partition: ['pk', ticketKey(tenantId, id).pk] },
          projection === 'keys' ? { project: ['pk', 'sk', 'key'] } : {},
        ),
        ConsistentRead: true,
      })
    : [];
  const of = (kind: ReturnType<typeof childKind>) =>
    items.filter((item) => childKind(String(item.sk)) === kind);
  return {
    ticket: ticketOf(of('record')[0]),
    replies: of('reply') as unknown as ReplyRecord[],
    notes: of('note') as unknown as NoteRecord[],
    documents: sortDocuments(of('document') as unknown as DocumentRecord[]),
    keys: items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })),
  };
};

/** The children a deleted ticket leaves behind (replies, notes, documents; tags go in its transaction). */
export const childKeys = (collection: TicketCollection): ItemKey[] =>
  collection.keys.filter((k) => {
    const kind = childKind(k.sk);
    return kind !== 'record' && kind !== 'tag';
  });

/** Finds a record by kind and id among those a read fetched (undefined when it was deleted since). */
export type Related = (kind: EntityKind, id: string) => Item | undefined;

/** What a page of tickets expands: the records its tickets point at, by kind and id. */
export type RelatedOf = (tickets: Partial<TicketRecord>[]) => { kind: EntityKind; id: string }[];

export const recordKey = (tenantId: string) => (w: { kind: EntityKind; id: string }) =>
  keys.record(tenantId, w.kind, w.id);

/**
 * A page of tickets, newest first: the whole list or one search, each from its own index, with
 * the records they point at, in two requests. A plain list's entries are the tickets (the list
 * index projects everything); a search's entries hold the ticket's keys and page attributes
 * (table-schema.ts), as do tag items, so one BatchGetItem reads the tickets, the records they
 * point at and the page's count. Tag items written before issue 12 carry no page attributes:
 * their tickets' records then take one more BatchGetItem. A ticket deleted since its entry was
 * read is undefined.
 */
export const listTickets = async (
  tenantId: string,
  query: { page: number; cursor?: string; search?: { param: string; value: string } },
  relatedOf: RelatedOf,
): Promise<Page<StoredTicket | undefined> & { related: Related }> => {
  const target = searchTarget(ticketEntity, tenantId, query.search);
  const whole = (entry: Item) =>
    target.index.projection === 'ALL' && childKind(String(entry.sk)) === 'record';
  // Tag items written before issue 12 carry no page attributes (migrations/legacy.ts).
  const pointing = hasPageAttributes;
  const page = await listPage(
    { tenantId, resource: 'TICKET', target, page: query.page, cursor: query.cursor },
    (entries) => [
      ...entries.filter((e) => !whole(e)).map((e) => ({ pk: String(e.pk), sk: RECORD_SK })),
      ...relatedOf(entries.filter(pointing) as Partial<TicketRecord>[]).map(recordKey(tenantId)),
    ],
  );
  const tickets = page.items.map((entry) =>
    whole(entry)
      ? ticketOf(entry)
      : ticketOf(page.fetched.get(itemId({ pk: String(entry.pk), sk: RECORD_SK }))),
  );
  const unread = tickets.filter(
    (t, i): t is StoredTicket => t !== undefined && !pointing(page.items[i] as Item),
  );
  const more = unread.length > 0 ? await getMany(relatedOf(unread).map(recordKey(tenantId))) : new Map();
  return { ...page, items: tickets, related: relatedIn(tenantId, page.fetched, more) };
};

/** The paged children of a ticket: the kind of item and the resource their cursors name. */
const CHILD_PAGES = {
  reply: { kind: 'reply', resource: 'TICKET_REPLY' },
  note: { kind: 'note', resource: 'TICKET_NOTE' },
  document: { kind: 'document', resource: 'TICKET_DOCUMENT' },
} as const satisfies Record<string, { kind: ChildKind; resource: string }>;

/** One kind of item of a ticket's collection, oldest first (by sort key), read consistently. */
const childSource = (
  tenantId: string,
  ticketId: string,
  what: keyof typeof CHILD_PAGES,
  count: (self: PageSource) => Promise<number>,
  extra: Partial<PageSource> = {},
): PageSource => {
  const source: PageSource = {
    tenantId,
    resource: CHILD_PAGES[what].resource,
    index: TABLE_KEY,
    partition: ticketKey(tenantId, ticketId).pk,
    range: { prefix: childPrefix(CHILD_PAGES[what].kind) },
    order: 'oldest',
    consistent: true,
    count: { by: () => count(source) },
    ...extra,
  };
  return source;
};

/**
 * A page of a ticket's replies (`GET /ticket/{id}/replies`), oldest first, with the documents
 * they carry. One Query on the ticket's collection (`begins_with` the reply prefix) per MB read,
 * beside the ticket's GetItem (it must exist; `numberOfReplies` is the exact total) and the
 * Query of its document records; 404 when the ticket does not exist.
 */
export const listReplies = async (
  tenantId: string,
  ticketId: string,
  query: { page: number; cursor?: string },
): Promise<{ page: Page<ReplyRecord>; documents: DocumentRecord[] }> => {
  if (!isId(ticketId)) throw ticketMissing(ticketId);
  const ticket = existing(tenantId, ticketId);
  const source = childSource(tenantId, ticketId, 'reply', async () => (await ticket).numberOfReplies);
  const [page, documents] = await Promise.all([
    pageOf(source, query.page, query.cursor),
    readDocuments(ticketKey(tenantId, ticketId).pk),
    ticket,
  ]);
  return { page: page as unknown as Page<ReplyRecord>, documents };
};

/**
 * A page of a ticket's notes (`GET /ticket/{id}/notes`), oldest first. No counter holds the
 * number of notes (they are added in the note's own transaction, which does not count them),
 * so the total is counted with key-only COUNT queries on the page a client starts from and
 * then carried in the cursors, as range searches do.
 */
export const listNotes = async (
  tenantId: string,
  ticketId: string,
  query: { page: number; cursor?: string },
): Promise<Page<NoteRecord>> => {
  if (!isId(ticketId)) throw ticketMissing(ticketId);
  const ticket = existing(tenantId, ticketId);
  const source = childSource(tenantId, ticketId, 'note', countEntries, { carryCount: true });
  const [page] = await Promise.all([pageOf(source, query.page, query.cursor), ticket]);
  return page as unknown as Page<NoteRecord>;
};

/**
 * A page of a ticket's own documents (`GET /ticket/{id}/documents`: those of `attachedDocuments`,
 * not those of its replies), in the order of their ids (the time they were added). Their document
 * records share a prefix with the replies' ones, so the Query filters on `replyId` and reads
 * 1 MB pages; the total is counted (COUNT with the same filter) and carried, as for notes.
 */
export const listDocuments = async (
  tenantId: string,
  ticketId: string,
  query: { page: number; cursor?: string },
): Promise<Page<DocumentRecord>> => {
  if (!isId(ticketId)) throw ticketMissing(ticketId);
  const ticket = existing(tenantId, ticketId);
  const source = childSource(tenantId, ticketId, 'document', countEntries, {
    carryCount: true,
    filter: { or: [{ missing: 'replyId' }, { attributeType: ['replyId', 'NULL'] }] },
  });
  const [page] = await Promise.all([pageOf(source, query.page, query.cursor), ticket]);
  return page as unknown as Page<DocumentRecord>;
};

/** The ticket (consistent), or 404: a key-only GetItem. */
const existing = async (tenantId: string, id: string): Promise<{ numberOfReplies: number }> => {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: ticketKey(tenantId, id),
      ConsistentRead: true,
      ...projectionOf(['pk', 'numberOfReplies']),
    }),
  );
  if (!out.Item) throw ticketMissing(id);
  return { numberOfReplies: Number(out.Item.numberOfReplies ?? 0) };
};

/** One document record of one ticket of this tenant, or 404. */
export const readDocument = async (tenantId: string, ticketId: string, documentId: string) => {
  const missing = () => new NotFound(`Document ${documentId} of ticket ${ticketId}`);
  if (!isId(ticketId) || !isId(documentId)) throw missing();
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: documentEntity.key(tenantId, { ticketId, id: documentId } as DocumentRecord),
      ConsistentRead: true,
    }),
  );
  if (!out.Item) throw missing();
  return out.Item as DocumentRecord;
};

/** Records of the tenant by kind and id, in one BatchGet (the records tickets point at). */
export const readRelated = async (tenantId: string, wanted: { kind: EntityKind; id: string }[]) =>
  relatedIn(tenantId, await getMany(wanted.map(recordKey(tenantId))));

/** Finds records of the tenant by kind and id among items reads fetched. */
export const relatedIn =
  (tenantId: string, ...found: ReadonlyMap<string, Item>[]): Related =>
  (kind, id) => {
    const key = itemId(keys.record(tenantId, kind, id));
    for (const items of found) {
      const item = items.get(key);
      if (item) return item;
    }
    return undefined;
  };
