import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo';
import type { DocumentRecord, NoteRecord, ReplyRecord } from './entities/ticket';
import type { Item } from './entity';
import { queryOf } from './expression';
import { isId } from './ids';
import { type ChildKind, childKind, childPrefix, DETAIL_END, RECORD_SK } from './keys';
import { queryAll } from './query-all';
import { type StoredTicket, ticketKey, ticketOf } from './tickets';

/**
 * What a ticket detail shows, read with bounded cost however long the conversation: the first
 * Query of the ticket's item collection (`readDetailHead`), which for most tickets (under 1 MB)
 * holds all of it, then, only where it did not, the rest (`finishDetailItems`). A detail
 * (`GET /ticket/{id}`) does both in turn; a list page of detail records (store/ticket-detail-page.ts)
 * reads the heads of its tickets in parallel and finishes only the records it can still carry.
 */

/** The most recent of a ticket's replies or notes that were read, oldest first, and whether they are all of them. */
export interface Recent<T> {
  items: T[];
  complete: boolean;
}

export interface TicketDetailItems {
  ticket: StoredTicket | undefined;
  replies: Recent<ReplyRecord>;
  notes: Recent<NoteRecord>;
  /** Every document record of the ticket and its replies, in the order they were added. */
  documents: DocumentRecord[];
}

/** How much of a conversation a detail reads: at most `count` items, and no more once their text passes `bytes`. */
export interface RecentLimit {
  count: number;
  bytes: number;
}

/** The first page (up to 1 MB) of a ticket's item collection, and where it stopped. */
export interface DetailHead {
  ticket: StoredTicket;
  /** The collection's partition key. */
  pk: string;
  items: Item[];
  /** The sort key the Query stopped at; undefined when it read the whole collection. */
  end: string | undefined;
}

export const sortDocuments = (documents: DocumentRecord[]) =>
  documents.sort((a, b) => a.addedAt - b.addedAt || a.position - b.position);

/** The documents of a ticket (its collection's partition `pk`) and of its replies, in the order they were added. */
export const readDocuments = async (pk: string): Promise<DocumentRecord[]> =>
  sortDocuments(
    (await queryAll({
      ...queryOf({ partition: ['pk', pk], sort: { beginsWith: ['sk', childPrefix('document')] } }),
      ConsistentRead: true,
    })) as unknown as DocumentRecord[],
  );

/**
 * One consistent Query of what a detail shows of the collection in partition `pk`, up to keys.ts
 * `DETAIL_END` (no tag items); undefined when it holds no ticket.
 */
export const readDetailHead = async (pk: string): Promise<DetailHead | undefined> => {
  const first = await db().send(
    new QueryCommand({
      TableName: tableName(),
      ...queryOf({ partition: ['pk', pk], sort: { lt: ['sk', DETAIL_END] } }),
      ConsistentRead: true,
    }),
  );
  const items = (first.Items ?? []) as Item[];
  const ticket = ticketOf(items.find((i) => i.sk === RECORD_SK));
  if (!ticket) return undefined;
  return {
    ticket,
    pk,
    items,
    end: first.LastEvaluatedKey?.sk as string | undefined,
  };
};

/** The first page read every item of a kind when it ended past all of that kind's keys. */
const readWhole = (head: DetailHead, kind: ChildKind): boolean =>
  head.end === undefined || (head.end > childPrefix(kind) && !head.end.startsWith(childPrefix(kind)));

/** The head's items of each kind of child, in sort-key order: one pass over them. */
const childrenOf = (head: DetailHead): Record<'document' | 'reply' | 'note', Item[]> => {
  const children = { document: [] as Item[], reply: [] as Item[], note: [] as Item[] };
  for (const item of head.items) {
    const kind = childKind(String(item.sk));
    if (kind === 'document' || kind === 'reply' || kind === 'note') children[kind].push(item);
  }
  return children;
};

/**
 * What a detail shows of the ticket's own collection when its head read all of it (no request),
 * else undefined. A ticket other tickets were merged into shows theirs too: `finishDetailItems`.
 */
export const wholeDetailItems = (head: DetailHead, limit: RecentLimit): TicketDetailItems | undefined => {
  if (!(readWhole(head, 'document') && readWhole(head, 'reply') && readWhole(head, 'note'))) return undefined;
  const children = childrenOf(head);
  return {
    ticket: head.ticket,
    documents: sortDocuments(children.document as unknown as DocumentRecord[]),
    replies: latest(children.reply, limit.count) as unknown as Recent<ReplyRecord>,
    notes: latest(children.note, limit.count) as unknown as Recent<NoteRecord>,
  };
};

/**
 * What a detail shows, from its head: what the head did not finish is read on its own, in
 * parallel: the document records (small) all of them, the replies and the notes newest first,
 * each until `limit` says a response could not show more of them.
 */
export const finishDetailItems = async (
  tenantId: string,
  head: DetailHead,
  limit: RecentLimit,
): Promise<TicketDetailItems> => {
  const sources = head.ticket.merged ?? [];
  if (sources.length > 0)
    return withMerged(
      await Promise.all([ownItems(head, limit), ...sources.map((s) => mergedItems(tenantId, s.id, limit))]),
      head.ticket,
      limit,
    );
  return ownItems(head, limit);
};

/** The collection of a ticket merged into another, as a detail reads it. */
const mergedItems = async (tenantId: string, id: string, limit: RecentLimit): Promise<TicketDetailItems> => {
  const source = await readDetailHead(ticketKey(tenantId, id).pk);
  return source
    ? ownItems(source, limit)
    : { ticket: undefined, replies: none(), notes: none(), documents: [] };
};

/**
 * One conversation of several tickets' (a target and those merged into it): their documents in
 * the order added, their most recent replies and notes in sort-key order (by date), complete when
 * every one was read whole and together they are within `limit`.
 */
const withMerged = (
  parts: TicketDetailItems[],
  ticket: StoredTicket,
  limit: RecentLimit,
): TicketDetailItems => {
  const union = <T>(of: (p: TicketDetailItems) => Recent<T>): Recent<T> => {
    const items = parts.flatMap((p) => of(p).items as Item[]).sort(bySortKey);
    const recent = latest(items, limit.count) as unknown as Recent<T>;
    return { items: recent.items, complete: recent.complete && parts.every((p) => of(p).complete) };
  };
  return {
    ticket,
    documents: sortDocuments(parts.flatMap((p) => p.documents)),
    replies: union((p) => p.replies),
    notes: union((p) => p.notes),
  };
};

/** Items of one kind of several collections in one order: their sort keys' (replies: by date). */
const bySortKey = (a: Item, b: Item) =>
  String(a.sk) < String(b.sk) ? -1 : String(a.sk) > String(b.sk) ? 1 : 0;

/** What a detail shows of one ticket's own collection, from its head. */
const ownItems = async (head: DetailHead, limit: RecentLimit): Promise<TicketDetailItems> => {
  const whole = wholeDetailItems(head, limit);
  if (whole) return whole;
  const children = childrenOf(head);
  const recent = (kind: 'reply' | 'note') =>
    readWhole(head, kind) ? latest(children[kind], limit.count) : readRecent(head.pk, kind, limit);
  const [documents, replies, notes] = await Promise.all([
    readWhole(head, 'document')
      ? sortDocuments(children.document as unknown as DocumentRecord[])
      : readDocuments(head.pk),
    recent('reply'),
    recent('note'),
  ]);
  return {
    ticket: head.ticket,
    replies: replies as unknown as Recent<ReplyRecord>,
    notes: notes as unknown as Recent<NoteRecord>,
    documents,
  };
};

/** What a ticket detail shows: its head, then what the head did not finish. */
export const readDetailItems = async (
  tenantId: string,
  id: string,
  limit: RecentLimit,
): Promise<TicketDetailItems> => {
  const head = isId(id) ? await readDetailHead(ticketKey(tenantId, id).pk) : undefined;
  if (!head) return { ticket: undefined, replies: none(), notes: none(), documents: [] };
  return finishDetailItems(tenantId, head, limit);
};

const none = <T>(): Recent<T> => ({ items: [], complete: true });

/** The last `count` of items read whole (oldest first). */
const latest = (items: Item[], count: number): Recent<Item> => ({
  items: items.slice(Math.max(0, items.length - count)),
  complete: items.length <= count,
});

const textOf = (kind: 'reply' | 'note', item: Item): string =>
  String(kind === 'reply' ? item.text : item.note);

/**
 * A ticket's replies or notes newest first, one Query per MB, until `limit.count` are read or
 * their text alone passes `limit.bytes` (their JSON is at least as long: a response could not
 * show more of them). Returned oldest first.
 */
const readRecent = async (pk: string, kind: 'reply' | 'note', limit: RecentLimit): Promise<Recent<Item>> => {
  const found: Item[] = [];
  let from: Item | undefined;
  let bytes = 0;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        ...queryOf({ partition: ['pk', pk], sort: { beginsWith: ['sk', childPrefix(kind)] } }),
        ConsistentRead: true,
        ScanIndexForward: false,
        Limit: limit.count + 1 - found.length,
        ExclusiveStartKey: from,
      }),
    );
    for (const item of out.Items ?? []) {
      found.push(item);
      bytes += Buffer.byteLength(textOf(kind, item), 'utf8');
    }
    from = out.LastEvaluatedKey;
  } while (from && found.length <= limit.count && bytes <= limit.bytes);
  return {
    items: found.slice(0, limit.count).reverse(),
    complete: !from && found.length <= limit.count,
  };
};
