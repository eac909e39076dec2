import type { EventView } from '../../schemas/views';
import type { CustomerRecord } from '../../store/entities/records';
import type { DocumentRecord, NoteRecord, ReplyRecord, TicketRecord } from '../../store/entities/ticket';
import type { StoredEvent } from '../../store/events';
import type { Related } from '../../store/tickets';
import { importSummaryView } from '../import-answer';
import { RECORD_VIEWS } from './records';
import { documentView, noteView, replyView, type TicketNames, ticketView } from './ticket';

/**
 * An event of the change feed: its resource as the API shows that resource (a ticket as in a
 * list page, a reply, note or document as in a ticket, a record as in its detail), read as it
 * was right after the change; null for a deletion.
 */
const RECORD_OF: Record<string, keyof typeof RECORD_VIEWS> = {
  customer: 'CUSTOMER',
  agent: 'AGENT',
  ticket_type: 'TICKET_TYPE',
  ticket_area: 'TICKET_AREA',
  ticket_group: 'TICKET_GROUP',
};

const resourceView = (e: StoredEvent, related: Related, baseUrl: string, names: TicketNames) => {
  const r = e.resource as unknown;
  if (r === null) return null;
  switch (e.type) {
    case 'ticket.created':
    case 'ticket.updated':
    case 'ticket.restored':
    case 'ticket.merged':
    case 'ticket.unmerged':
      return ticketView(r as TicketRecord, related, baseUrl, names);
    case 'ticket.replied':
      return replyView(r as ReplyRecord, { documents: [] }, related, baseUrl);
    case 'ticket.note_added':
      return noteView(r as NoteRecord, related, baseUrl);
    case 'ticket.attachment_added':
      return documentView(r as DocumentRecord, baseUrl);
    case 'import.completed':
      return importSummaryView(r as Parameters<typeof importSummaryView>[0]);
  }
  const kind = RECORD_OF[e.type.slice(0, e.type.lastIndexOf('.'))];
  if (!kind) throw new Error(`no view for events of type ${e.type}`);
  const view = RECORD_VIEWS[kind] as (record: CustomerRecord, baseUrl: string) => EventView['resource'];
  return view(r as CustomerRecord, baseUrl);
};

export const eventView = (
  e: StoredEvent,
  related: Related,
  baseUrl: string,
  names: TicketNames,
): EventView => ({
  id: e.id,
  type: e.type as EventView['type'],
  occurredAt: e.occurredAt,
  position: e.sk,
  resourceId: e.resourceId,
  importId: e.importId ?? null,
  resource: resourceView(e, related, baseUrl, names),
});
