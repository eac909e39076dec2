/**
 * Key builders: the only code that knows how partition keys, sort keys, counter names and
 * object keys are spelled. Every tenant-owned key starts with `T#<tenantId>#`, so no key
 * built for one tenant can address another tenant's item. Other modules (the CDK stack
 * included) import prefixes from here instead of spelling them.
 */
export type EntityKind =
  | 'CUSTOMER'
  | 'AGENT'
  | 'TICKET_TYPE'
  | 'TICKET_AREA'
  | 'TICKET_GROUP'
  | 'TICKET'
  | 'WEBHOOK';

export interface ItemKey {
  pk: string;
  sk: string;
}

/** The sort key of a record's own item inside its item collection (tickets add replies, notes...). */
export const RECORD_SK = '#';

/** Partition prefix of the rate-limit windows (the stack grants read routes UpdateItem on these only). */
export const RATE_PREFIX = 'RATE#';

/** The attribute that marks a cascade item (store/cascades.ts; the stream filter of infra/cascade-worker.ts). */
export const CASCADE_ATTRIBUTE = 'cascade';

/** The `entity` of a trashed-ticket item (store/ticket-trash.ts; the cascade worker's stream filter names it). */
export const TRASHED_TICKET = 'TRASHED_TICKET';

/**
 * Marks the item at an erased customer's key (store/customer-erasure.ts): every read takes it for
 * missing, no new reference can point at it.
 */
export const ERASED_MARK = 'erasedAt';

/** Object-key prefix of customers' export documents (a lifecycle rule expires them). */
export const EXPORTS_PREFIX = 'exports/';

/** Object-key prefix of presigned uploads waiting to be attached (a lifecycle rule expires them). */
export const STAGING_PREFIX = 'staging/';

/** Object-key prefix of import files (a lifecycle rule expires them, store/imports.ts IMPORT_KEPT_DAYS). */
export const IMPORTS_PREFIX = 'imports/';

/** The `entity` of an import job's item (store/imports.ts; `npm start` resumes the running ones). */
export const IMPORT_JOB = 'IMPORT_JOB';

const TENANT = 'T#';
const CLIENT = 'CLIENT#';
const TOKEN = 'TOKEN#';
const DELIVERIES = '#DELIVERIES';
const PENDING = '#PENDING';
const REDELIVERY = '#REDELIVERY';
const CASCADES = '#CASCADES';
const EVENTS = '#EVENTS';

/** Sort-key prefixes of the items in a ticket's collection. */
const CHILD = { reply: 'R#', note: 'N#', document: 'D#', tag: 'TAG#' } as const;
export type ChildKind = keyof typeof CHILD;
const CHILD_KINDS = Object.keys(CHILD) as ChildKind[];

/** Sort-key prefix of one kind of item in a ticket's collection: `begins_with` on it reads that kind alone. */
export const childPrefix = (kind: ChildKind): string => CHILD[kind];

/**
 * Where a ticket detail's read of the collection stops (store/detail-items.ts `readDetailHead`,
 * `sk < DETAIL_END`): everything it shows (the ticket at RECORD_SK, documents, notes, replies)
 * sorts before the tag items, which with the trashed ticket's item (`keys.trashed`) sort from here
 * on. The ticket carries its tags, so a detail pays no read units for their index entries.
 */
export const DETAIL_END = CHILD.tag;

/** Zero-padded so that lexicographic order equals numeric order for any non-negative ms timestamp. */
const padTime = (ms: number): string => String(ms).padStart(15, '0');

/** What `sortableTime` adds: every safe integer becomes a non-negative one (2^53, exact as a double too). */
const TIME_OFFSET = 2 ** 53;
const BIG_TIME_OFFSET = BigInt(TIME_OFFSET);

/** Lexicographic order equals numeric order for any safe integer, negative ones included. */
export const sortableTime = (ms: number): string =>
  (BigInt(ms) + BIG_TIME_OFFSET).toString().padStart(17, '0');

/** The instant an order built by `keys.byCreation` starts with. */
export const creationTimeOf = (order: string): number => Number(order.slice(0, 15));

/**
 * The instant an order built by `keys.byTime` (or any `sortableTime` prefix) starts with: its 17
 * digits are `ms + 2^53`, up to 2^54, past what a double holds exactly. Read as two numbers,
 * every step is exact (the first 9 digits times 1e8 are 256 times an integer under 2^47; what
 * follows stays an integer of at most 2^53), and no BigInt is made: every ticket read derives its
 * `managedDate` here. test/unit/sortable-time.test.ts checks every safe integer's round trip.
 */
export const timeOf = (order: string): number =>
  Number(order.slice(0, 9)) * 1e8 - TIME_OFFSET + Number(order.slice(9, 17));

const tenantPrefix = (tenantId: string) => `${TENANT}${tenantId}#`;

/** The tenant of a tenant's partition `T#<tenant><suffix>`; undefined when `pk` is not one. */
const tenantOfPartition = (pk: string, suffix: string): string | undefined =>
  pk.startsWith(TENANT) && pk.endsWith(suffix) && pk.length > TENANT.length + suffix.length
    ? pk.slice(TENANT.length, -suffix.length)
    : undefined;

/** `<field>=<value>` after `prefix` (field names hold no `=`; values may). */
const fieldValue = (text: string, prefix: string): { field: string; value: string } | undefined => {
  if (!text.startsWith(prefix)) return undefined;
  const rest = text.slice(prefix.length);
  const at = rest.indexOf('=');
  return at > 0 ? { field: rest.slice(0, at), value: rest.slice(at + 1) } : undefined;
};

export const keys = {
  client: (clientId: string): ItemKey => ({ pk: `${CLIENT}${clientId}`, sk: 'CLIENT' }),
  accessToken: (clientId: string, tokenHash: string): ItemKey => ({
    pk: `${CLIENT}${clientId}`,
    sk: `${TOKEN}${tokenHash}`,
  }),
  /** Sort-key prefix of every access token of a client (revocation deletes them all). */
  accessTokenPrefix: TOKEN,
  /** `list` index partition holding every client (operator CLI `client list`). */
  clientList: (): string => 'CLIENTS',
  /** The `list` partition of the import jobs running now, of every tenant (store/imports.ts). */
  runningImports: (): string => 'IMPORTS_RUNNING',

  record: (tenantId: string, kind: EntityKind, id: string): ItemKey => ({
    pk: `${tenantPrefix(tenantId)}${kind}#${id}`,
    sk: RECORD_SK,
  }),
  /** `list` index partition of one kind in one tenant. */
  list: (tenantId: string, kind: EntityKind): string => `${tenantPrefix(tenantId)}${kind}`,
  /** Search partition: one exact value of one field (or one value of a multi-valued field). */
  search: (tenantId: string, kind: EntityKind, field: string, value: string): string =>
    `${tenantPrefix(tenantId)}${kind}#${field}=${value}`,
  /** The field and value a search partition of a kind names (undefined: not one, e.g. a range partition). */
  searchOf: (
    tenantId: string,
    kind: EntityKind,
    partition: string,
  ): { field: string; value: string } | undefined =>
    fieldValue(partition, `${tenantPrefix(tenantId)}${kind}#`),
  /** Range partition: every record of a kind, ordered by one field (e.g. `managedDate`). */
  range: (tenantId: string, kind: EntityKind, field: string): string =>
    `${tenantPrefix(tenantId)}${kind}#${field}`,
  /** Newest-first ordering inside a list or search partition: creation time, ties by id. */
  byCreation: (createdAt: number, id: string): string => `${padTime(createdAt)}#${id}`,
  /** Ordering by a timestamp that may be negative (range searches). */
  byTime: (ms: number, id: string): string => `${sortableTime(ms)}#${id}`,

  /** A trashed ticket's item, in its collection where the ticket's own was (store/ticket-trash.ts). */
  trashed: 'TRASH',
  /** `list` index partition of a tenant's trashed tickets, newest deletion first. */
  trash: (tenantId: string): string => `${tenantPrefix(tenantId)}TICKET_TRASH`,

  /** Items of a ticket's collection, next to the ticket at RECORD_SK (so one Query reads it all). */
  reply: (replyDate: number, replyId: string): string =>
    `${CHILD.reply}${sortableTime(replyDate)}#${replyId}`,
  note: (noteId: string): string => `${CHILD.note}${noteId}`,
  /** Document records (read by id for downloads; ordered by their `addedAt`, `position`). */
  document: (documentId: string): string => `${CHILD.document}${documentId}`,
  /** One item per value of a multi-valued field (a ticket's tags). */
  tag: (tag: string): string => `${CHILD.tag}${tag}`,

  /** The history of one ticket or customer (store/history.ts): its own partition, beside the record's. */
  history: (tenantId: string, kind: 'TICKET' | 'CUSTOMER', id: string): string =>
    `${keys.record(tenantId, kind, id).pk}#HISTORY`,
  /** The tenant's change feed: one partition, events ordered by `eventOrder`. */
  events: (tenantId: string): string => `${TENANT}${tenantId}${EVENTS}`,
  /** The tenant whose feed partition `pk` is; undefined when `pk` is not a feed partition. */
  tenantOfEvents: (pk: string): string | undefined => tenantOfPartition(pk, EVENTS),
  /** An event's place in the feed: the instant its write was sent, then its id (unique). */
  eventOrder: (stamp: number, eventId: string): string => `${sortableTime(stamp)}#${eventId}`,

  /** Delivery attempts to one webhook subscription: their own partition, beside the record's. */
  deliveries: (tenantId: string, webhookId: string): string =>
    `${tenantPrefix(tenantId)}WEBHOOK#${webhookId}${DELIVERIES}`,
  /** An attempt's place among them: when it was made, the event, the attempt's number (unique). */
  deliveryOrder: (at: number, eventId: string, attempt: number): string =>
    `${sortableTime(at)}#${eventId}#${String(attempt).padStart(4, '0')}`,

  /**
   * What one subscription has not yet been delivered: one item per event it wants, from the
   * fan-out until a receiver took it (store/pending-deliveries.ts), ordered as the feed
   * (`eventOrder`: the event's own sort key).
   */
  pendingDeliveries: (tenantId: string, webhookId: string): string =>
    `${tenantPrefix(tenantId)}WEBHOOK#${webhookId}${PENDING}`,
  /** The redelivery of what a subscription held while it was not enabled (one item per subscription). */
  redelivery: (tenantId: string, webhookId: string): ItemKey => ({
    pk: `${tenantPrefix(tenantId)}WEBHOOK#${webhookId}${REDELIVERY}`,
    sk: RECORD_SK,
  }),
  /**
   * Work a committed removal left to do (store/cascades.ts): one item per removal, written in its
   * transaction, marked done by the cascade worker once everything the removed parent held is gone.
   */
  cascades: (tenantId: string): string => `${TENANT}${tenantId}${CASCADES}`,
  /** The tenant whose cascade partition `pk` is; undefined when `pk` is not one. */
  tenantOfCascades: (pk: string): string | undefined => tenantOfPartition(pk, CASCADES),
  /** The tenant's delivery slots: how many of its webhook attempts may run at once (store/delivery-slots.ts). */
  deliverySlots: (tenantId: string): string => `${tenantPrefix(tenantId)}DELIVERY_SLOTS`,

  /** An import job (store/imports.ts): its state, counts and how far it read its file. */
  importJob: (tenantId: string, jobId: string): ItemKey => ({
    pk: `${tenantPrefix(tenantId)}IMPORT#${jobId}`,
    sk: RECORD_SK,
  }),
  /** The failed lines of an import job, by line number (`importLine`). */
  importErrors: (tenantId: string, jobId: string): string =>
    `${tenantPrefix(tenantId)}IMPORT#${jobId}#ERRORS`,
  /** A line's place among them: its number, zero-padded (so they sort as numbers). */
  importLine: (line: number): string => String(line).padStart(12, '0'),
  /**
   * What one source record (a kind and its id in the help desk being left) became here: the
   * record's id, written in the transaction that created it, so a second import skips it.
   */
  importSource: (tenantId: string, kind: string, externalId: string): ItemKey => ({
    pk: `${tenantPrefix(tenantId)}SOURCE#${kind}#${externalId}`,
    sk: RECORD_SK,
  }),

  /** The remembered outcome of a request sent with an Idempotency-Key (hashed) in a tenant. */
  idempotency: (tenantId: string, keyHash: string): ItemKey => ({
    pk: `${tenantPrefix(tenantId)}IDEMPOTENCY#${keyHash}`,
    sk: RECORD_SK,
  }),

  /** What one subject (`rateSubjects`) was granted in one minute (rate limiting); always under RATE#. */
  rateWindow: (subject: string, minute: number): ItemKey => ({
    pk: `${RATE_PREFIX}${subject}`,
    sk: String(minute),
  }),

  /** Guard item that makes a field value unique in a tenant (e.g. customer e-mail). */
  unique: (tenantId: string, kind: EntityKind, field: string, value: string): ItemKey => ({
    pk: `${tenantPrefix(tenantId)}UNIQUE#${kind}#${field}=${value}`,
    sk: RECORD_SK,
  }),
  /** Counter items of a tenant live in one partition, one sort key per counted set. */
  counter: (tenantId: string, name: string): ItemKey => ({
    pk: `${tenantPrefix(tenantId)}COUNTERS`,
    sk: name,
  }),
};

/** What a rate window counts, spelled after `RATE#`; ids are hex, so no subject can spell another. */
const RATE_SUBJECT = {
  authFailures: 'AUTHFAIL#',
  authFailuresFrom: 'AUTHIP#',
  tokenExchanges: 'TOKEN#',
} as const;

export const rateSubjects = {
  /** The requests of an authenticated client (RATE_LIMIT_PER_MINUTE). */
  requests: (clientId: string): string => clientId,
  /** Failed authentications naming a clientId, known or not. */
  authFailures: (clientId: string): string => `${RATE_SUBJECT.authFailures}${clientId}`,
  /** Failed authentications from one source address (an IPv4 address or an IPv6 /64). */
  authFailuresFrom: (address: string): string => `${RATE_SUBJECT.authFailuresFrom}${address}`,
  /** Access tokens issued to a client. */
  tokenExchanges: (clientId: string): string => `${RATE_SUBJECT.tokenExchanges}${clientId}`,
};

/** Names of counter items (sort keys in the tenant's counter partition). */
export const counterNames = {
  /** Every record of a kind. */
  total: (kind: EntityKind): string => kind,
  /** Records of a kind with one value of one searchable field. */
  search: (kind: EntityKind, field: string, value: string): string => `${kind}#${field}=${value}`,
  /** What a counter name built by `search` counts (undefined: another counter, a total or a sequence). */
  searchOf: (name: string): { kind: EntityKind; field: string; value: string } | undefined => {
    const kind = name.slice(0, name.indexOf('#'));
    if (!KINDS.includes(kind)) return undefined;
    const found = fieldValue(name, `${kind}#`);
    return found && { kind: kind as EntityKind, ...found };
  },
  /** The tenant's trashed tickets. */
  trash: 'TICKET_TRASH',
  /** The ticket-number sequence of one UTC year. */
  sequence: (name: string, year: number): string => `${name}_SEQ#${year}`,
};

/** Object keys in the attachments bucket: every object of a tenant under `t/<tenant>/`. */
export const blobKeys = {
  document: (tenantId: string, ticketId: string, documentId: string): string =>
    `t/${tenantId}/ticket/${ticketId}/${documentId}`,
  /** Every object of one ticket (its documents, and any a failed write could not take back). */
  ticketFiles: (tenantId: string, ticketId: string): string => `t/${tenantId}/ticket/${ticketId}/`,
  photo: (tenantId: string, photoId: string): string => `t/${tenantId}/customer-photo/${photoId}`,
  /**
   * A customer's export documents (domain/customer-export.ts), under their own top-level prefix so
   * that one lifecycle rule removes them (infra/attachments-bucket.ts); an erasure removes them all.
   */
  customerExports: (tenantId: string, customerId: string): string =>
    `${EXPORTS_PREFIX}${tenantId}/${customerId}/`,
  customerExport: (tenantId: string, customerId: string, jobId: string): string =>
    `${EXPORTS_PREFIX}${tenantId}/${customerId}/${jobId}.json`,
  staging: (tenantId: string, uploadId: string): string => `${STAGING_PREFIX}${tenantId}/${uploadId}`,
  /** An import job's file (NDJSON, docs/import.md), uploaded to a presigned address. */
  importFile: (tenantId: string, jobId: string): string => `${IMPORTS_PREFIX}${tenantId}/${jobId}.ndjson`,
};

/** True when the key belongs to this tenant (a signed cursor can still only resume inside it). */
export const ownedBy = (tenantId: string, pk: string): boolean => pk.startsWith(tenantPrefix(tenantId));

/** What a sort key inside a ticket's collection holds. */
export const childKind = (sk: string): ChildKind | 'record' | undefined => {
  if (sk === RECORD_SK) return 'record';
  return CHILD_KINDS.find((kind) => sk.startsWith(CHILD[kind]));
};

const KINDS: readonly string[] = [
  'CUSTOMER',
  'AGENT',
  'TICKET_TYPE',
  'TICKET_AREA',
  'TICKET_GROUP',
  'TICKET',
  'WEBHOOK',
];

/**
 * What an item is, from its key alone (items do not store their type: it is in the key):
 * `TICKET`, `TICKET_REPLY`, `TICKET_NOTE`, `TICKET_DOCUMENT`, `TICKET_TAG`, a record kind,
 * `WEBHOOK_DELIVERY`, `WEBHOOK_PENDING`, `WEBHOOK_REDELIVERY`, `DELIVERY_SLOT`, `COUNTER`, `UNIQUE`, `IDEMPOTENCY`, `CLIENT`, `ACCESS_TOKEN`, `RATE_WINDOW`, or `ITEM`.
 */
export const itemKindOf = (pk: string, sk: string): string => {
  if (pk.startsWith(RATE_PREFIX)) return 'RATE_WINDOW';
  if (pk.startsWith(CLIENT)) return sk.startsWith(TOKEN) ? 'ACCESS_TOKEN' : 'CLIENT';
  if (!pk.startsWith(TENANT)) return 'ITEM';
  const rest = pk.slice(pk.indexOf('#', TENANT.length) + 1);
  if (rest === 'COUNTERS') return 'COUNTER';
  if (rest.startsWith('UNIQUE#')) return 'UNIQUE';
  if (rest.startsWith('IDEMPOTENCY#')) return 'IDEMPOTENCY';
  if (rest === 'DELIVERY_SLOTS') return 'DELIVERY_SLOT';
  const kind = KINDS.find((k) => rest.startsWith(`${k}#`));
  if (!kind) return 'ITEM';
  if (kind === 'WEBHOOK' && rest.endsWith(DELIVERIES)) return 'WEBHOOK_DELIVERY';
  if (kind === 'WEBHOOK' && rest.endsWith(PENDING)) return 'WEBHOOK_PENDING';
  if (kind === 'WEBHOOK' && rest.endsWith(REDELIVERY)) return 'WEBHOOK_REDELIVERY';
  if (kind !== 'TICKET') return kind;
  const child = childKind(sk);
  return child === 'record' || child === undefined ? 'TICKET' : `TICKET_${child.toUpperCase()}`;
};
