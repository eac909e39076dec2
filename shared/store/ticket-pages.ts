import { getMany } from './batch-get';
import { readDocuments, sortDocuments } from './detail-items';
import {
  type DocumentRecord,
  type NoteRecord,
  type ReplyRecord,
  type TicketRecord,
  ticketEntity,
} from './entities/ticket';
import type { Item } from './entity';
import { isId } from './ids';
import { type ChildKind, childKind, childPrefix, RECORD_SK } from './keys';
import { hasPageAttributes } from './migrations/legacy';
import { countEntries } from './page-count';
import { listPage, pageOf } from './page-read';
import { type PageSource, partitionsOf } from './page-source';
import type { Page } from './pages';
import { readExisting } from './read-existing';
import { searchTarget } from './search-targets';
import { TABLE_KEY } from './table-schema';
import {
  type Related,
  type RelatedOf,
  recordKey,
  relatedIn,
  type StoredTicket,
  ticketKey,
  ticketMissing,
  ticketOf,
} from './tickets';
import { itemId } from './write-ops';
/** The paged reads of tickets: the list and its searches, and a ticket's replies, notes and documents. */
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
 * Reads a page of a ticket's children with `read`, alongside the ticket's GetItem (it must exist:
 * 404 else). A ticket others were merged into reads theirs with its own (`alsoIn`): once the
 * ticket says so, the page is read again over all of their collections (only those tickets pay
 * the second read).
 */
const withMerged = async <T>(
  tenantId: string,
  ticketId: string,
  read: (ticket: Promise<Parent>, alsoIn?: string[]) => Promise<T>,
): Promise<T> => {
  if (!isId(ticketId)) throw ticketMissing(ticketId);
  const ticket = existing(tenantId, ticketId);
  const first = read(ticket);
  // Its failure is the answer only for a ticket it was the whole read of (a cursor of a merged
  // ticket may name another collection's entry, which this read refuses).
  first.catch(() => undefined);
  const { merged } = await ticket;
  if (merged.length === 0) return first;
  return read(
    ticket,
    merged.map((id) => ticketKey(tenantId, id).pk),
  );
};

/**
 * A page of a ticket's replies (`GET /ticket/{id}/replies`), oldest first, with the documents
 * they carry. One Query on the ticket's collection (`begins_with` the reply prefix) per MB read,
 * beside the ticket's GetItem (it must exist; `numberOfReplies` is the exact total) and the
 * Query of its document records; 404 when the ticket does not exist. Those of the tickets merged
 * into it are read with its own, in date order (`withMerged`).
 */
export const listReplies = (
  tenantId: string,
  ticketId: string,
  query: { page: number; cursor?: string },
): Promise<{ page: Page<ReplyRecord>; documents: DocumentRecord[] }> =>
  withMerged(tenantId, ticketId, async (ticket, alsoIn) => {
    const source = childSource(tenantId, ticketId, 'reply', async () => (await ticket).numberOfReplies, {
      alsoIn,
    });
    const [page, documents] = await Promise.all([
      pageOf(source, query.page, query.cursor),
      Promise.all(partitionsOf(source).map((part) => readDocuments(part.partition))).then((all) =>
        sortDocuments(all.flat()),
      ),
    ]);
    return { page: page as unknown as Page<ReplyRecord>, documents };
  });

/**
 * A page of a ticket's notes (`GET /ticket/{id}/notes`), oldest first. No counter holds the
 * number of notes (they are added in the note's own transaction, which does not count them),
 * so the total is counted with key-only COUNT queries on the page a client starts from and
 * then carried in the cursors, as range searches do.
 */
export const listNotes = (
  tenantId: string,
  ticketId: string,
  query: { page: number; cursor?: string },
): Promise<Page<NoteRecord>> =>
  withMerged(tenantId, ticketId, async (_ticket, alsoIn) => {
    const source = childSource(tenantId, ticketId, 'note', countEntries, { carryCount: true, alsoIn });
    return (await pageOf(source, query.page, query.cursor)) as unknown as Page<NoteRecord>;
  });

/**
 * A page of a ticket's own documents (`GET /ticket/{id}/documents`: those of `attachedDocuments`,
 * not those of its replies), in the order of their ids (the time they were added). Their document
 * records share a prefix with the replies' ones, so the Query filters on `replyId` and reads
 * 1 MB pages; the total is counted (COUNT with the same filter) and carried, as for notes.
 */
export const listDocuments = (
  tenantId: string,
  ticketId: string,
  query: { page: number; cursor?: string },
): Promise<Page<DocumentRecord>> =>
  withMerged(tenantId, ticketId, async (_ticket, alsoIn) => {
    const source = childSource(tenantId, ticketId, 'document', countEntries, {
      carryCount: true,
      filter: { or: [{ missing: 'replyId' }, { attributeType: ['replyId', 'NULL'] }] },
      alsoIn,
    });
    return (await pageOf(source, query.page, query.cursor)) as unknown as Page<DocumentRecord>;
  });

/** What a page of a ticket's children needs of the ticket. */
interface Parent {
  numberOfReplies: number;
  /** The tickets merged into it. */
  merged: string[];
}

/** The ticket (consistent), or 404: a GetItem of its reply count and merged tickets. */
const existing = async (tenantId: string, id: string): Promise<Parent> => {
  const item = await readExisting(ticketKey(tenantId, id), ['numberOfReplies', 'merged'], () =>
    ticketMissing(id),
  );
  const merged = (item.merged ?? []) as { id: string }[];
  return { numberOfReplies: Number(item.numberOfReplies ?? 0), merged: merged.map((m) => m.id) };
};
