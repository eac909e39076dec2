import { deleteBlobs, listBlobs } from '../blobs/s3';
import { type Cascade, finishCascade, isPending, type Outcome, pendingCascades } from '../store/cascades';
import { clientTokenKeys, listClientItems } from '../store/client-items';
import { withDeadline } from '../store/deadline';
import type { TicketRecord } from '../store/entities/ticket';
import { deleteHistory } from '../store/history';
import { JOB_KEPT_S } from '../store/jobs';
import { blobKeys, RECORD_SK } from '../store/keys';
import { deleteKeys } from '../store/sweep';
import { readCollection } from '../store/ticket-reads';
import { purgedWrites } from '../store/ticket-trash';
import { commit } from './commit';
import { runErasure } from './customer-erasure';
import { type RenderExport, runExport } from './customer-export';
import { ticketLifecycle } from './events';

/**
 * The cascade worker's work (store/cascades.ts): finishes one committed removal, then marks it
 * done. Every step can be repeated, so a run cut short anywhere (S3 or DynamoDB failing, the
 * function killed) is finished by the next: objects go first, then the records that name them.
 */
const work = async (cascade: Cascade, render: RenderExport): Promise<Outcome | undefined> => {
  switch (cascade.kind) {
    case 'ticket': {
      const { tenantId, ticketId } = cascade;
      const collection = await readCollection(tenantId, ticketId, 'keys');
      // A live ticket is never swept (no removal of it committed: nothing to finish).
      if (collection.ticket) return;
      const named = collection.documents.map((d) => d.key);
      const stray = await listBlobs(blobKeys.ticketFiles(tenantId, ticketId));
      await deleteBlobs([...new Set([...named, ...stray])]);
      await deleteKeys(collection.keys.filter((k) => k.sk !== RECORD_SK));
      await deleteHistory(tenantId, 'TICKET', ticketId);
      return;
    }
    case 'erasure': {
      const receipt = await runErasure(cascade);
      // Done, the job keeps its receipt, no longer what identified the customer.
      return { set: { finishedAt: Date.now(), receipt }, remove: ['identifiers'], keptS: JOB_KEPT_S };
    }
    case 'export': {
      const made = await runExport(cascade, render);
      return { set: { finishedAt: Date.now(), ...made }, keptS: JOB_KEPT_S };
    }
    case 'files':
      await deleteBlobs(cascade.keys);
      return;
    case 'tokens':
      await deleteKeys(await clientTokenKeys(cascade.clientId));
      return;
    case 'history':
      await deleteHistory(cascade.tenantId, cascade.of, cascade.recordId);
      return;
  }
};

/**
 * Runs a cascade and marks it done; one already done (a repeated stream record) is left alone.
 * An export job's document is rendered by `render` (the http layer's views).
 */
export const runCascade = async (cascade: Cascade, render: RenderExport): Promise<void> => {
  if (!(await isPending(cascade))) return;
  await finishCascade(cascade, await work(cascade, render));
};

/** An API function's timeout: what the change feed's lag is set to outlast. */
const WRITE_DEADLINE_MS = 10_000;

/** The purge of a trashed ticket was reported before (its cascade item exists): nothing to do. */
class PurgedBefore extends Error {}

/**
 * A trashed ticket DynamoDB's TTL removed at the end of its retention (the stream's record of
 * that delete, handed to the cascade worker): its purge, in one transaction, once however often
 * the record is handed over (its cascade item is keyed by the ticket: a second write of it fails).
 * The cascade then removes the ticket's replies, notes, documents and files.
 */
export const expireTrashed = async (
  tenantId: string,
  ticket: Pick<TicketRecord, 'id' | 'merged'>,
): Promise<void> => {
  try {
    // Its event is stamped as the transaction goes: bounded like an API write's, within the
    // change feed's lag (EVENT_FEED_LAG_MS), so no feed reader passes it before it commits.
    await withDeadline(WRITE_DEADLINE_MS, () =>
      commit({ tenantId }, () => ({
        result: undefined,
        ops: purgedWrites(tenantId, ticket, Date.now(), {
          key: `TTL#${ticket.id}`,
          before: () => new PurgedBefore(),
        }),
        events: [ticketLifecycle('purged', ticket.id, null)],
      })),
    );
  } catch (error) {
    if (!(error instanceof PurgedBefore)) throw error;
  }
};

/**
 * Runs every cascade still pending, oldest first per tenant: of one tenant, or of every client
 * (the recovery of `helpdesk cascades drain`, and of `npm start` for what was written while it
 * was stopped). A cascade that fails is reported and the rest go on; answers what was finished
 * and what failed.
 */
export const drainCascades = async (
  render: RenderExport,
  tenantId?: string,
): Promise<{ finished: number; failed: { tenantId: string; id: string; error: string }[] }> => {
  const tenants = tenantId ? [tenantId] : (await listClientItems()).map((item) => String(item.clientId));
  let finished = 0;
  const failed: { tenantId: string; id: string; error: string }[] = [];
  for (const tenant of tenants) {
    for (const cascade of await pendingCascades(tenant)) {
      try {
        await runCascade(cascade, render);
        finished++;
      } catch (error) {
        failed.push({ tenantId: tenant, id: cascade.id, error: (error as Error).message });
      }
    }
  }
  return { finished, failed };
};
