import { assertTimeForRetry, mayRetry, nextPause, pauseBeforeRetry, sleep } from '../store/attempt-budget';
import { HISTORY_DAYS } from '../store/entities/system';
import { Contended, OutcomeUnknown, RequestInProgress } from '../store/errors';
import { type EventDraft, eventWrites, orderInFeed } from '../store/events';
import { inFeedTurn } from '../store/feed-turns';
import { type Actor, type HistoryDraft, historyWrites } from '../store/history';
import { FeedClockAhead, StaleWrite, writeAtomically } from '../store/transact';
import type { WriteOp, WriteOutcome } from '../store/write-ops';
import { historyOf } from './history';

/**
 * Every write of the service goes through `commit`: one transaction built by a plan, with the
 * request's idempotency record in it, files staged before it undone if it fails, and work that
 * only makes sense once it committed (deleting a replaced photo, sweeping a deleted ticket's
 * children) run after it.
 */
export interface WritePlan<R> {
  result: R;
  ops: WriteOp[];
  /** What happened, for the change feed: written in the same transaction (store/events.ts). */
  events?: EventDraft[];
  /** Once committed. A failure here does not undo the write (it committed); it is left for a retry to sweep. */
  after?: () => Promise<void>;
  /**
   * The version the write gives the record its route names (answered as `ETag`), only when it is
   * known exactly: a new record's 1, or one more than a version the write is conditioned on.
   */
  version?: number;
}

/** Side effects made before the transaction (objects put in S3). */
export interface Staged {
  /** The transaction failed: remove what was staged for it. */
  undo: () => Promise<void>;
  /** The transaction committed: release what staging consumed (presigned uploads). */
  after?: () => Promise<void>;
}

export const NOTHING_STAGED: Staged = { undo: async () => undefined };

/** Who writes: the tenant, the request's `If-Match` and its idempotency record. */
export interface WriteContext {
  tenantId: string;
  /**
   * The versions `If-Match` names, any one of which may be current (empty: it names none, or is
   * malformed); undefined without the header or for `*`. See shared/http/if-match.ts.
   */
  ifMatch?: readonly number[];
  /**
   * The element that stores this request's answer under its Idempotency-Key, made of the write's
   * result (what `commit` returns: the route's answer is made of the same value).
   */
  remember?: (result: unknown, outcome: WriteOutcome) => WriteOp[];
  /**
   * Hears what the committed change tells its answer: its position in the tenant's feed (the sort
   * key of its last event: search/positions.ts, `Helpdesk-Position`) and the version it made.
   */
  committed?: (outcome: WriteOutcome) => void;
  /** The transaction's ClientRequestToken (from the Idempotency-Key): a retry cannot apply it twice. */
  requestToken?: string;
  /** Answers with the stored outcome of this Idempotency-Key if it committed (throws the replay). */
  replay?: () => Promise<void>;
  /** Hears of after-commit work that failed (logged); the write stands and its answer too. */
  afterFailed?: (error: unknown) => void;
  /** How many days the tenant's deleted tickets stay in the trash (0: purged at once); 30 unless set. */
  trashDays?: number;
  /** How many days the tenant's history entries are kept; two years unless set. */
  historyDays?: number;
  /** Who writes, for the history (the client; the request): the tenant's client alone unless given. */
  actor?: Actor;
  /**
   * The import job writing (domain/import-run.ts): its events carry its id (the change feed shows
   * `importId`; webhooks are not sent them, only the job's `import.completed`).
   */
  importId?: string;
}

/**
 * The version a write conditioned on `If-Match` gives the record (`current`: the version it is
 * conditioned on), for its plan: none without If-Match, where other writers' changes of other
 * fields may land beside it and the number is not known without a read.
 */
export const versionAfter = (ctx: WriteContext, current: number | undefined): { version?: number } =>
  ctx.ifMatch && current !== undefined ? { version: current + 1 } : {};

/**
 * A plan that read a record is rebuilt when another write changed it in between, and a write
 * refused for its feed stamp is re-stamped: after a jittered pause, while the request's deadline
 * leaves time for an answer (store/attempt-budget.ts); outside a request at most this often.
 */
const PLAN_ATTEMPTS = 10;
const RETRY_PAUSE_MS = 5;
const MAX_RETRY_PAUSE_MS = 1000;
const contended = () => new Contended();

/**
 * Another request with the same Idempotency-Key holds the transaction token: once it commits,
 * answer with its outcome; while it runs, say so (409) rather than wait out the deadline.
 */
const replayWhenCommitted = async (ctx: WriteContext, inProgress: RequestInProgress): Promise<never> => {
  for (let attempt = 0; attempt < 5 && ctx.replay; attempt++) {
    await ctx.replay();
    await sleep(20 * 2 ** attempt);
  }
  throw inProgress;
};

/**
 * Builds the plan and commits it; when the records it read changed meanwhile (`StaleWrite`),
 * builds it again from a fresh read after a jittered pause, and re-stamps a write refused for
 * its stamp (`FeedClockAhead`), while the deadline allows (then `Contended`, nothing written).
 * When the transaction fails for any reason, what was staged is undone before the error goes on.
 */
export const commit = async <R>(
  ctx: WriteContext,
  build: () => Promise<WritePlan<R>> | WritePlan<R>,
  staged: Staged = NOTHING_STAGED,
): Promise<R> => {
  let plan!: WritePlan<R>;
  // Its history entries, drafted once per plan (a re-stamp only stamps them anew).
  let drafts: HistoryDraft[] = [];
  // After an item's later event (a clock a little ahead of ours): the next stamp goes past it.
  let notBefore = 0;
  let outcome: WriteOutcome = {};
  try {
    let rebuild = true;
    let pause = 0;
    for (let attempt = 1; ; attempt++) {
      // A write refused only for its stamp (an item's later event) goes again as built, re-stamped.
      if (rebuild) {
        plan = await build();
        drafts = historyOf(plan.events ?? [], ctx.actor ?? { clientId: ctx.tenantId });
      }
      // The read may have taken a while: a retry still goes only if it can be answered in time.
      if (attempt > 1) assertTimeForRetry(contended);
      try {
        // Events are stamped as the transaction goes out (each attempt anew): the feed's lag
        // (EVENT_FEED_LAG_MS) only has to cover one send. One writer of a ticket at a time here.
        await inFeedTurn(plan.ops, contended, () => {
          const stamp = Math.max(Date.now(), notBefore);
          const ops = plan.ops.map((op) => (op.feedOrdered ? orderInFeed(op, stamp) : op));
          const events = eventWrites(ctx.tenantId, plan.events ?? [], stamp, ctx.importId);
          const position = events.at(-1)?.item.Put?.Item?.sk as string | undefined;
          outcome = {
            ...(position ? { position } : {}),
            ...(plan.version === undefined ? {} : { version: plan.version }),
          };
          const history = historyWrites(ctx.tenantId, drafts, stamp, ctx.historyDays ?? HISTORY_DAYS);
          return writeAtomically(
            [...(ctx.remember?.(plan.result, outcome) ?? []), ...ops, ...events, ...history],
            ctx.requestToken,
          );
        });
        break;
      } catch (error) {
        if (error instanceof RequestInProgress) await replayWhenCommitted(ctx, error);
        if (!(error instanceof StaleWrite)) throw error;
        rebuild = !(error instanceof FeedClockAhead);
        if (error instanceof FeedClockAhead) notBefore = error.clock + 1;
        if (!mayRetry(attempt, PLAN_ATTEMPTS)) throw contended();
        // Writers that lost together (a busy ticket) spread out rather than collide again.
        pause = nextPause(pause, RETRY_PAUSE_MS, MAX_RETRY_PAUSE_MS);
        await pauseBeforeRetry(pause, contended);
      }
    }
  } catch (error) {
    // A transaction that may still land keeps what it points at (its files, its number).
    if (!(error instanceof OutcomeUnknown)) await staged.undo();
    throw error;
  }
  ctx.committed?.(outcome);
  // The write committed: what fails now is left for a retry or a sweep, never a false error.
  const done = await Promise.allSettled([staged.after?.(), plan.after?.()]);
  for (const outcome of done) if (outcome.status === 'rejected') ctx.afterFailed?.(outcome.reason);
  return plan.result;
};
