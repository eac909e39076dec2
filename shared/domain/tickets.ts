import { type DocumentBatch, documentRecords, plannedDocuments, stageDocuments } from '../blobs/documents';
import type { NoteInput, ReplyInput, TicketInput } from '../schemas/ticket';
import { allocateSequence, releaseSequence } from '../store/counters';
import { TRASH_DAYS } from '../store/entities/system';
import type { DocumentRecord, ReplyRecord, TicketRecord } from '../store/entities/ticket';
import { Conflict, InvalidReference, NotFound } from '../store/errors';
import { idsInOrder, isId, newId } from '../store/ids';
import { counterNames } from '../store/keys';
import { checkVersion } from '../store/record-writes';
import { findTicket, readTicket } from '../store/ticket-reads';
import { purgeWrites, readTrashed, removedWrites, restoreWrites, trashWrites } from '../store/ticket-trash';
import {
  createTicketWrites,
  deleteTicketWrites,
  documentWrites,
  noteWrites,
  replyWrites,
  touchTicketWrite,
  updateTicketWrites,
} from '../store/ticket-writes';
import { NOT_MERGED, type StoredTicket, ticketFields, ticketMerged, ticketMissing } from '../store/tickets';
import { assertFits } from '../store/transact';
import { FIRST_VERSION, type WriteOp } from '../store/write-ops';
import { commit, versionAfter, type WriteContext } from './commit';
import { addedToTicket, changed, ticketLifecycle } from './events';
import { newTicket, numberingYear, replyTurn, ticketNumber, updatedTicket } from './ticket-rules';

/**
 * The ticket write service: files staged in S3 first, then one commit (domain/commit.ts) of the
 * ticket and everything it implies. The items come from store/tickets.ts, the rules from
 * ticket-rules.ts.
 */
type NewReply = ReplyInput & { id: string };

/**
 * Replies of a body get their ids first, so that their documents can point at them. The ids
 * ascend as the replies were sent: replies are listed by date, then id, so those of one date stay
 * in the order sent.
 */
const withIds = (replies: ReplyInput[] = [], now: number): NewReply[] => {
  const ids = idsInOrder(replies.map(() => now));
  return replies.map((reply, i) => ({ ...reply, id: ids[i] as string }));
};

const replyRecord = (ticketId: string, reply: NewReply, now: number): ReplyRecord => ({
  id: reply.id,
  ticketId,
  text: reply.text,
  replyDate: reply.replyDate ?? now,
  replyFromOperator: reply.replyFromOperator?.id ?? null,
});

const repliesWrites = (tenantId: string, ticketId: string, replies: NewReply[], now: number) =>
  replies.flatMap((reply, i) => replyWrites(tenantId, replyRecord(ticketId, reply, now), `replies.${i}.`));

/** The ticket's own documents and those of each reply in the body. */
const batchesOf = (documents: TicketInput['attachedDocuments'], replies: NewReply[]): DocumentBatch[] => [
  { documents, path: 'attachedDocuments', replyId: null },
  ...replies.map((r, i) => ({
    documents: r.attachedDocuments,
    path: `replies.${i}.attachedDocuments`,
    replyId: r.id,
  })),
];

/**
 * Checks the write against DynamoDB's limits with the documents as they will be recorded
 * (store/transact.ts `assertFits`), before any file is stored or number taken: a request that
 * cannot fit is refused with nothing written.
 */
const preflight = (
  ctx: WriteContext,
  ops: (documents: DocumentRecord[]) => WriteOp[],
  batches: DocumentBatch[],
  ticketId: string,
) =>
  assertFits([
    // Sized with a position as long as any (a feed order key and an id: store/keys.ts `eventOrder`)
    // and a version as long as any.
    ...(ctx.remember?.(ticketId, {
      position: `${'9'.repeat(17)}#${'f'.repeat(24)}`,
      version: Number.MAX_SAFE_INTEGER,
    }) ?? []),
    ...ops(documentRecords(ticketId, plannedDocuments(batches), 0)),
  ]);

/**
 * Creates a ticket numbered `<seq>/<year>`. The number is taken by one atomic UpdateItem just
 * before the transaction (a claim inside it collapses under concurrency: every racer but one
 * loses each round) and handed back if the transaction fails, when no later one was taken.
 */
export const insertTicket = async (ctx: WriteContext, input: TicketInput): Promise<string> => {
  const { tenantId } = ctx;
  const id = newId();
  const now = Date.now();
  const sequence = counterNames.sequence('TICKET', numberingYear(now));
  const replies = withIds(input.replies, now);
  const batches = batchesOf(input.attachedDocuments, replies);
  const writes = (ticket: TicketRecord) => (docs: DocumentRecord[]) => [
    ...createTicketWrites(tenantId, ticket),
    ...repliesWrites(tenantId, id, replies, now),
    ...documentWrites(tenantId, docs),
  ];
  // The longest number the sequence could give stands in for the real one.
  preflight(ctx, writes(newTicket(input, id, ticketNumber(Number.MAX_SAFE_INTEGER, now), now)), batches, id);
  const { documents, staged } = await stageDocuments(tenantId, id, batches);
  const number = await allocateSequence(tenantId, sequence).catch(async (error) => {
    await staged.undo();
    throw error;
  });
  const ticket = newTicket(input, id, ticketNumber(number, now), now);
  const undo = async () => {
    await staged.undo();
    await releaseSequence(tenantId, sequence, number);
  };
  return commit(
    ctx,
    () => ({
      result: id,
      ops: writes(ticket)(documentRecords(id, documents, now)),
      events: [changed('TICKET', 'created', id, ticket)],
      version: FIRST_VERSION,
    }),
    { undo, after: staged.after },
  );
};

/**
 * Merge update; replies and documents in the body are added; `managedDate` always moves. Only
 * what changes is written, conditioned on what it depends on: a reply meanwhile does not make
 * it start over; a concurrent change of a status, tag or reference does (it re-reads).
 */
export const updateTicket = async (ctx: WriteContext, id: string, patch: TicketInput): Promise<string> => {
  const { tenantId } = ctx;
  // Read first: an unknown ticket is a 404 before any file is stored.
  let known: StoredTicket | undefined = await readTicket(tenantId, id);
  checkVersion(`Ticket ${id}`, known, ctx.ifMatch);
  if (known.mergedInto) throw ticketMerged(id, known.mergedInto);
  const replies = withIds(patch.replies, Date.now());
  const batches = batchesOf(patch.attachedDocuments, replies);
  const after = (current: StoredTicket, now: number) => updatedTicket(ticketFields(current), patch, now);
  const writes = (current: StoredTicket, ticket: TicketRecord, now: number) => (docs: DocumentRecord[]) => [
    ...updateTicketWrites(tenantId, current, ticket, {
      ifMatch: ctx.ifMatch,
      addedReplies: replies.length,
      condition: NOT_MERGED,
    }),
    ...repliesWrites(tenantId, id, replies, now),
    ...documentWrites(tenantId, docs),
  ];
  /** The update, then each reply and document it added. */
  const events = (before: StoredTicket, ticket: TicketRecord, now: number, docs: DocumentRecord[]) => [
    changed('TICKET', 'updated', id, ticket, ticketFields(before)),
    ...replies.map((reply) => addedToTicket('replied', id, replyRecord(id, reply, now))),
    ...docs.map((doc) => addedToTicket('attachment_added', id, doc)),
  ];
  const then = Date.now();
  preflight(ctx, writes(known, after(known, then), then), batches, id);
  const { documents, staged } = await stageDocuments(tenantId, id, batches);
  return commit(
    ctx,
    async () => {
      const current = known ?? (await readTicket(tenantId, id));
      known = undefined;
      checkVersion(`Ticket ${id}`, current, ctx.ifMatch);
      if (current.mergedInto) throw ticketMerged(id, current.mergedInto);
      const now = Date.now();
      const docs = documentRecords(id, documents, now);
      const ticket = after(current, now);
      return {
        result: id,
        ops: writes(current, ticket, now)(docs),
        events: events(current, ticket, now, docs),
        ...versionAfter(ctx, current.version),
      };
    },
    staged,
  );
};

/**
 * The version a write that does not read the ticket is conditioned on: the one `If-Match` names,
 * when it names one (of several, which one is current is not known without a read).
 */
const onlyVersion = (ctx: WriteContext): number | undefined =>
  ctx.ifMatch?.length === 1 ? ctx.ifMatch[0] : undefined;

/**
 * Adds a reply without reading the ticket: one transaction adds the reply, counts it, moves
 * `managedDate` and hands the turn over. Concurrent replies conflict on the ticket item and are
 * retried by the transaction, so every one is kept and counted.
 */
export const replyToTicket = async (
  ctx: WriteContext,
  ticketId: string,
  reply: ReplyInput,
): Promise<string> => {
  const { tenantId } = ctx;
  if (!isId(ticketId)) throw ticketMissing(ticketId);
  const now = Date.now();
  const record = replyRecord(ticketId, { ...reply, id: newId(now) }, now);
  const turn = replyTurn(Boolean(reply.replyFromOperator));
  const batches = [{ documents: reply.attachedDocuments, path: 'attachedDocuments', replyId: record.id }];
  const writes = (docs: DocumentRecord[]) => [
    touchTicketWrite(
      tenantId,
      ticketId,
      now,
      {
        set: { toReply: turn.toReply, toReplyCustomer: turn.toReplyCustomer },
        add: { numberOfReplies: 1 },
      },
      ctx.ifMatch,
    ),
    ...replyWrites(tenantId, record),
    ...documentWrites(tenantId, docs),
  ];
  preflight(ctx, writes, batches, ticketId);
  const { documents, staged } = await stageDocuments(tenantId, ticketId, batches);
  return commit(
    ctx,
    () => {
      const docs = documentRecords(ticketId, documents, now);
      return {
        result: record.id,
        ops: writes(docs),
        ...versionAfter(ctx, onlyVersion(ctx)),
        events: [
          addedToTicket('replied', ticketId, record),
          ...docs.map((doc) => addedToTicket('attachment_added', ticketId, doc)),
        ],
      };
    },
    staged,
  );
};

export const addNote = async (ctx: WriteContext, ticketId: string, note: NoteInput): Promise<string> => {
  const { tenantId } = ctx;
  if (!isId(ticketId)) throw ticketMissing(ticketId);
  const now = Date.now();
  const id = newId(now);
  const record = {
    id,
    ticketId,
    note: note.note,
    insertBy: note.insertBy ?? null,
    assignedTo: note.assignedTo ?? null,
    date: note.date ?? now,
    remindMe: note.remindMe ?? null,
  };
  return commit(ctx, () => ({
    result: id,
    ops: [touchTicketWrite(tenantId, ticketId, now, {}, ctx.ifMatch), ...noteWrites(tenantId, record)],
    ...versionAfter(ctx, onlyVersion(ctx)),
    events: [addedToTicket('note_added', ticketId, record)],
  }));
};

const DAY_MS = 86_400_000;

/**
 * Deletes a ticket (docs/decisions.md, "Trash"): one transaction takes it out of every list,
 * search and count (its tags, counts and reference counts go as for a removal) and keeps it in
 * the trash for the tenant's retention, its replies, notes and documents untouched. With a
 * retention of 0 days it is purged at once: its cascade (store/cascades.ts) removes the rest, and
 * the tickets merged into it are let go, as a purge does (store/ticket-trash.ts `removedWrites`).
 */
export const deleteTicket = (ctx: WriteContext, id: string): Promise<string> =>
  commit(ctx, async () => {
    const current = await findTicket(ctx.tenantId, id);
    if (!current) throw ticketMissing(id);
    checkVersion(`Ticket ${id}`, current, ctx.ifMatch);
    if (current.mergedInto) throw ticketMerged(id, current.mergedInto);
    const days = ctx.trashDays ?? TRASH_DAYS;
    const deleted = changed('TICKET', 'deleted', id, null);
    if (days === 0)
      return {
        result: id,
        ops: [
          ...deleteTicketWrites(ctx.tenantId, current, ctx.ifMatch),
          ...removedWrites(ctx.tenantId, current, Date.now()),
        ],
        events: [deleted, ticketLifecycle('purged', id, null)],
      };
    const deletedAt = Date.now();
    return {
      result: id,
      ops: trashWrites(
        ctx.tenantId,
        current,
        { deletedAt, expiresAt: deletedAt + days * DAY_MS },
        ctx.ifMatch,
      ),
      events: [deleted],
    };
  });

const notInTrash = (id: string) => new NotFound(`Ticket ${id} in the trash`);

/** The trashed ticket `id` of the tenant, or 404. */
const inTrash = async (tenantId: string, id: string) => {
  const trashed = isId(id) ? await readTrashed(tenantId, id) : undefined;
  if (!trashed) throw notInTrash(id);
  return trashed;
};

/**
 * Puts a trashed ticket back as it was: same id, number, replies, notes, documents, tags and
 * counts, and the records it points at, which must all still exist (a deleted one refuses the
 * restore with 409 `reference-gone` naming the field; the ticket stays in the trash). 404 when it
 * is not there.
 */
export const restoreTicket = async (ctx: WriteContext, id: string): Promise<string> => {
  try {
    return await commit(ctx, async () => {
      const trashed = await inTrash(ctx.tenantId, id);
      const { version: _version, ...record } = trashed.ticket;
      return {
        result: id,
        ops: restoreWrites(ctx.tenantId, trashed, Date.now(), () => notInTrash(id)),
        events: [ticketLifecycle('restored', id, record)],
      };
    });
  } catch (error) {
    // Not the request's fault: what the ticket points at was deleted while it was in the trash.
    if (!(error instanceof InvalidReference)) throw error;
    const [gone] = error.errors ?? [];
    throw new Conflict(
      'reference-gone',
      `Ticket ${id} cannot be restored: ${gone?.message ?? 'a record it points at was deleted'}.`,
      gone?.path,
    );
  }
};

/** Removes a trashed ticket for good, now: out of the trash, and its cascade removes the rest. */
export const purgeTicket = (ctx: WriteContext, id: string): Promise<string> =>
  commit(ctx, async () => {
    const trashed = await inTrash(ctx.tenantId, id);
    return {
      result: id,
      ops: purgeWrites(ctx.tenantId, trashed, Date.now(), () => notInTrash(id)),
      events: [ticketLifecycle('purged', id, null)],
    };
  });
