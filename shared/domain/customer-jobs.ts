import type { EraseInput } from '../schemas/customer';
import { erasedMarkWrite } from '../store/customer-erasure';
import { derivedWrites } from '../store/derived-writes';
import { customerEntity } from '../store/entities/records';
import { HISTORY_DAYS } from '../store/entities/system';
import { type Job, jobWrite } from '../store/jobs';
import { getRecord } from '../store/record-reads';
import { fieldsOf } from '../store/record-writes';
import { commit, type WriteContext } from './commit';
import { customerErased } from './events';
import { identifiersOf } from './redaction';

/**
 * What a client asks of one customer's data: an export (domain/customer-export.ts) or an erasure
 * (domain/customer-erasure.ts), each a job (store/jobs.ts) committed in one transaction and run by
 * the cascade worker. Apart from the runs, so the functions that ask carry none of the reading.
 */
/** Asks for an export of the customer; answers the job. 404 for no customer. */
export const requestExport = (ctx: WriteContext, customerId: string, baseUrl: string): Promise<Job> =>
  commit(ctx, async () => {
    await getRecord(customerEntity, ctx.tenantId, customerId, true);
    const { job, op } = jobWrite(ctx.tenantId, { kind: 'export', customerId, baseUrl });
    return { result: job, ops: [op] };
  });

/** Asks for an erasure (or its dry run) of the customer; answers the job. 404 for no customer. */
export const requestErasure = (
  ctx: WriteContext,
  customerId: string,
  request: EraseInput,
  baseUrl: string,
): Promise<Job> =>
  commit(ctx, async () => {
    const current = await getRecord(customerEntity, ctx.tenantId, customerId, true);
    const now = Date.now();
    const { job, op } = jobWrite(
      ctx.tenantId,
      {
        kind: 'erasure',
        customerId,
        baseUrl,
        mode: request.mode,
        dryRun: request.dryRun,
        identifiers: identifiersOf(current),
        since: current.createdAt,
        photo: current.photo?.key ?? null,
        actor: ctx.actor ?? { clientId: ctx.tenantId },
        historyDays: ctx.historyDays ?? HISTORY_DAYS,
      },
      now,
    );
    if (request.dryRun) return { result: job, ops: [op] };
    return {
      result: job,
      ops: [
        op,
        erasedMarkWrite(ctx.tenantId, current, now),
        ...derivedWrites(customerEntity, ctx.tenantId, customerId, undefined, fieldsOf(current)),
      ],
      events: [customerErased(customerId)],
    };
  });
