import { config } from '../../config';
import type { AgentInput } from '../../schemas/agent';
import type { CustomerInput } from '../../schemas/customer';
import type { EventType } from '../../schemas/events';
import type { LookupField, LookupRecord } from '../../schemas/lookups';
import type { Entity, ExactSearch, GuardSearch, Reference, Unique } from '../entity';
import { Conflict } from '../errors';
import { type EntityKind, keys } from '../keys';

/**
 * The record resources (customers, agents, ticket types, areas, groups): each is one
 * declaration of its key, list, searches, references and unique values. The record engine
 * (store/record-reads.ts, record-writes.ts, record-pages.ts) reads these; nothing else knows how a record is indexed.
 */
export interface BaseRecord {
  id: string;
  createdAt: number;
}

/** Attributes the store keeps on a record item besides the record's own fields. */
export interface RecordMeta {
  version: number;
  updatedAt: number;
  /** How many tickets point at this record (it cannot be deleted while any do). */
  refCount?: number;
  /** Agents: how many tickets are assigned to this one (the count of `?assignedTo._id=`). */
  assigned?: number;
}
export const RECORD_META = ['version', 'updatedAt', 'refCount', 'assigned'] as const;

export type Stored<T> = T & RecordMeta;

export interface RecordEntity<T extends BaseRecord> extends Entity<T> {
  kind: EntityKind;
  list: NonNullable<Entity<T>['list']>;
}

const recordEntity = <T extends BaseRecord>(
  kind: EntityKind,
  label: string,
  declaration: Pick<Entity<T>, 'searches' | 'references' | 'unique'>,
  max?: NonNullable<Entity<T>['list']>['max'],
): RecordEntity<T> => ({
  kind,
  entity: kind,
  label,
  key: (tenantId, r) => keys.record(tenantId, kind, r.id),
  list: { kind, order: (r) => keys.byCreation(r.createdAt, r.id), ...(max ? { max } : {}) },
  ...declaration,
});

const lower = (s: string) => s.toLowerCase();
const text = (value: string | null | undefined) => value ?? undefined;

/** A person's name, matched exactly: few share one, so a search counts what it finds (no count kept). */
const byName = <T extends { name?: string | null }>(): ExactSearch<T> => ({
  slot: 's2',
  value: (r) => text(r.name),
  count: { on: 'entries' },
});

/**
 * E-mail: searched and unique case-insensitively. A search finds at most one, so its unique
 * guard serves it (the guard, then the record it names): no index entry is written for it.
 */
const emailSearch: GuardSearch = { servedBy: 'unique', field: 'email', normalize: lower };
const uniqueEmail = <T extends { email?: string }>(who: string): Unique<T> => ({
  field: 'email',
  value: (r) => r.email?.toLowerCase(),
  code: 'duplicate-email',
  message: `Another ${who} of this account already has this e-mail address.`,
});

/** A customer photo lives in S3; the record keeps where. */
export interface Photo {
  key: string;
  contentType: string;
  size: number;
}
/** Portal credentials as stored: the password only as a scrypt hash. */
export interface StoredAccount {
  username: string | null;
  passwordHash: string | null;
}
/** Name and e-mail are required on insert, the rest defaulted then (domain/customers.ts): always present. */
export type CustomerRecord = BaseRecord &
  Omit<CustomerInput, 'profilePhotoBlob' | 'account'> &
  Required<Pick<CustomerInput, 'name' | 'email' | 'topClient' | 'language'>> & {
    photo?: Photo | null;
    account?: StoredAccount | null;
  };

const insertedBy: Reference<CustomerRecord> = {
  kind: 'AGENT',
  label: 'Agent',
  counted: false,
  pointers: (r) => (r.insertByAgentId ? [{ id: r.insertByAgentId, path: 'insertByAgentId' }] : []),
};

export const customerEntity = recordEntity<CustomerRecord>('CUSTOMER', 'Customer', {
  searches: { email: emailSearch, name: byName() },
  references: [insertedBy],
  unique: [uniqueEmail('customer')],
});

/** Name and e-mail are required on insert, the language defaulted then (domain/agents.ts). */
export type AgentRecord = BaseRecord & AgentInput & Required<Pick<AgentInput, 'name' | 'email' | 'language'>>;

export const agentEntity = recordEntity<AgentRecord>('AGENT', 'Agent', {
  searches: { email: emailSearch, name: byName() },
  unique: [uniqueEmail('agent')],
});

export type StoredLookup = BaseRecord & LookupRecord;

/** Lookups are searched by their name exactly and unique by it case-insensitively. */
const lookupEntity = (kind: EntityKind, label: string, field: LookupField) =>
  recordEntity<StoredLookup>(kind, label, {
    // Names are unique in the tenant: a search finds at most one (no count kept).
    searches: { [field]: { slot: 's1', value: (r) => text(r[field]), count: { on: 'entries' } } },
    unique: [
      {
        field,
        value: (r) => r[field]?.toLowerCase(),
        code: `duplicate-${field}`,
        message: `Another ticket ${field} of this account already has this name.`,
      },
    ],
  });

export const ticketTypeEntity = lookupEntity('TICKET_TYPE', 'Ticket type', 'type');
export const ticketAreaEntity = lookupEntity('TICKET_AREA', 'Ticket area', 'area');
export const ticketGroupEntity = lookupEntity('TICKET_GROUP', 'Ticket group', 'group');

/**
 * A webhook subscription. The signing secret is stored as it was issued (`whsec_` + base64): the
 * service signs every delivery with it, so a hash would not do (docs/decisions.md, "Webhooks");
 * no view shows it. `disabledReason` says why deliveries stopped (set by the delivery pipeline
 * after persistent failure; cleared by an update that sets `enabled`).
 */
export interface WebhookRecord extends BaseRecord {
  url: string;
  /** Empty: every event type. */
  types: EventType[];
  enabled: boolean;
  description?: string | null;
  secret: string;
  disabledReason?: string | null;
}

/**
 * Listed by creation; nothing searched, referenced or unique. A tenant has at most
 * WEBHOOK_MAX_SUBSCRIPTIONS (each one multiplies the delivery work of every event: docs/decisions.md,
 * "Webhook fairness"); one more is a 409 `webhook-limit`.
 */
export const webhookEntity = recordEntity<WebhookRecord>(
  'WEBHOOK',
  'Webhook',
  {},
  {
    count: () => config().WEBHOOK_MAX_SUBSCRIPTIONS,
    exceeded: (max) =>
      new Conflict(
        'webhook-limit',
        `This account already has ${max} webhook subscriptions, the most it may have: delete one first (one subscription may take every event type).`,
      ),
  },
);
