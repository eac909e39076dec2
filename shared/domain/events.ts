import type { EventDraft } from '../store/events';
import { type ImportJob, importSummary } from '../store/imports';
import type { EntityKind } from '../store/keys';

/**
 * The events a write reports (written in its transaction by domain/commit.ts). Types are
 * `<resource>.<what happened>`: `ticket.created`, `ticket.replied`, `customer.deleted`…
 * (shared/schemas/events.ts lists them all).
 */
type FeedKind = Exclude<EntityKind, 'WEBHOOK'>;
const RESOURCE: Record<FeedKind, string> = {
  TICKET: 'ticket',
  CUSTOMER: 'customer',
  AGENT: 'agent',
  TICKET_TYPE: 'ticket_type',
  TICKET_AREA: 'ticket_area',
  TICKET_GROUP: 'ticket_group',
};

type Change = 'created' | 'updated' | 'deleted';

/** Whether writes of records of this kind are events: webhook subscriptions are not (domain/webhooks.ts). */
export const inFeed = (kind: EntityKind): kind is FeedKind => kind in RESOURCE;

/** An event of `type` about `id`: the resource after (null: gone), and before it when it changed. */
const draft = (type: string, id: string, record: object | null, before?: object): EventDraft => ({
  type,
  resourceId: id,
  resource: record as Record<string, unknown> | null,
  ...(before ? { before: before as Record<string, unknown> } : {}),
});

/** A record created, updated (what it reads like now) or deleted (a tombstone). */
export const changed = (
  kind: FeedKind,
  change: Change,
  id: string,
  record: object | null,
  before?: object,
): EventDraft => draft(`${RESOURCE[kind]}.${change}`, id, change === 'deleted' ? null : record, before);

/**
 * A ticket back from the trash (what it reads like now), or purged from it for good; merged or
 * unmerged (each side: what it reads like now).
 */
export const ticketLifecycle = (
  what: 'restored' | 'purged' | 'merged' | 'unmerged',
  id: string,
  record: object | null,
  before?: object,
): EventDraft => draft(`ticket.${what}`, id, record, before);

/** Something added to a ticket: a reply, a note, a document. */
export const addedToTicket = (
  what: 'replied' | 'note_added' | 'attachment_added',
  ticketId: string,
  record: object,
): EventDraft => draft(`ticket.${what}`, ticketId, record);

/** A customer erased on request (domain/customer-erasure.ts): the event names them, nothing more. */
export const customerErased = (id: string): EventDraft => draft('customer.erased', id, null);

/**
 * An import job finished reading its file (domain/import-run.ts): its counts. The one event of
 * an import webhooks are sent (its records' own events are marked with the job: store/events.ts).
 */
export const importCompleted = (job: ImportJob): EventDraft =>
  draft('import.completed', job.id, importSummary(job) as unknown as Record<string, unknown>);
