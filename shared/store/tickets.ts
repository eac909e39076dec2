import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from './batch-get';
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
import { deleteWrite, derivedWrites, type Item, itemOf, recordOf, searchTarget, updateWrite } from './entity';
import { NotFound, StaleVersion } from './errors';
import { isId } from './ids';
import { childKind, type EntityKind, type ItemKey, keys, RECORD_SK } from './keys';
import { listPage } from './pages';
import { queryAll } from './query-all';
import { SEARCH_INDEXES } from './table-schema';
import type { WriteOp } from './transact';

/**
 * Ticket items and queries: the ticket, its replies, notes, documents and tags as transaction
 * elements, and the reads of a collection, a list page and a document. The rules (defaults,
 * numbering, who replies next) are the domain's (domain/ticket-rules.ts); orchestration of a
 * write (files, idempotency, retries) is domain/tickets.ts.
 */
export type StoredTicket = TicketRecord & { version: number; updatedAt: number };

export const ticketMissing = (id: string) => new NotFound(`Ticket ${id}`);
const ticketKey = (tenantId: string, id: string): ItemKey => keys.record(tenantId, 'TICKET', id);

const ticketItem = (tenantId: string, ticket: TicketRecord, version: number): Item =>
  itemOf(ticketEntity, tenantId, ticket, { updatedAt: Date.now(), version });

export const ticketFields = (item: StoredTicket): TicketRecord => recordOf<TicketRecord>(item, TICKET_META);

/** A new ticket with its tags, counts and reference counts. */
export const createTicketWrites = (tenantId: string, ticket: TicketRecord): WriteOp[] => [
  {
    item: { Put: { Item: ticketItem(tenantId, ticket, 1), ConditionExpression: 'attribute_not_exists(pk)' } },
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
  updateWrite(ticketEntity, tenantId, current as unknown as Item, after, {
    ...precondition(current.id, options.ifMatch),
    meta: { updatedAt: Date.now() },
    add: { numberOfReplies: options.addedReplies },
  }),
  ...derivedWrites(ticketEntity, tenantId, current.id, after, ticketFields(current)),
];

/** Removes the ticket, its tags, counts and reference counts (its other children are swept after). */
export const deleteTicketWrites = (
  tenantId: string,
  current: StoredTicket,
  ifMatch?: readonly number[],
): WriteOp[] => [
  deleteWrite(ticketEntity, tenantId, current as unknown as Item, precondition(current.id, ifMatch)),
  ...derivedWrites(ticketEntity, tenantId, current.id, undefined, ticketFields(current)),
];

/**
 * The ticket-side half of a reply or note, without reading the ticket: move `managedDate` (and
 * its index entry), bump the version, and set what the caller adds (`SET` clauses and values).
 */
export const touchTicketWrite = (
  tenantId: string,
  id: string,
  now: number,
  extra: { set?: string; values?: Item } = {},
): WriteOp => {
  const managed = ticketEntity.ranges?.managedDate;
  if (!managed) throw new Error('tickets are ordered by managedDate');
  return {
    item: {
      Update: {
        Key: ticketKey(tenantId, id),
        UpdateExpression: `SET managedDate = :now, updatedAt = :now, #managed = :managed${extra.set ?? ''} ADD version :one`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#managed': SEARCH_INDEXES[managed.slot].sort },
        ExpressionAttributeValues: {
          ':now': now,
          ':managed': managed.order({ id, managedDate: now } as TicketRecord),
          ':one': 1,
          ...extra.values,
        },
      },
    },
    onConditionFailed: () => ticketMissing(id),
  };
};

/** A reply item and the check that its author is an agent of the tenant; `path` prefixes error paths. */
export const replyWrites = (tenantId: string, reply: ReplyRecord, path = ''): WriteOp[] => [
  {
    item: {
      Put: { Item: itemOf(replyEntity, tenantId, reply), ConditionExpression: 'attribute_not_exists(pk)' },
    },
  },
  ...derivedWrites(replyEntity, tenantId, reply.id, reply, undefined, path),
];

export const noteWrites = (tenantId: string, note: NoteRecord): WriteOp[] => [
  {
    item: {
      Put: { Item: itemOf(noteEntity, tenantId, note), ConditionExpression: 'attribute_not_exists(pk)' },
    },
  },
  ...derivedWrites(noteEntity, tenantId, note.id, note),
];

export const documentWrites = (tenantId: string, documents: DocumentRecord[]): WriteOp[] =>
  documents.map((doc) => ({
    item: {
      Put: { Item: itemOf(documentEntity, tenantId, doc), ConditionExpression: 'attribute_not_exists(pk)' },
    },
  }));

/** The ticket item alone (consistent), or undefined. */
export const findTicket = async (tenantId: string, id: string): Promise<StoredTicket | undefined> => {
  if (!isId(id)) return undefined;
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: ticketKey(tenantId, id), ConsistentRead: true }),
  );
  return out.Item as StoredTicket | undefined;
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
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': ticketKey(tenantId, id).pk },
        ConsistentRead: true,
        ...(projection === 'keys'
          ? { ProjectionExpression: 'pk, sk, #key', ExpressionAttributeNames: { '#key': 'key' } }
          : {}),
      })
    : [];
  const of = (kind: ReturnType<typeof childKind>) =>
    items.filter((item) => childKind(String(item.sk)) === kind);
  return {
    ticket: of('record')[0] as StoredTicket | undefined,
    replies: of('reply') as unknown as ReplyRecord[],
    notes: of('note') as unknown as NoteRecord[],
    documents: (of('document') as unknown as DocumentRecord[]).sort(
      (a, b) => a.addedAt - b.addedAt || a.position - b.position,
    ),
    keys: items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })),
  };
};

/** The children a deleted ticket leaves behind (replies, notes, documents; tags go in its transaction). */
export const childKeys = (collection: TicketCollection): ItemKey[] =>
  collection.keys.filter((k) => {
    const kind = childKind(k.sk);
    return kind !== 'record' && kind !== 'tag';
  });

/** Tag entries point at tickets (their collection's partition); tickets themselves come in one BatchGet. */
const ticketsOf = async (entries: Item[]): Promise<StoredTicket[]> => {
  if (entries.every((item) => childKind(String(item.sk)) === 'record')) return entries as StoredTicket[];
  const wanted = entries.map((entry) => ({ pk: String(entry.pk), sk: RECORD_SK }));
  const found = await getMany(wanted);
  return wanted.flatMap((key) => {
    const ticket = found.get(`${key.pk}\n${key.sk}`);
    return ticket ? [ticket as StoredTicket] : [];
  });
};

/** A page of tickets, newest first: the whole list or one search, each from its own index. */
export const listTickets = async (
  tenantId: string,
  query: { page: number; cursor?: string; search?: { param: string; value: string } },
) => {
  const page = await listPage({
    tenantId,
    resource: 'TICKET',
    target: searchTarget(ticketEntity, tenantId, query.search),
    page: query.page,
    cursor: query.cursor,
  });
  return { ...page, items: await ticketsOf(page.items) };
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
export const readRelated = async (tenantId: string, wanted: { kind: EntityKind; id: string }[]) => {
  const found = await getMany(wanted.map((w) => keys.record(tenantId, w.kind, w.id)));
  return (kind: EntityKind, id: string): Item | undefined => {
    const key = keys.record(tenantId, kind, id);
    return found.get(`${key.pk}\n${key.sk}`);
  };
};
