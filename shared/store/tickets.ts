import { TICKET_META, type TicketRecord, ticketEntity } from './entities/ticket';
import type { Item } from './entity';
import { hydrate, itemOf, liveItem, recordOf } from './entity-item';
import { Conflict, NotFound } from './errors';
import type { Cond } from './expression';
import { type EntityKind, type ItemKey, keys } from './keys';
import { itemId } from './write-ops';

/**
 * A ticket item: its key, what is stored of a ticket and how an item reads back, and the records a
 * read of tickets fetched besides them (`Related`). Writes: ticket-writes.ts; reads:
 * ticket-reads.ts; pages: ticket-pages.ts. The rules (defaults, numbering, who replies next) are
 * the domain's (domain/ticket-rules.ts).
 */
export type StoredTicket = TicketRecord & { version: number };

export const ticketMissing = (id: string) => new NotFound(`Ticket ${id}`);
/** A ticket merged into another takes no reply, note, change or delete: only its unmerge. */
export const ticketMerged = (id: string, into: unknown) =>
  new Conflict(
    'ticket-merged',
    `Ticket ${id} was merged into ticket ${String(into)}: it takes no replies, notes or changes. Unmerge it first (PUT /ticket/unmerge/${id}).`,
  );

/** The condition of every write a merged ticket refuses (the merge's own writes stand in for it). */
export const NOT_MERGED: Cond = { missing: 'mergedInto' };

export const ticketKey = (tenantId: string, id: string): ItemKey => keys.record(tenantId, 'TICKET', id);

export const ticketItem = (tenantId: string, ticket: TicketRecord, version: number): Item =>
  itemOf(ticketEntity, tenantId, ticket, { version });

export const ticketFields = (item: StoredTicket): TicketRecord => recordOf<TicketRecord>(item, TICKET_META);

/** A ticket item as read, with what is not stored (dates the keys hold, empty lists) put back. */
export const ticketOf = (item: Item | undefined): StoredTicket | undefined =>
  item && (hydrate(ticketEntity, item) as StoredTicket);

/** Finds a record by kind and id among those a read fetched (undefined when it was deleted since). */
export type Related = (kind: EntityKind, id: string) => Item | undefined;

/** What a page of tickets expands: the records its tickets point at, by kind and id. */
export type RelatedOf = (tickets: Partial<TicketRecord>[]) => { kind: EntityKind; id: string }[];

export const recordKey = (tenantId: string) => (w: { kind: EntityKind; id: string }) =>
  keys.record(tenantId, w.kind, w.id);

/** Finds records of the tenant by kind and id among items reads fetched. */
export const relatedIn = (tenantId: string, ...found: ReadonlyMap<string, Item>[]): Related => {
  // A page's views ask for the same few agents and lookups again and again: answered by kind,
  // then id, with no key built (a list page of 25 details asks some 270 times).
  const looked = new Map<EntityKind, Map<string, Item | null>>();
  return (kind, id) => {
    let ofKind = looked.get(kind);
    if (!ofKind) {
      ofKind = new Map();
      looked.set(kind, ofKind);
    }
    // null: looked for and not found.
    const known = ofKind.get(id);
    if (known !== undefined) return known ?? undefined;
    const key = itemId(keys.record(tenantId, kind, id));
    let item: Item | undefined;
    for (const items of found) {
      // An erased customer's mark is no record: its tickets show none.
      item = liveItem(items.get(key));
      if (item) break;
    }
    ofKind.set(id, item ?? null);
    return item;
  };
};
