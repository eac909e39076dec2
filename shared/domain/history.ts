import type { EventDraft } from '../store/events';
import type { Actor, FieldChange, HistoryDraft, HistoryKind, HistoryOf } from '../store/history';

/**
 * What a commit's events say of the history of the tickets and customers they are about
 * (docs/decisions.md, "History"): one entry per record per change, its kind the first event's,
 * with the fields an update changed (before and after) and what it added to a ticket.
 */
type Item = Record<string, unknown>;

/** The kind of history entry an event type starts, and whose history it is; none: not recorded. */
const KINDS: Record<string, { of: HistoryOf; kind: HistoryKind | 'added' } | undefined> = {
  'ticket.created': { of: 'TICKET', kind: 'created' },
  'ticket.updated': { of: 'TICKET', kind: 'updated' },
  'ticket.replied': { of: 'TICKET', kind: 'replied' },
  'ticket.note_added': { of: 'TICKET', kind: 'note_added' },
  // A document is part of the change that added it (a reply, an update, an insert).
  'ticket.attachment_added': { of: 'TICKET', kind: 'added' },
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
export const fieldChanges = (
  before: Item | null | undefined,
  after: Item | null | undefined,
): FieldChange[] => {
  const fields = [...new Set([...Object.keys(after ?? {}), ...Object.keys(before ?? {})])];
  return fields.flatMap((field) => {
    if (UNLISTED.has(field)) return [];
    const was = shown(field, before?.[field]);
    const is = shown(field, after?.[field]);
    return JSON.stringify(was) === JSON.stringify(is) ? [] : [{ field, before: was, after: is }];
  });
};

/** An update that changed the status (and with it the closed date) alone is a status change. */
const kindOfUpdate = (changes: FieldChange[]): HistoryKind =>
  changes.length > 0 && changes.every((c) => c.field === 'status' || c.field === 'closedDate')
    ? 'status_changed'
    : 'updated';

/** The agent a reply or note names as its author. */
const agentOf = (e: EventDraft): string | undefined => {
  const r = e.resource ?? {};
  const agent =
    e.type === 'ticket.replied' ? r.replyFromOperator : e.type === 'ticket.note_added' ? r.insertBy : null;
  return typeof agent === 'string' ? agent : undefined;
};

/** The history entries of a commit's events, in the order of the records' first events. */
export const historyOf = (events: readonly EventDraft[], actor: Actor): HistoryDraft[] => {
  const entries = new Map<string, HistoryDraft>();
  for (const e of events) {
    const known = KINDS[e.type];
    if (!known) continue;
    const key = `${known.of}#${e.resourceId}`;
    let entry = entries.get(key);
    if (!entry) {
      const changes =
        known.kind === 'updated' || known.kind === 'merged' || known.kind === 'unmerged'
          ? fieldChanges(e.before, e.resource)
          : undefined;
      entry = {
        of: known.of,
        recordId: e.resourceId,
        kind:
          known.kind === 'added'
            ? 'updated'
            : known.kind === 'updated' && changes
              ? kindOfUpdate(changes)
              : known.kind,
        actor: { ...actor },
        ...(changes ? { changes } : {}),
      };
      entries.set(key, entry);
    }
    const added = e.resource?.id;
    const list =
      e.type === 'ticket.replied'
        ? 'replies'
        : e.type === 'ticket.note_added'
          ? 'notes'
          : e.type === 'ticket.attachment_added'
            ? 'documents'
            : undefined;
    if (list && typeof added === 'string') entry[list] = [...(entry[list] ?? []), added];
    const agent = agentOf(e);
    if (agent && !entry.actor.agentId) entry.actor = { ...entry.actor, agentId: agent };
  }
  return [...entries.values()];
};
