import { deleteEveryVersion, listBlobs } from '../blobs/s3';
import type { ErasureJobView } from '../schemas/views';
import type { ErasureJob } from '../store/cascades';
import { markedTickets, removeUnusedMark, rewriteItem } from '../store/customer-erasure';
import { customerTicketIds } from '../store/customer-tickets';
import { attemptsSince } from '../store/deliveries';
import { webhookEntity } from '../store/entities/records';
import type { DocumentRecord, NoteRecord, ReplyRecord, TicketRecord } from '../store/entities/ticket';
import type { Item } from '../store/entity';
import { same } from '../store/entity-item';
import { Contended, NotFound } from '../store/errors';
import { type StoredEvent, visitEvents } from '../store/events';
import { type FieldChange, putHistoryEntry, readHistory } from '../store/history';
import { inParallel } from '../store/in-parallel';
import { type Job, jobsAbout } from '../store/jobs';
import { blobKeys, keys } from '../store/keys';
import { allRecords } from '../store/record-reads';
import { deleteKeys } from '../store/sweep';
import { readCollection } from '../store/ticket-reads';
import type { WriteContext } from './commit';
import {
  anonymisedDocument,
  anonymisedNote,
  anonymisedReply,
  anonymisedTicket,
  customersDocuments,
  ERASED,
  type Redact,
  redactDeep,
  redactorOf,
} from './redaction';
import { deleteTicket, purgeTicket } from './tickets';

/**
 * Erasure of one customer's personal data (docs/decisions.md, "Erasure"). `POST
 * /customer/erase/{id}` commits, in one transaction, the customer's record turned into a mark (out
 * of every list, search, count and read: store/customer-erasure.ts), the event `customer.erased`
 * (no personal data) and the erasure job; the cascade worker then reaches every copy (`runErasure`):
 * the customer's tickets (deleted, or kept anonymised), their photo and export documents in S3, the
 * change feed's event bodies, webhook delivery logs and the history. A dry run writes only the job,
 * whose run counts what an erasure would change. Every step can be repeated: a run cut short is
 * run again by the stream and finishes what the first left.
 */

/** What an erasure changed (or a dry run would), per kind: what its job answers once done. */
export type Receipt = NonNullable<ErasureJobView['receipt']>;

const noReceipt = (): Receipt => ({
  customers: 0,
  photos: 0,
  tickets: 0,
  replies: 0,
  notes: 0,
  documents: 0,
  historyEntries: 0,
  events: 0,
  deliveries: 0,
  exports: 0,
});

/** The search index lags a ticket created just before the erasure: the stream runs the job again. */
class IndexLag extends Contended {}

/** What one run knows: the job, how it redacts, what it found, what it counts. */
interface Run {
  job: Job & ErasureJob;
  redact: Redact;
  write: boolean;
  receipt: Receipt;
  /** The events whose bodies an erasure reaches: about the customer or one of their tickets. */
  resources: Set<string>;
  /** Documents of theirs that are removed (events announcing them are emptied). */
  removedDocuments: Set<string>;
  /** Events changed (their ids), whose delivery logs are cleaned. */
  events: Set<string>;
}

const keyOf = (item: object) => ({ pk: String((item as Item).pk), sk: String((item as Item).sk) });

/** Runs the erasure job (the cascade worker): every copy of the customer's data; answers its receipt. */
export const runErasure = async (job: Job & ErasureJob): Promise<Receipt> => {
  const run: Run = {
    job,
    redact: redactorOf(job.identifiers ?? []),
    write: !job.dryRun,
    receipt: { ...noReceipt(), customers: 1 },
    resources: new Set([job.customerId]),
    removedDocuments: new Set(),
    events: new Set(),
  };
  const tickets = await ticketsOf(job);
  for (const id of tickets) run.resources.add(id);
  // Deleting, tickets merged into another go last: a purged target of theirs lets its sources go.
  const merged: string[] = [];
  await inParallel(tickets, 4, (id) => eraseTicket(run, id, merged));
  await inParallel(merged, 4, (id) => eraseTicket(run, id));
  await eraseHistory(run);
  await visitEvents(job.tenantId, job.since, (event) => eraseEvent(run, event));
  await eraseDeliveries(run);
  await eraseFiles(run);
  if (run.write && job.mode === 'delete') await removeUnusedMark(job.tenantId, job.customerId);
  return run.receipt;
};

/** The customer's tickets, live and in the trash; all the live ones the mark counts, or the job runs again later. */
const ticketsOf = async (job: Job & ErasureJob): Promise<string[]> => {
  const { tenantId, customerId } = job;
  const { all, live } = await customerTicketIds(tenantId, customerId);
  if (!job.dryRun) {
    const counted = await markedTickets(tenantId, customerId);
    if (live < counted)
      throw new IndexLag(`the search index shows ${live} of the customer's ${counted} tickets yet`);
  }
  return all;
};

/**
 * One of the customer's tickets: deleted, or anonymised; in a deleting erasure, one merged into
 * someone else's ticket is anonymised (it is part of that ticket's conversation), and merged ones
 * are put in `later` when given (their targets of the customer's go first).
 */
const eraseTicket = async (run: Run, id: string, later?: string[]): Promise<void> => {
  const { tenantId, mode, actor } = run.job;
  const collection = await readCollection(tenantId, id);
  const { trashed } = collection;
  const ticket = collection.ticket ?? trashed?.ticket;
  if (!ticket) return;
  if (mode === 'delete' && ticket.mergedInto && later) {
    later.push(id);
    return;
  }
  // A dry run purges nothing: a target of the customer's would have let this one go.
  const kept = ticket.mergedInto && !run.resources.has(ticket.mergedInto);
  if (mode === 'delete' && !kept) {
    run.receipt.tickets++;
    run.receipt.replies += collection.replies.length;
    run.receipt.notes += collection.notes.length;
    run.receipt.documents += collection.documents.length;
    if (!run.write) return;
    const ctx: WriteContext = { tenantId, trashDays: 0, actor };
    try {
      await (collection.ticket ? deleteTicket(ctx, id) : purgeTicket(ctx, id));
    } catch (error) {
      // Gone meanwhile (a run before this one, or the trash's end): its cascade takes the rest.
      if (!(error instanceof NotFound)) throw error;
    }
    // Its cascade deletes its items and objects; a bucket's old versions of them go now.
    await deleteEveryVersion(blobKeys.ticketFiles(tenantId, id));
    return;
  }
  await anonymiseTicket(run, ticket, collection, trashed !== undefined);
};

const differs = (a: unknown, b: unknown) => !same(a, b);

const anonymiseTicket = async (
  run: Run,
  ticket: TicketRecord,
  collection: { replies: ReplyRecord[]; notes: NoteRecord[]; documents: DocumentRecord[] },
  inTrash: boolean,
): Promise<void> => {
  const { tenantId, actor } = run.job;
  const { redact } = run;
  const writes: (() => Promise<void>)[] = [];
  const change = anonymisedTicket(ticket, redact);
  const ticketKey = keys.record(tenantId, 'TICKET', ticket.id);
  const changed = Object.entries(change).filter(([field, value]) =>
    differs(value, ticket[field as keyof TicketRecord]),
  );
  if (changed.length > 0) run.receipt.tickets++;
  if (inTrash)
    writes.push(() =>
      rewriteItem({ pk: ticketKey.pk, sk: keys.trashed }, { set: { ticket: { ...ticket, ...change } } }),
    );
  else if (changed.length > 0)
    writes.push(() => rewriteItem(ticketKey, { set: Object.fromEntries(changed), add: { version: 1 } }));
  for (const reply of collection.replies) {
    const next = anonymisedReply(reply, redact);
    if (next.text === reply.text) continue;
    run.receipt.replies++;
    writes.push(() => rewriteItem(keyOf(reply), { set: next }));
  }
  for (const note of collection.notes) {
    const next = anonymisedNote(note, redact);
    if (next.note === note.note) continue;
    run.receipt.notes++;
    writes.push(() => rewriteItem(keyOf(note), { set: next }));
  }
  const theirs = customersDocuments(collection.documents, collection.replies);
  for (const doc of theirs) run.removedDocuments.add(doc.id);
  for (const doc of collection.documents) {
    if (run.removedDocuments.has(doc.id)) continue;
    const next = anonymisedDocument(doc, redact);
    if (next.documentName === doc.documentName) continue;
    run.receipt.documents++;
    writes.push(() => rewriteItem(keyOf(doc), { set: next }));
  }
  run.receipt.documents += theirs.length;
  for (const entry of await readHistory(tenantId, 'TICKET', ticket.id)) {
    if (!entry.changes) continue;
    const changes = entry.changes.map((c) => anonymisedChange(c, redact));
    if (!differs(changes, entry.changes)) continue;
    run.receipt.historyEntries++;
    writes.push(() => rewriteItem(keyOf(entry), { set: { changes } }));
  }
  if (!run.write) return;
  await inParallel(writes, 8, (write) => write());
  // The customer's files go, then their records (a run cut between them finds the records again).
  for (const doc of theirs) await deleteEveryVersion(doc.key);
  await deleteKeys(theirs.map(keyOf));
  await putHistoryEntry(
    tenantId,
    { of: 'TICKET', recordId: ticket.id, kind: 'erased', actor, documents: theirs.map((d) => d.id) },
    { id: run.job.id, at: run.job.createdAt, days: run.job.historyDays },
  );
};

/** A ticket's description is the customer's own words: its history's values of it go whole. */
const anonymisedChange = (c: FieldChange, redact: Redact): FieldChange =>
  c.field === 'description'
    ? { ...c, before: c.before === null ? null : ERASED, after: c.after === null ? null : ERASED }
    : redactDeep(c, redact);

/** The customer's own history goes (an anonymised ticket's is redacted with it: anonymiseTicket). */
const eraseHistory = async (run: Run): Promise<void> => {
  const { tenantId, customerId } = run.job;
  const entries = await readHistory(tenantId, 'CUSTOMER', customerId);
  run.receipt.historyEntries += entries.length;
  if (run.write) await deleteKeys(entries.map(keyOf));
};

/** What an event about the customer or their tickets says after the erasure (null: nothing of them). */
const erasedResource = (run: Run, event: StoredEvent): Item | null => {
  const resource = event.resource;
  if (!resource || run.job.mode === 'delete' || event.resourceId === run.job.customerId) return null;
  const { redact } = run;
  switch (event.type) {
    case 'ticket.replied':
      return { ...resource, ...anonymisedReply(resource as unknown as ReplyRecord, redact) };
    case 'ticket.note_added':
      return { ...resource, ...anonymisedNote(resource as unknown as NoteRecord, redact) };
    case 'ticket.attachment_added':
      return run.removedDocuments.has(String(resource.id))
        ? null
        : { ...resource, ...anonymisedDocument(resource as unknown as DocumentRecord, redact) };
    default:
      return { ...resource, ...anonymisedTicket(resource as Partial<TicketRecord>, redact) };
  }
};

const eraseEvent = async (run: Run, event: StoredEvent): Promise<void> => {
  if (!run.resources.has(event.resourceId)) return;
  const resource = erasedResource(run, event);
  if (!differs(resource, event.resource)) return;
  run.receipt.events++;
  run.events.add(event.id);
  if (run.write) await rewriteItem(keyOf(event), { set: { resource } });
};

/**
 * Delivery logs never hold a payload; of a receiver's answer they keep an excerpt, which may
 * repeat what it was sent: gone for every attempt of an erased event.
 */
const eraseDeliveries = async (run: Run): Promise<void> => {
  if (run.events.size === 0) return;
  const { tenantId, since } = run.job;
  await inParallel(await allRecords(webhookEntity, tenantId), 4, async (webhook) => {
    const attempts = await attemptsSince(tenantId, webhook.id, since);
    const touched = attempts.filter((a) => run.events.has(a.eventId) && a.response !== null);
    run.receipt.deliveries += touched.length;
    if (run.write) await inParallel(touched, 8, (a) => rewriteItem(a, { set: { response: null } }));
  });
};

/** The photo the record pointed at, and every export document of the customer. */
const eraseFiles = async (run: Run): Promise<void> => {
  const { tenantId, customerId, photo } = run.job;
  const prefix = blobKeys.customerExports(tenantId, customerId);
  run.receipt.photos = photo ? 1 : 0;
  if (!run.write) {
    run.receipt.exports = (await listBlobs(prefix)).length;
    return;
  }
  run.receipt.exports = await deleteEveryVersion(prefix);
  if (photo) await deleteEveryVersion(photo);
  // Their export jobs no longer offer a document: they answer `gone`.
  for (const job of await jobsAbout(tenantId, 'export', customerId))
    await rewriteItem(keyOf(job), { remove: ['document', 'expiresAt'] });
};
