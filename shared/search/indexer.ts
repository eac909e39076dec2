import { cascadeOf } from '../store/cascades';
import { customerEntity } from '../store/entities/records';
import type { Item } from '../store/entity';
import { NotFound } from '../store/errors';
import { inParallel } from '../store/in-parallel';
import { keys } from '../store/keys';
import { getRecord } from '../store/record-reads';
import { inRegion } from '../store/store-region';
import { readCollection } from '../store/ticket-reads';
import { type Conversation, customerDocument, ticketDocument } from './documents';
import {
  forgetCustomer,
  removeCustomer,
  removeTicket,
  ticketsNaming,
  upsertCustomer,
  upsertTicket,
} from './index-writes';
import { recordApplied } from './positions';
import type { SqlEngine } from './sql-engine';

/**
 * The indexer (docs/search.md): what the table's stream says changed, applied to the index. It
 * reads two kinds of items from the stream (infra/search.ts filters it to them):
 *
 * - the change feed's events (every committed change has one, in its own transaction): a
 *   `ticket.*` event has its ticket indexed again, a `customer.*` event its customer; an erased
 *   customer's words leave the index at once;
 * - an erasure job marked done: the tickets it may have rewritten are indexed again as they are now.
 *
 * A record is indexed as the table holds it now (a consistent read), never as the event says it
 * was, so records arriving late, twice or out of order cannot put an older state back; the
 * writes' version guard (search/index-writes.ts) settles two readers racing. Each batch then
 * records the positions it applied (search/positions.ts).
 */
export interface ChangeRecord {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  newImage?: Item;
  oldImage?: Item;
}

interface TenantWork {
  positions: string[];
  /**
   * Several regions: where the tenant's latest event was written, its home then. Its records are
   * read there (consistent on the replica where they committed): this region's replica may not
   * have them yet when the event arrives, as a global table replicates each item on its own.
   */
  region?: string;
  tickets: Set<string>;
  customers: Set<string>;
  /** Customers erased, in the order of their events. */
  erased: string[];
  /** Finished erasures: the customer and what identified them in other text. */
  erasures: { customerId: string; identifiers: string[] }[];
}

const EVENT_ATTRIBUTES = ['occurredAt', 'resourceId', 'type'] as const;

const isEvent = (image: Item | undefined): image is Item =>
  image !== undefined && EVENT_ATTRIBUTES.every((a) => image[a] !== undefined);

/** The erasure job this record finished (not a dry run), else undefined. */
const finishedErasure = (r: ChangeRecord) => {
  if (r.eventName !== 'MODIFY' || r.newImage?.done !== true || r.oldImage?.done === true) return undefined;
  const job = cascadeOf(r.newImage);
  return job?.kind === 'erasure' && !job.dryRun ? job : undefined;
};

/** What a batch of stream records asks of the index, per tenant. */
export const workOf = (records: readonly ChangeRecord[]): Map<string, TenantWork> => {
  const work = new Map<string, TenantWork>();
  const of = (tenantId: string): TenantWork => {
    let w = work.get(tenantId);
    if (!w) {
      w = { positions: [], tickets: new Set(), customers: new Set(), erased: [], erasures: [] };
      work.set(tenantId, w);
    }
    return w;
  };
  for (const r of records) {
    const image = r.newImage;
    if (r.eventName === 'INSERT' && isEvent(image)) {
      const tenantId = keys.tenantOfEvents(String(image.pk));
      if (tenantId === undefined) continue;
      const w = of(tenantId);
      w.positions.push(String(image.sk));
      if (typeof image.region === 'string') w.region = image.region;
      const [resource] = String(image.type).split('.');
      const id = String(image.resourceId);
      if (resource === 'ticket') w.tickets.add(id);
      else if (image.type === 'customer.erased') w.erased.push(id);
      else if (resource === 'customer') w.customers.add(id);
    } else {
      const job = finishedErasure(r);
      if (job?.kind !== 'erasure') continue;
      // What identified the customer is taken off the job as it finishes: its image before has it.
      const old = r.oldImage ?? {};
      const w = of(job.tenantId);
      if (job.region) w.region = job.region;
      w.erasures.push({
        customerId: job.customerId,
        identifiers: Array.isArray(old.identifiers) ? old.identifiers.map(String) : [],
      });
    }
  }
  return work;
};

/** Reads at once against the table, per batch. */
const READS = 8;

/** A ticket as the table holds it now: its row written, or removed when it is gone (deleted, trashed, purged). */
export const indexTicket = async (engine: SqlEngine, tenantId: string, id: string): Promise<void> => {
  const own = await readCollection(tenantId, id);
  if (!own.ticket) {
    await removeTicket(engine, tenantId, id);
    return;
  }
  // A ticket others were merged into reads as one conversation with theirs (as its detail does).
  const sources = await Promise.all((own.ticket.merged ?? []).map((s) => readCollection(tenantId, s.id)));
  const conversation: Conversation = {
    replies: [own, ...sources].flatMap((c) => c.replies),
    notes: [own, ...sources].flatMap((c) => c.notes),
    documents: [own, ...sources].flatMap((c) => c.documents),
  };
  await upsertTicket(engine, tenantId, ticketDocument(own.ticket, conversation));
};

/** A customer as the table holds them now, or removed. */
export const indexCustomer = async (engine: SqlEngine, tenantId: string, id: string): Promise<void> => {
  try {
    const customer = await getRecord(customerEntity, tenantId, id, true);
    await upsertCustomer(engine, tenantId, customerDocument(customer));
  } catch (error) {
    if (!(error instanceof NotFound)) throw error;
    await removeCustomer(engine, tenantId, id);
  }
};

/** One tenant's share of a batch: erasures first, then customers (their tickets read their rows), then tickets. */
const applyTenant = async (engine: SqlEngine, tenantId: string, w: TenantWork): Promise<void> => {
  for (const id of w.erased) {
    await forgetCustomer(engine, tenantId, id);
    w.customers.delete(id);
  }
  for (const e of w.erasures)
    for (const id of await ticketsNaming(engine, tenantId, e.customerId, e.identifiers)) w.tickets.add(id);
  await inParallel([...w.customers], READS, (id) => indexCustomer(engine, tenantId, id));
  await inParallel([...w.tickets], READS, (id) => indexTicket(engine, tenantId, id));
  await recordApplied(engine, tenantId, w.positions);
};

/** Applies a batch; throws when any of it failed (every step can be repeated: the stream hands the batch again). */
export const applyChanges = async (engine: SqlEngine, records: readonly ChangeRecord[]): Promise<void> => {
  const work = workOf(records);
  for (const [tenantId, w] of work)
    await (w.region
      ? inRegion(w.region, () => applyTenant(engine, tenantId, w))
      : applyTenant(engine, tenantId, w));
};
