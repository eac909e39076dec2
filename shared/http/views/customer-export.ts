import type { CustomerExport, RenderExport } from '../../domain/customer-export';
import type { DocumentView } from '../../schemas/views';
import { historyEntryView } from './history';
import { customerView } from './records';
import { type TicketNames, ticketView } from './ticket';

/**
 * The export document (domain/customer-export.ts): the customer, their history, and every ticket
 * they opened as its detail shows it, whole (every reply, note and document, no truncation), with
 * its history and, for one in the trash, `deletedAt`. Each document's `downloadUrl` and the
 * customer's `profilePhotoUrl` are signed S3 addresses valid until `expiresAt`, as the document's.
 * Statuses by their standard names.
 */
const names: TicketNames = { statusName: (status) => status };

const linked =
  (links: CustomerExport['links']) =>
  (d: DocumentView): DocumentView => ({
    ...d,
    downloadUrl: links.get(d.id) ?? d.downloadUrl,
  });

export const renderExport: RenderExport = (data, baseUrl) => {
  const link = linked(data.links);
  return {
    exportedAt: data.exportedAt,
    expiresAt: data.expiresAt,
    customer: {
      ...customerView(data.customer, baseUrl),
      profilePhotoUrl: data.links.get('photo') ?? null,
    },
    history: data.history.map(historyEntryView),
    tickets: data.tickets.map((t) => {
      const view = ticketView(t.ticket, data.related, baseUrl, names, t);
      return {
        ...view,
        attachedDocuments: view.attachedDocuments.map(link),
        replies: view.replies.map((r) => ({ ...r, attachedDocuments: r.attachedDocuments.map(link) })),
        deletedAt: t.deletedAt,
        history: t.history.map(historyEntryView),
      };
    }),
  };
};
