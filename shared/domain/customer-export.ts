import { createHash } from 'node:crypto';
import { photoFileName } from '../blobs/photos';
import { deleteBlobs, downloadUrl, putBlob } from '../blobs/s3';
import type { ExportJob } from '../store/cascades';
import { customerTicketIds } from '../store/customer-tickets';
import { type CustomerRecord, customerEntity, type Stored } from '../store/entities/records';
import type { DocumentRecord, NoteRecord, ReplyRecord, TicketRecord } from '../store/entities/ticket';
import { NotFound } from '../store/errors';
import { type HistoryEntry, readHistory } from '../store/history';
import { inParallel } from '../store/in-parallel';
import type { Job } from '../store/jobs';
import { blobKeys } from '../store/keys';
import { getRecord } from '../store/record-reads';
import { readCollection, readRelated } from '../store/ticket-reads';
import type { Related } from '../store/tickets';
import { relatedOf } from './ticket-reads';

/**
 * Export of one customer's data (docs/decisions.md, "Export"): `POST /customer/export/{id}`
 * records the job; the cascade worker collects the customer, every ticket they opened (the trash's
 * too) with its whole conversation, notes, documents and history, and the customer's history,
 * renders it as the API shows each record (the http layer's views, handed in), and puts it in S3
 * as one JSON document. Its download address and every file link in it stay valid the same
 * EXPORT_LINK_SECONDS from the job's end (`GET /customer/export/{jobId}`); then the job answers
 * `expired` and S3's lifecycle rule removes the document.
 */
const EXPORT_LINK_SECONDS = 3600;

export interface ExportedTicket {
  ticket: TicketRecord;
  /** When it went to the trash; null for a live ticket. */
  deletedAt: number | null;
  replies: ReplyRecord[];
  notes: NoteRecord[];
  documents: DocumentRecord[];
  history: HistoryEntry[];
}

/** What an export holds, before the http layer's views render it. */
export interface CustomerExport {
  customer: Stored<CustomerRecord>;
  history: HistoryEntry[];
  tickets: ExportedTicket[];
  related: Related;
  /** Each document's and the photo's download address (by document id; the photo by `photo`). */
  links: ReadonlyMap<string, string>;
  exportedAt: number;
  expiresAt: number;
}

/** Renders the export (shared/http/views/customer-export.ts), as the job's base URL shows the API. */
export type RenderExport = (data: CustomerExport, baseUrl: string) => unknown;

const exportedTicket = async (tenantId: string, id: string): Promise<ExportedTicket | undefined> => {
  const [collection, history] = await Promise.all([
    readCollection(tenantId, id),
    readHistory(tenantId, 'TICKET', id),
  ]);
  const { trashed, replies, notes, documents } = collection;
  const ticket = collection.ticket ?? trashed?.ticket;
  if (!ticket) return undefined;
  return { ticket, deletedAt: trashed?.deletedAt ?? null, replies, notes, documents, history };
};

/** The customer as the export reads them; undefined once erased or deleted (the job then has nothing to give). */
const customerNow = async (tenantId: string, id: string) => {
  try {
    return await getRecord(customerEntity, tenantId, id, true);
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
};

/**
 * Runs the export job (the cascade worker): the document's key and until when its links work, or
 * undefined when the customer is gone (erased meanwhile: nothing of them is written, or what was is removed).
 */
export const runExport = async (
  job: Job & ExportJob,
  render: RenderExport,
): Promise<{ document: string; expiresAt: number } | undefined> => {
  const { tenantId, customerId } = job;
  const customer = await customerNow(tenantId, customerId);
  if (!customer) return undefined;
  const [ids, history] = await Promise.all([
    customerTicketIds(tenantId, customerId),
    readHistory(tenantId, 'CUSTOMER', customerId),
  ]);
  const tickets: ExportedTicket[] = [];
  await inParallel(ids.all, 4, async (id) => {
    const exported = await exportedTicket(tenantId, id);
    if (exported) tickets.push(exported);
  });
  tickets.sort((a, b) => a.ticket.insertDate - b.ticket.insertDate);
  const related = await readRelated(
    tenantId,
    relatedOf(
      tickets.map((t) => t.ticket),
      tickets.flatMap((t) => t.replies),
      tickets.flatMap((t) => t.notes),
    ),
  );
  const exportedAt = Date.now();
  const expiresAt = exportedAt + EXPORT_LINK_SECONDS * 1000;
  const links = new Map<string, string>();
  const documents = tickets.flatMap((t) => t.documents);
  await inParallel(documents, 8, async (d) => {
    links.set(d.id, await downloadUrl(d.key, d.documentName, d.documentType, EXPORT_LINK_SECONDS));
  });
  if (customer.photo)
    links.set(
      'photo',
      await downloadUrl(
        customer.photo.key,
        photoFileName(customerId, customer.photo.contentType),
        customer.photo.contentType,
        EXPORT_LINK_SECONDS,
      ),
    );
  const body = Buffer.from(
    JSON.stringify(
      render({ customer, history, tickets, related, links, exportedAt, expiresAt }, job.baseUrl),
    ),
  );
  const document = blobKeys.customerExport(tenantId, customerId, job.id);
  await putBlob(document, body, 'application/json', createHash('sha256').update(body).digest('base64'));
  // An erasure that ran meanwhile removed the customer's exports before this one was there.
  if (!(await customerNow(tenantId, customerId))) {
    await deleteBlobs([document]);
    return undefined;
  }
  return { document, expiresAt };
};
