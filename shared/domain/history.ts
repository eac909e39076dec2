import { same } from '../store/entity-item';
import type { EventDraft } from '../store/events';
import type { Actor, FieldChange, HistoryDraft, HistoryKind, HistoryOf } from '../store/history';

/**
 * What a commit's events say of the history of the tickets and customers they are about
 * (docs/decisions.md, "History"): one entry per record per change, its kind the first event's,
 * with the fields an update changed (before and after) and what it added to a ticket.
 */
type Item = Record<string, unknown>;

/**
 * What an event type records: whose history, the kind of entry it starts, the list of the entry
 * its resource's id joins, and the field naming the agent who wrote it; none: not recorded.
 */
type Recorded = {
  of: HistoryOf;
  kind: HistoryKind;
  list?: 'replies' | 'notes' | 'documents';
  agent?: 'replyFromOperator' | 'insertBy';
};
const KINDS: Record<string, Recorded | undefined> = {
  'ticket.created': { of: 'TICKET', kind: 'created' },
  'ticket.updated': { of: 'TICKET', kind: 'updated' },
  'ticket.replied': { of: 'TICKET', kind: 'replied', list: 'replies', agent: 'replyFromOperator' },
  'ticket.note_added': { of: 'TICKET', kind: 'note_added', list: 'notes', agent: 'insertBy' },
  // A document is part of the change that added it (a reply, an update, an insert).
  'ticket.attachment_added': { of: 'TICKET', kind: 'updated', list: 'documents' },
  'ticket.deleted': { of: 'TICKET', kind: 'trashed' },
  'ticket.restored': { of: 'TICKET', kind: 'restored' },
  'ticket.merged': { of: 'TICKET', kind: 'merged' },
  'ticket.unmerged': { of: 'TICKET', kind: 'unmerged' },
  'customer.created': { of: 'CUSTOMER', kind: 'created' },
  'customer.updated': { of: 'CUSTOMER', kind: 'updated' },
};

/** Fields a history does not list: moved by every change, or kept for the store's own use. */
const UNLISTED = new Set([
  'managedDate',
  'version',
  'merged',
  'premerge',
  'mergedAt',
  'numberOfReplies',
  'id',
]);

/** A field's value as a history shows it: credentials never, a photo by what it is, not where. */
const shown = (field: string, value: unknown): unknown => {
  if (value === undefined || value === null) return null;
  if (field === 'account') return { username: (value as Item).username ?? null };
  if (field === 'photo') {
    const { contentType, size } = value as Item;
    return { contentType, size };
  }
  return value;
};

/** The fields that differ between two states of a record, in the order of `after`'s fields. */
const fieldChanges = (before: Item | null | undefined, after: Item | null | undefined): FieldChange[] => {
  const fields = [...new Set([...Object.keys(after ?? {}), ...Object.keys(before ?? {})])];
  return fields.flatMap((field) => {
    if (UNLISTED.has(field)) return [];
    const was = shown(field, before?.[field]);
    const is = shown(field, after?.[field]);
    return same(was, is) ? [] : [{ field, before: was, after: is }];
  });
};

/** An update that changed the status (and with it the closed date) alone is a status change. */
const kindOfUpdate = (changes: FieldChange[]): HistoryKind =>
  changes.length > 0 && changes.every((c) => c.field === 'status' || c.field === 'closedDate')
    ? 'status_changed'
    : 'updated';

/** The history entries of a commit's events, in the order of the records' first events. */
export const historyOf = (events: readonly EventDraft[], actor: Actor): HistoryDraft[] => {
  const entries = new Map<string, HistoryDraft>();
  for (const e of events) {
    const known = KINDS[e.type];
    if (!known) continue;
    const key = `${known.of}#${e.resourceId}`;
    let entry = entries.get(key);
    if (!entry) {
      // An update, a merge, an unmerge: what it changed.
      const changes = e.before ? fieldChanges(e.before, e.resource) : undefined;
      entry = {
        of: known.of,
        recordId: e.resourceId,
        kind: known.kind === 'updated' && changes ? kindOfUpdate(changes) : known.kind,
        actor: { ...actor },
        ...(changes ? { changes } : {}),
      };
      entries.set(key, entry);
    }
    const added = e.resource?.id;
    if (known.list && typeof added === 'string') entry[known.list] = [...(entry[known.list] ?? []), added];
    const agent = known.agent && e.resource?.[known.agent];
    if (typeof agent === 'string' && !entry.actor.agentId) entry.actor = { ...entry.actor, agentId: agent };
  }
  return [...entries.values()];
};
