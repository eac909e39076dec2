import { documentRecords, stageDocuments } from '../blobs/documents';
import { DOCUMENT_LIMITS } from '../schemas/documents';
import type { ImportLine } from '../schemas/import';
import type { TicketInput } from '../schemas/ticket';
import { allocateSequence, raiseSequence } from '../store/counters';
import type { NoteRecord, ReplyRecord, TicketRecord } from '../store/entities/ticket';
import { idsInOrder, newId } from '../store/ids';
import { type ImportSource, sourcePartWrite, sourceWrite } from '../store/imports';
import { counterNames } from '../store/keys';
import { readTicket } from '../store/ticket-reads';
import { createTicketWrites, documentWrites, noteWrites, replyWrites } from '../store/ticket-writes';
import { ticketFields } from '../store/tickets';
import { itemBytes, type WriteOp } from '../store/write-ops';
import { commit, type WriteContext } from './commit';
import { changed } from './events';
import { newTicket, numberingYear, replyTurn } from './ticket-rules';

/**
 * An imported ticket (docs/import.md): written with the dates, number and conversation it had,
 * its source item (store/imports.ts) in the same transaction. A conversation too long for one
 * transaction is written in parts, each its own transaction moving the source item's
 * `parts.done`, so a job resumed after a crash goes on from the first part not written; the
 * ticket's `ticket.created` event (and so its search entry) comes with the last part.
 */
export type TicketLine = Extract<ImportLine, { kind: 'ticket' }>;

/** A ticket line with its references resolved to ids here (domain/import-lines.ts). */
export interface ResolvedTicket {
  line: TicketLine;
  input: TicketInput;
  /** Each reply's author (null: the customer) and each note's writer, as ids here. */
  replyAuthors: (string | null)[];
  noteAuthors: (string | null)[];
}

/**
 * A part's ceilings, under DynamoDB's 100 elements and 4 MB a transaction (its event and history
 * item on top), and the documents one write stages (DOCUMENT_LIMITS.perRequest).
 */
const PART_OPS = 80;
const PART_BYTES = 3_000_000;

const TICKET_NUMBER = /^(\d+)\/(\d{4})$/;

/** The ticket's number: the one it had (its year's sequence moved past it), else its insert year's next. */
const numberOf = async (tenantId: string, line: TicketLine): Promise<string> => {
  const given = line.number && TICKET_NUMBER.exec(line.number);
  if (given) {
    const [, n, year] = given;
    await raiseSequence(tenantId, counterNames.sequence('TICKET', Number(year)), Number(n));
    return line.number as string;
  }
  const year = numberingYear(line.insertDate);
  return `${await allocateSequence(tenantId, counterNames.sequence('TICKET', year))}/${year}`;
};

/** The ticket as stored: the body's fields and defaults, then the dates, number and counts it had. */
const ticketOf = (t: ResolvedTicket, id: string, number: string): TicketRecord => {
  const { line } = t;
  const base = newTicket(t.input, id, number, line.insertDate);
  const replies = line.replies ?? [];
  const last = replies.reduce<(typeof replies)[number] | undefined>(
    (latest, r) => (latest && latest.replyDate > r.replyDate ? latest : r),
    undefined,
  );
  const managedDate = line.managedDate ?? Math.max(line.insertDate, last?.replyDate ?? 0);
  const turn = last ? replyTurn(Boolean(last.replyFromOperator)) : {};
  return {
    ...base,
    ...turn,
    ...(line.toReply === undefined ? {} : { toReply: line.toReply }),
    ...(line.toReplyCustomer === undefined ? {} : { toReplyCustomer: line.toReplyCustomer }),
    managedDate,
    closedDate:
      line.closedDate !== undefined ? line.closedDate : base.status === 'closed' ? managedDate : null,
    numberOfReplies: replies.length,
  };
};

/** One reply (with its documents), note or document of the ticket: written together, in one part. */
interface Unit {
  ops: (documents: ReturnType<typeof documentRecords>) => WriteOp[];
  documents: { batch: Parameters<typeof stageDocuments>[2][number]; addedAt: number } | undefined;
  bytes: number;
}

const bytesOf = (ops: WriteOp[]): number =>
  ops.reduce((n, op) => n + (op.item.Put ? itemBytes(op.item.Put.Item as Record<string, unknown>) : 200), 0);

/** The ticket's conversation as units, in order: replies, notes, the ticket's own documents. */
const unitsOf = (tenantId: string, t: ResolvedTicket, ticketId: string): Unit[] => {
  const { line } = t;
  const replies = line.replies ?? [];
  const notes = line.notes ?? [];
  const replyIds = idsInOrder(replies.map((r) => r.replyDate));
  const noteIds = idsInOrder(notes.map((n) => n.date));
  const units: Unit[] = replies.map((r, i) => {
    const record: ReplyRecord = {
      id: replyIds[i] as string,
      ticketId,
      text: r.text,
      replyDate: r.replyDate,
      replyFromOperator: t.replyAuthors[i] ?? null,
    };
    const own = replyWrites(tenantId, record, `replies.${i}.`);
    const docs = r.attachedDocuments ?? [];
    return {
      ops: (documents) => [...own, ...documentWrites(tenantId, documents)],
      documents: docs.length
        ? {
            batch: { documents: docs, path: `replies.${i}.attachedDocuments`, replyId: record.id },
            addedAt: r.replyDate,
          }
        : undefined,
      bytes: bytesOf(own) + docs.length * 600,
    };
  });
  notes.forEach((n, i) => {
    const record: NoteRecord = {
      id: noteIds[i] as string,
      ticketId,
      note: n.note,
      insertBy: t.noteAuthors[i] ?? null,
      assignedTo: null,
      date: n.date,
      remindMe: null,
    };
    const ops = noteWrites(tenantId, record);
    units.push({ ops: () => ops, documents: undefined, bytes: bytesOf(ops) });
  });
  const own = line.attachedDocuments ?? [];
  if (own.length)
    units.push({
      ops: (documents) => documentWrites(tenantId, documents),
      documents: {
        batch: { documents: own, path: 'attachedDocuments', replyId: null },
        addedAt: line.insertDate,
      },
      bytes: own.length * 600,
    });
  return units;
};

/** Units packed into parts in order; the first part also holds the ticket's own writes. */
const partsOf = (units: Unit[], firstOps: number, firstBytes: number): Unit[][] => {
  const parts: Unit[][] = [[]];
  let ops = firstOps;
  let bytes = firstBytes;
  let documents = 0;
  for (const unit of units) {
    const files = unit.documents?.batch.documents?.length ?? 0;
    const size = unit.ops([]).length + files;
    const current = parts.at(-1) as Unit[];
    const full =
      ops + size > PART_OPS ||
      bytes + unit.bytes > PART_BYTES ||
      documents + files > DOCUMENT_LIMITS.perRequest;
    if (current.length > 0 && full) {
      parts.push([unit]);
      ops = size;
      bytes = unit.bytes;
      documents = files;
    } else {
      current.push(unit);
      ops += size;
      bytes += unit.bytes;
      documents += files;
    }
  }
  return parts;
};

/**
 * Writes the ticket, or the parts of it a crash left unwritten (`existing`: its source item).
 * Throws the domain error of a part that cannot be written (that part and those after it are not).
 */
export const importTicket = async (
  ctx: WriteContext,
  jobId: string,
  t: ResolvedTicket,
  existing?: ImportSource,
): Promise<void> => {
  const { tenantId } = ctx;
  const ticketId = existing?.id ?? newId(t.line.insertDate);
  const units = unitsOf(tenantId, t, ticketId);
  // The ticket's writes, sized with a number as long as any (the real one is taken just before).
  const sized = createTicketWrites(tenantId, ticketOf(t, ticketId, `${'9'.repeat(16)}/9999`));
  const parts = partsOf(units, sized.length + 1, bytesOf(sized));
  const source: ImportSource = {
    kind: 'ticket',
    externalId: t.line.externalId,
    id: ticketId,
    jobId,
    // Written with the first part: one part done.
    ...(parts.length > 1 ? { parts: { done: 1, total: parts.length } } : {}),
  };
  // Resumed: the ticket as the first part wrote it (the last part's event reports it).
  let ticket: TicketRecord | undefined = existing
    ? ticketFields(await readTicket(tenantId, ticketId))
    : undefined;
  for (let p = existing?.parts?.done ?? 0; p < parts.length; p++) {
    const part = parts[p] as Unit[];
    const withDocs = part.filter((u) => u.documents);
    const { documents, staged } = await stageDocuments(
      tenantId,
      ticketId,
      withDocs.map((u) => u.documents?.batch as NonNullable<Unit['documents']>['batch']),
    );
    const ops: WriteOp[] = [];
    if (p === 0) {
      ticket = ticketOf(t, ticketId, await numberOf(tenantId, t.line));
      ops.push(...createTicketWrites(tenantId, ticket), sourceWrite(tenantId, source));
    } else ops.push(sourcePartWrite(tenantId, source, p));
    let next = 0;
    for (const unit of part) {
      const count = unit.documents?.batch.documents?.length ?? 0;
      const mine = documents.slice(next, next + count);
      next += count;
      ops.push(...unit.ops(documentRecords(ticketId, mine, unit.documents?.addedAt ?? t.line.insertDate)));
    }
    const last = p === parts.length - 1;
    // The event goes with the last part: the search index reads the whole conversation then.
    const created = ticket as TicketRecord;
    await commit(
      ctx,
      () => ({
        result: ticketId,
        ops,
        events: last ? [changed('TICKET', 'created', ticketId, created)] : [],
      }),
      staged,
    );
  }
};
