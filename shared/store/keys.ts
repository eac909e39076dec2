/**
 * Key builders: the only code that knows how partition and sort keys are spelled.
 * Every tenant-owned key starts with `T#<tenantId>#`, so no key built for one tenant can
 * address another tenant's item.
 */
export type EntityKind = 'CUSTOMER' | 'AGENT' | 'TICKET_TYPE' | 'TICKET_AREA' | 'TICKET_GROUP' | 'TICKET';

export interface ItemKey {
  pk: string;
  sk: string;
}

/** The sort key of a record's own item inside its item collection (tickets add replies, notes...). */
export const RECORD_SK = '#';

/** Zero-padded so that lexicographic order equals numeric order for any non-negative ms timestamp. */
const padTime = (ms: number): string => String(ms).padStart(15, '0');

/** Lexicographic order equals numeric order for any safe integer, negative ones included. */
export const sortableTime = (ms: number): string => (BigInt(ms) + 2n ** 53n).toString().padStart(17, '0');

export const keys = {
  client: (clientId: string): ItemKey => ({ pk: `CLIENT#${clientId}`, sk: 'CLIENT' }),
  accessToken: (clientId: string, tokenHash: string): ItemKey => ({
    pk: `CLIENT#${clientId}`,
    sk: `TOKEN#${tokenHash}`,
  }),
  /** `list` index partition holding every client (operator CLI `client list`). */
  clientList: (): string => 'CLIENTS',

  record: (tenantId: string, kind: EntityKind, id: string): ItemKey => ({
    pk: `T#${tenantId}#${kind}#${id}`,
    sk: RECORD_SK,
  }),
  /** `list` index partition of one kind in one tenant. */
  list: (tenantId: string, kind: EntityKind): string => `T#${tenantId}#${kind}`,
  /** Search slot partition: one exact value of one field. */
  search: (tenantId: string, kind: EntityKind, field: string, value: string): string =>
    `T#${tenantId}#${kind}#${field}=${value}`,
  /** Newest-first ordering inside a list or search partition: creation time, ties by id. */
  byCreation: (createdAt: number, id: string): string => `${padTime(createdAt)}#${id}`,

  /** Items of a ticket's collection, next to the ticket at RECORD_SK (so one Query reads it all). */
  reply: (replyDate: number, replyId: string): string => `R#${sortableTime(replyDate)}#${replyId}`,
  note: (noteId: string): string => `N#${noteId}`,
  /** Document records (read by id for downloads; ordered by their `addedAt`, `position`). */
  document: (documentId: string): string => `D#${documentId}`,
  /** One item per tag of a ticket; its `list` index entry is the tag's search partition. */
  tag: (tag: string): string => `TAG#${tag}`,
  /** Tickets ordered by last change, for `managedDate` (incremental sync) searches. */
  managed: (tenantId: string): string => `T#${tenantId}#TICKET#managedDate`,
  byManaged: (managedDate: number, id: string): string => `${sortableTime(managedDate)}#${id}`,

  /** The remembered outcome of a request sent with an Idempotency-Key (hashed) in a tenant. */
  idempotency: (tenantId: string, keyHash: string): ItemKey => ({
    pk: `T#${tenantId}#IDEMPOTENCY#${keyHash}`,
    sk: RECORD_SK,
  }),

  /** Requests a client was granted in one minute (rate limiting). */
  rateWindow: (clientId: string, minute: number): ItemKey => ({ pk: `RATE#${clientId}`, sk: String(minute) }),

  /** Guard item that makes a field value unique in a tenant (e.g. customer e-mail). */
  unique: (tenantId: string, kind: EntityKind, field: string, value: string): ItemKey => ({
    pk: `T#${tenantId}#UNIQUE#${kind}#${field}=${value}`,
    sk: RECORD_SK,
  }),
  /** Counter items of a tenant live in one partition, one sort key per counted set. */
  counter: (tenantId: string, name: string): ItemKey => ({ pk: `T#${tenantId}#COUNTERS`, sk: name }),
};
