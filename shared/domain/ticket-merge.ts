import { TICKET_LIMITS } from '../schemas/ticket';
import type { MergedSource, TicketRecord } from '../store/entities/ticket';
import { Conflict, InvalidInput, InvalidReference } from '../store/errors';
import { checkVersion } from '../store/record-writes';
import { findTicket, findTickets, readTicket } from '../store/ticket-reads';
import { exactUpdateWrites } from '../store/ticket-writes';
import { type StoredTicket, ticketFields, ticketMerged, ticketMissing } from '../store/tickets';
import { commit, type WriteContext } from './commit';
import { ticketLifecycle } from './events';
import { closedDateAfter } from './ticket-rules';

/**
 * Merge and unmerge (docs/decisions.md, "Merge"). A merge changes the ticket items alone, in one
 * transaction: each source is closed and says `mergedInto`; the target lists its sources (with
 * their tags and cc agents, and what of those the merge added), counts their replies (a merged
 * ticket takes none, so an unmerge takes back its own count) and unites their tags and cc. Their replies, notes and documents stay where they are:
 * reads of the target's conversation read the sources' collections with its own, so a merge costs
 * the same whatever the conversations' length. A merged ticket takes no write but its unmerge,
 * which within `MERGE_LIMITS.unmergeDays` puts both sides back.
 */
const MERGE_LIMITS = {
  /** Tickets merged into one ticket at a time (each is a read of its conversation). */
  perTicket: 20,
  /** Days after a merge during which it can be undone. */
  unmergeDays: 30,
} as const;

const DAY_MS = 86_400_000;

/** `values` with those of `more` it lacks appended, and which those were. */
const unite = (values: readonly string[], more: readonly string[]) => {
  const added = more.filter((v, i) => !values.includes(v) && more.indexOf(v) === i);
  return { all: [...values, ...added], added };
};

/** Target and sources as a merge leaves them (pure). */
const merged = (target: StoredTicket, sources: StoredTicket[], now: number) => {
  let tags = target.tags ?? [];
  let cc = target.cc ?? [];
  const entries: MergedSource[] = sources.map((s) => {
    const withTags = unite(tags, s.tags ?? []);
    const withCc = unite(cc, s.cc ?? []);
    tags = withTags.all;
    cc = withCc.all;
    return {
      id: s.id,
      at: now,
      tags: s.tags ?? [],
      cc: s.cc ?? [],
      addedTags: withTags.added,
      addedCc: withCc.added,
    };
  });
  const replies = sources.reduce((sum, s) => sum + s.numberOfReplies, 0);
  const after: TicketRecord = {
    ...ticketFields(target),
    tags,
    cc,
    managedDate: now,
    numberOfReplies: target.numberOfReplies + replies,
    merged: [...(target.merged ?? []), ...entries],
  };
  const closed = sources.map(
    (s): TicketRecord => ({
      ...ticketFields(s),
      status: 'closed',
      closedDate: closedDateAfter(s, 'closed', now),
      managedDate: now,
      mergedInto: target.id,
      mergedAt: now,
      premerge: { status: s.status, closedDate: s.closedDate },
    }),
  );
  return { target: after, sources: closed, replies };
};

/** What a merge would add beyond a ticket's limits refuses it, naming the field. */
const assertWithinLimits = (after: TicketRecord) => {
  const over = (field: 'tags' | 'cc', limit: number) => {
    const count = after[field].length;
    if (count > limit)
      throw new InvalidInput(
        `Merged, the ticket would have ${count} ${field}; a ticket holds at most ${limit}.`,
        [{ path: 'sources', message: `would unite ${count} ${field} (at most ${limit})` }],
      );
  };
  over('tags', TICKET_LIMITS.tags);
  over('cc', TICKET_LIMITS.cc);
};

/** The sources still to merge into `target`, each checked; those merged into it before are skipped. */
const sourcesToMerge = (target: StoredTicket, ids: string[], found: Map<string, StoredTicket>) => {
  const sources: StoredTicket[] = [];
  ids.forEach((id, i) => {
    const path = `sources.${i}`;
    if (id === target.id)
      throw new InvalidInput('A ticket cannot be merged into itself.', [
        { path, message: 'is the ticket merged into' },
      ]);
    const source = found.get(id);
    if (!source) throw new InvalidReference(path, `Ticket ${id}`);
    if (source.mergedInto === target.id) return;
    if (source.mergedInto)
      throw new Conflict(
        'already-merged',
        `Ticket ${id} is merged into ticket ${source.mergedInto}; unmerge it first.`,
        path,
      );
    if (source.merged?.length)
      throw new Conflict(
        'merge-chain',
        `Tickets were merged into ticket ${id}: unmerge them first, or merge them into ticket ${target.id} directly.`,
        path,
      );
    sources.push(source);
  });
  const count = (target.merged?.length ?? 0) + sources.length;
  if (count > MERGE_LIMITS.perTicket)
    throw new Conflict(
      'merge-limit',
      `Ticket ${target.id} would have ${count} tickets merged into it; at most ${MERGE_LIMITS.perTicket}.`,
      'sources',
    );
  return sources;
};

/**
 * Merges `sourceIds` into ticket `targetId` in one transaction, built on exactly the tickets it
 * read (a change of any of them meanwhile makes it read again). Idempotent: a source merged into
 * the target before is left as it is; when all are, nothing is written.
 */
export const mergeTickets = async (
  ctx: WriteContext,
  targetId: string,
  sourceIds: string[],
): Promise<string> => {
  const { tenantId } = ctx;
  return commit(ctx, async () => {
    const found = await findTickets(tenantId, [targetId, ...sourceIds]);
    const target = found.get(targetId);
    if (!target) throw ticketMissing(targetId);
    checkVersion(`Ticket ${targetId}`, target, ctx.ifMatch);
    if (target.mergedInto) throw ticketMerged(targetId, target.mergedInto);
    const sources = sourcesToMerge(target, sourceIds, found);
    if (sources.length === 0) return { result: targetId, ops: [], version: target.version };
    const now = Date.now();
    const after = merged(target, sources, now);
    assertWithinLimits(after.target);
    return {
      result: targetId,
      // Conditioned on the versions read: the target's next is exact.
      version: target.version + 1,
      ops: [
        ...exactUpdateWrites(tenantId, target, after.target, after.replies),
        ...sources.flatMap((s, i) => exactUpdateWrites(tenantId, s, after.sources[i] as TicketRecord, 0)),
      ],
      events: [
        ticketLifecycle('merged', targetId, after.target, ticketFields(target)),
        ...after.sources.map((s, i) =>
          ticketLifecycle('merged', s.id, s, ticketFields(sources[i] as StoredTicket)),
        ),
      ],
    };
  });
};

/**
 * `values` without what `entry` added to them, unless another ticket still merged brought it
 * too: that one is then named as having added it (for its own unmerge).
 */
const takeBack = (
  values: readonly string[],
  entry: MergedSource,
  rest: MergedSource[],
  field: 'tags' | 'cc',
): { values: string[]; rest: MergedSource[] } => {
  const added = field === 'tags' ? entry.addedTags : entry.addedCc;
  let others = rest;
  const kept = values.filter((value) => {
    if (!added.includes(value)) return true;
    const heir = others.find((m) => m[field].includes(value));
    if (!heir) return false;
    others = others.map((m) =>
      m !== heir
        ? m
        : field === 'tags'
          ? { ...m, addedTags: [...m.addedTags, value] }
          : { ...m, addedCc: [...m.addedCc, value] },
    );
    return true;
  });
  return { values: kept, rest: others };
};

/**
 * Undoes the merge of ticket `sourceId` within `MERGE_LIMITS.unmergeDays`: it is back as it was (status,
 * closed date, conversation), and its target loses its replies from the count and the tags and
 * cc agents the merge added (those no other merged ticket brought too); replies, notes and tags
 * the target got after the merge stay with it. Idempotent: a ticket not merged is left as it is.
 */
export const unmergeTicket = async (ctx: WriteContext, sourceId: string): Promise<string> => {
  const { tenantId } = ctx;
  return commit(ctx, async () => {
    const source = await readTicket(tenantId, sourceId);
    checkVersion(`Ticket ${sourceId}`, source, ctx.ifMatch);
    const targetId = source.mergedInto;
    if (!targetId) return { result: sourceId, ops: [], version: source.version };
    const target = await findTicket(tenantId, targetId);
    const entry = target?.merged?.find((m) => m.id === sourceId);
    if (!target || !entry)
      throw new Conflict(
        'merge-target-gone',
        `Ticket ${targetId}, which ticket ${sourceId} was merged into, is in the trash: restore it first.`,
      );
    const now = Date.now();
    if (now - entry.at > MERGE_LIMITS.unmergeDays * DAY_MS)
      throw new Conflict(
        'unmerge-expired',
        `Ticket ${sourceId} was merged more than ${MERGE_LIMITS.unmergeDays} days ago; a merge can be undone for ${MERGE_LIMITS.unmergeDays} days.`,
      );
    const rest = (target.merged ?? []).filter((m) => m !== entry);
    const tags = takeBack(target.tags ?? [], entry, rest, 'tags');
    const cc = takeBack(target.cc ?? [], entry, tags.rest, 'cc');
    const targetAfter: TicketRecord = {
      ...ticketFields(target),
      tags: tags.values,
      cc: cc.values,
      managedDate: now,
      numberOfReplies: target.numberOfReplies - source.numberOfReplies,
      merged: cc.rest,
    };
    const sourceAfter: TicketRecord = {
      ...ticketFields(source),
      status: source.premerge?.status ?? source.status,
      closedDate: source.premerge ? source.premerge.closedDate : source.closedDate,
      managedDate: now,
      mergedInto: null,
      mergedAt: null,
      premerge: null,
    };
    return {
      result: sourceId,
      version: source.version + 1,
      ops: [
        ...exactUpdateWrites(tenantId, target, targetAfter, -source.numberOfReplies),
        ...exactUpdateWrites(tenantId, source, sourceAfter, 0),
      ],
      events: [
        ticketLifecycle('unmerged', sourceId, sourceAfter, ticketFields(source)),
        ticketLifecycle('unmerged', targetId, targetAfter, ticketFields(target)),
      ],
    };
  });
};
