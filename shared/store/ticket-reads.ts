import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from './batch-get';
import { sortDocuments } from './detail-items';
import { db, tableName } from './dynamo';
import { type DocumentRecord, documentEntity, type NoteRecord, type ReplyRecord } from './entities/ticket';
import { NotFound } from './errors';
import { queryOf } from './expression';
import { isId } from './ids';
import { childKind, type EntityKind, type ItemKey, keys as keysOf } from './keys';
import { queryAll } from './query-all';
import { type TrashedTicket, trashedOf } from './ticket-trash';
import { recordKey, relatedIn, type StoredTicket, ticketKey, ticketMissing, ticketOf } from './tickets';
import { itemId } from './write-ops';

const trashedKey = keysOf.trashed;
/** Reads of one ticket: the item, its whole collection, one document record, the records it points at. */
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

/** Tickets of the tenant by id, read consistently in one BatchGet; a missing one is not in the map. */
export const findTickets = async (tenantId: string, ids: string[]): Promise<Map<string, StoredTicket>> => {
  const found = await getMany(
    ids.filter(isId).map((id) => ticketKey(tenantId, id)),
    { consistent: true },
  );
  return new Map(
    ids.flatMap((id) => {
      const ticket = isId(id) ? ticketOf(found.get(itemId(ticketKey(tenantId, id)))) : undefined;
      return ticket ? [[id, ticket] as const] : [];
    }),
  );
};

export interface TicketCollection {
  ticket: StoredTicket | undefined;
  replies: ReplyRecord[];
  notes: NoteRecord[];
  documents: DocumentRecord[];
  /** Every item key of the collection, the ticket's own and its tags' included. */
  keys: ItemKey[];
  /** The ticket as the trash keeps it, when it is in the trash (its item is in the collection). */
  trashed: TrashedTicket | undefined;
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
    trashed: trashedOf(items.find((item) => item.sk === trashedKey)),
  };
};

/**
 * One document record of one ticket of this tenant, or 404: read with the ticket in one
 * BatchGet, so a document of a ticket in the trash (its own item gone) is not found either.
 */
export const readDocument = async (tenantId: string, ticketId: string, documentId: string) => {
  const missing = () => new NotFound(`Document ${documentId} of ticket ${ticketId}`);
  if (!isId(ticketId) || !isId(documentId)) throw missing();
  const docKey = documentEntity.key(tenantId, { ticketId, id: documentId } as DocumentRecord);
  const head = ticketKey(tenantId, ticketId);
  const found = await getMany([head, docKey], { consistent: true });
  const doc = found.get(itemId(docKey));
  if (!doc || !found.has(itemId(head))) throw missing();
  return doc as unknown as DocumentRecord;
};

/** Records of the tenant by kind and id, in one BatchGet (the records tickets point at). */
export const readRelated = async (tenantId: string, wanted: { kind: EntityKind; id: string }[]) =>
  relatedIn(tenantId, await getMany(wanted.map(recordKey(tenantId))));
