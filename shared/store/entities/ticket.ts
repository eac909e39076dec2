import { searchValue } from '../../schemas/list-query';
import { parseStatus, STATUSES, type Status, TICKET_LIMITS, type TicketInput } from '../../schemas/ticket';
import type { Entity, Item, Pointer, Reference, SlotSearch } from '../entity';
import { creationTimeOf, type EntityKind, keys, sortableTime, timeOf } from '../keys';
import { LEGACY_TICKET_META } from '../migrations/legacy';
import { FEED_CLOCK, PAGE_ATTRIBUTES } from '../table-schema';

/**
 * A ticket is one item collection (`T#<tenant>#TICKET#<id>`): the ticket at `#`, and one item
 * per reply (`R#…`), note (`N#…`), document record (`D#…`) and tag (`TAG#…`). Each item type
 * is declared here once; the entity engine derives indexes, counters, tag items and
 * reference counts from these declarations.
 */
type Refs = 'openedBy' | 'assignedTo' | 'cc' | 'type' | 'area' | 'group';

/** The ticket as stored: body references `{id}` kept as plain ids, every field present. */
export type TicketRecord = Required<Omit<TicketInput, Refs | 'replies' | 'attachedDocuments'>> & {
  id: string;
  number: string;
  insertDate: number;
  managedDate: number;
  closedDate: number | null;
  numberOfReplies: number;
  status: Status;
  openedBy: string;
  assignedTo: string | null;
  cc: string[];
  type: string | null;
  area: string | null;
  group: string | null;
  /** A ticket merged into another (docs/decisions.md, "Merge"): that ticket, and when. */
  mergedInto?: string | null;
  mergedAt?: number | null;
  /** What a merge changed of it, which an unmerge puts back. */
  premerge?: { status: Status; closedDate: number | null } | null;
  /** The tickets merged into this one, oldest merge first. */
  merged?: MergedSource[];
};

/** A ticket merged into this one, and what the merge brought (an unmerge takes it back). */
export interface MergedSource {
  id: string;
  /** When it was merged (ms). */
  at: number;
  /** Its tags and cc agents, and those of them this ticket did not have before the merge. */
  tags: string[];
  cc: string[];
  addedTags: string[];
  addedCc: string[];
}

/**
 * Attributes the store keeps on the ticket item besides its fields, not part of the record read
 * back; and those of older tickets, which their next write removes (migrations/legacy.ts).
 */
export const TICKET_META = ['version', FEED_CLOCK, ...LEGACY_TICKET_META] as const;

/** The page attributes (table-schema.ts) a ticket has: what its tag items carry for a page of a tag search. */
const pageAttributes = (t: TicketRecord): Item =>
  Object.fromEntries(
    PAGE_ATTRIBUTES.flatMap((name) => {
      const value = t[name];
      return value === null || value === undefined ? [] : [[name, value]];
    }),
  );

const one =
  (field: 'openedBy' | 'assignedTo' | 'type' | 'area' | 'group') =>
  (t: TicketRecord): Pointer[] => {
    const id = t[field];
    return id ? [{ id, path: `${field}.id` }] : [];
  };

const counted = (
  kind: EntityKind,
  label: string,
  pointers: (t: TicketRecord) => Pointer[],
  alsoCounts?: string,
): Reference<TicketRecord> => ({
  kind,
  label,
  counted: true,
  pointers,
  ...(alsoCounts ? { alsoCounts } : {}),
});

/**
 * A search by a reference is counted on the record it names: its `refCount` when this is the
 * only counted pointer at that kind (exact for tickets written before issue 12 too), else the
 * attribute the reference also counts in.
 */
const byReference = (
  slot: SlotSearch<TicketRecord>['slot'],
  field: 'openedBy' | 'assignedTo' | 'type' | 'area' | 'group',
  kind: EntityKind,
  attribute = 'refCount',
): SlotSearch<TicketRecord> => ({
  slot,
  value: (t) => t[field] ?? undefined,
  count: { on: 'reference', kind, attribute },
});

export const ticketEntity: Entity<TicketRecord> = {
  entity: 'TICKET',
  label: 'Ticket',
  key: (tenantId, t) => keys.record(tenantId, 'TICKET', t.id),
  list: {
    kind: 'TICKET',
    order: (t) => keys.byCreation(t.insertDate, t.id),
    // Every ticket has a priority, 0 or 1: a bare ?page=n skips through those two partitions.
    coveredBy: { param: 'priority', values: ['0', '1'] },
  },
  searches: {
    // Few values: counted on the tickets' total counter item, in the element that moves the total.
    status: {
      slot: 's1',
      value: (t) => t.status,
      input: searchValue(parseStatus, `must be one of ${STATUSES.join(', ')}`),
      count: { on: 'total' },
    },
    priority: {
      slot: 's2',
      value: (t) => String(t.priority),
      input: searchValue((raw) => (raw === '0' || raw === '1' ? raw : undefined), 'must be 0 or 1'),
      count: { on: 'total' },
    },
    'openedBy._id': byReference('s3', 'openedBy', 'CUSTOMER'),
    'assignedTo._id': byReference('s4', 'assignedTo', 'AGENT', 'assigned'),
    'type._id': byReference('s5', 'type', 'TICKET_TYPE'),
    'area._id': byReference('s6', 'area', 'TICKET_AREA'),
    'group._id': byReference('s7', 'group', 'TICKET_GROUP'),
    // The ticket's key in an integrator's own system, matched exactly; a longer value than a
    // ticket can hold is a 400 (and could not name a counter: sort keys stop at 1 KB).
    // Matches one ticket or a few: the page counts what it finds (no count kept).
    externalId1: {
      slot: 's9',
      value: (t) => t.externalId1 ?? undefined,
      count: { on: 'entries' },
      input: searchValue(
        (raw) => (raw.length <= TICKET_LIMITS.externalId ? raw : undefined),
        `at most ${TICKET_LIMITS.externalId} characters`,
      ),
    },
  },
  // Tags: one item per tag in the ticket's collection; its `list` entry serves `?tags=<tag>`.
  multi: {
    tags: {
      input: searchValue((raw) => raw.trim() || undefined, 'must not be blank'),
      values: (t) => t.tags ?? [],
      sk: keys.tag,
      // With the ticket's page attributes, so a tag page reads tickets and their records at once.
      attributes: (t, tag) => ({ entity: 'TICKET_TAG', ticketId: t.id, tag, ...pageAttributes(t) }),
    },
  },
  // `?managedDate=<ms>`: tickets changed since, for incremental sync.
  ranges: {
    managedDate: {
      slot: 's8',
      input: searchValue(
        (raw) => (/^-?\d{1,16}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? raw : undefined),
        'must be a millisecond timestamp',
      ),
      order: (t) => keys.byTime(t.managedDate, t.id),
      from: (raw) => sortableTime(Number(raw)),
    },
  },
  // Not stored: the order keys hold both dates (listsk, s8sk); empty lists are left out.
  derived: {
    insertDate: (item) => (typeof item.listsk === 'string' ? creationTimeOf(item.listsk) : undefined),
    managedDate: (item) => (typeof item.s8sk === 'string' ? timeOf(item.s8sk) : undefined),
  },
  defaults: { cc: [], customFields: [], tags: [], merged: [] },
  // Counted: a customer with tickets, or an agent or lookup a ticket uses, cannot be deleted.
  references: [
    counted('CUSTOMER', 'Customer', one('openedBy')),
    counted('AGENT', 'Agent', one('assignedTo'), 'assigned'),
    counted('AGENT', 'Agent', (t) => (t.cc ?? []).map((id, i) => ({ id, path: `cc.${i}.id` }))),
    counted('TICKET_TYPE', 'Ticket type', one('type')),
    counted('TICKET_AREA', 'Ticket area', one('area')),
    counted('TICKET_GROUP', 'Ticket group', one('group')),
  ],
};

const inTicket = (tenantId: string, ticketId: string) => keys.record(tenantId, 'TICKET', ticketId).pk;

export interface ReplyRecord {
  id: string;
  ticketId: string;
  text: string;
  replyDate: number;
  replyFromOperator: string | null;
}

/** Replies sort by their date inside the collection; the author must be an agent of the tenant. */
export const replyEntity: Entity<ReplyRecord> = {
  entity: 'TICKET_REPLY',
  label: 'Reply',
  key: (tenantId, r) => ({ pk: inTicket(tenantId, r.ticketId), sk: keys.reply(r.replyDate, r.id) }),
  references: [
    {
      kind: 'AGENT',
      label: 'Agent',
      counted: false,
      pointers: (r) =>
        r.replyFromOperator ? [{ id: r.replyFromOperator, path: 'replyFromOperator.id' }] : [],
    },
  ],
};

export interface NoteRecord {
  id: string;
  ticketId: string;
  note: string;
  insertBy: string | null;
  assignedTo: string | null;
  date: number;
  remindMe: number | null;
}

const agentPointer = (field: 'insertBy' | 'assignedTo') => (n: NoteRecord) =>
  n[field] ? [{ id: n[field] as string, path: field }] : [];

export const noteEntity: Entity<NoteRecord> = {
  entity: 'TICKET_NOTE',
  label: 'Note',
  key: (tenantId, n) => ({ pk: inTicket(tenantId, n.ticketId), sk: keys.note(n.id) }),
  references: [
    { kind: 'AGENT', label: 'Agent', counted: false, pointers: agentPointer('insertBy') },
    { kind: 'AGENT', label: 'Agent', counted: false, pointers: agentPointer('assignedTo') },
  ],
};

/** The record of one attached file; its bytes are the S3 object at `key`. */
export interface DocumentRecord {
  id: string;
  ticketId: string;
  /** The reply it was attached to, null for the ticket's own documents. */
  replyId: string | null;
  documentName: string;
  documentType: string;
  size: number;
  checksum: string;
  key: string;
  /** When and in which position of its request it was added (the order documents are listed in). */
  addedAt: number;
  position: number;
}

export const documentEntity: Entity<DocumentRecord> = {
  entity: 'TICKET_DOCUMENT',
  label: 'Document',
  key: (tenantId, d) => ({ pk: inTicket(tenantId, d.ticketId), sk: keys.document(d.id) }),
};
