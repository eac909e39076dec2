import type { HistoryEntryView } from '../../schemas/views';
import type { HistoryEntry } from '../../store/history';

/** One history entry as the API shows it: every list present, absent values null. */
export const historyEntryView = (e: HistoryEntry): HistoryEntryView => ({
  id: e.id,
  at: e.at,
  kind: e.kind,
  actor: {
    clientId: e.actor.clientId,
    agentId: e.actor.agentId ?? null,
    requestId: e.actor.requestId ?? null,
    importId: e.actor.importId ?? null,
  },
  changes: (e.changes ?? []).map((c) => ({
    field: c.field,
    before: c.before ?? null,
    after: c.after ?? null,
  })),
  replies: e.replies ?? [],
  notes: e.notes ?? [],
  documents: e.documents ?? [],
});
