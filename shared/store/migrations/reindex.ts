import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../dynamo';
import {
  agentEntity,
  customerEntity,
  RECORD_META,
  ticketAreaEntity,
  ticketGroupEntity,
  ticketTypeEntity,
  webhookEntity,
} from '../entities/records';
import { documentEntity, noteEntity, replyEntity, TICKET_META, ticketEntity } from '../entities/ticket';
import type { Entity, Item } from '../entity';
import { queryOf } from '../expression';
import { isId } from '../ids';
import { inParallel } from '../in-parallel';
import { type ChildKind, childKind, type EntityKind, keys, RECORD_SK } from '../keys';
import { queryAll } from '../query-all';
import { LIST_INDEX } from '../table-schema';
import { StaleWrite } from '../transact';
import { readCounters, settleCounts } from './counts';
import { indexesInUse, LEGACY_TICKET_META } from './legacy';
import { rewriteChild, rewriteRecord, type Shape } from './rewrite';

/**
 * `helpdesk reindex [--tenant <id>] [--from <position>]` (local/cli.ts): rewrites every item of a
 * tenant into the shape the current code writes, so that a new search slot, a new derived
 * attribute or a new way of counting applies to records written before it too, and so that the
 * code kept for old data (migrations/legacy.ts) can be deleted. In a stable order:
 *
 * 1. its counter items (migrations/counts.ts): legacy counts moved into the cells the engine
 *    counts in now, counter items nothing reads deleted;
 * 2. its records, kind by kind in WALK's order, each kind oldest first (its `list` index, by
 *    `listsk`, which never changes): each item rewritten by migrations/rewrite.ts; a ticket with
 *    its tag items in one transaction, then its replies, notes and document records.
 *
 * Safe beside API writes: a record or ticket is rewritten only while its version is the one read
 * (read from the list index, eventually consistent: a stale read fails the condition), else read
 * again (consistently) and retried; after RETRIES it is reported in `skipped` and a later run
 * takes it. Resumable: every write is atomic and leaves an item in its final shape, so a run can
 * stop anywhere (a crash, an interruption) and running again is safe: what is in shape is read and
 * not written. To skip what is done, `from` continues after a position reported by `onProgress`
 * (after each page of records) or in `resumeFrom` (an interrupted run): `<tenant>/<KIND>/<listsk>`.
 * The counter pass is run every time (one partition, idempotent).
 *
 * Not rewritten: unique guards (their shape has not changed; a newly declared `unique` needs its
 * values checked for duplicates by a person first), reference counts (`refCount` and what a
 * reference also counts: moved only by the writes of the records that point), events,
 * idempotency records, webhook deliveries, client and token items.
 */

/** Declarations are typed by their record; the walk handles every one as plain items. */
const asItems = (entity: unknown) => entity as Entity<Item>;

const recordShape = (entity: unknown): Shape => ({
  entity: asItems(entity),
  system: RECORD_META,
  keep: RECORD_META,
});
const TICKETS: Shape = {
  entity: asItems(ticketEntity),
  system: TICKET_META,
  keep: TICKET_META.filter((name) => !(LEGACY_TICKET_META as readonly string[]).includes(name)),
};

/** The kinds walked, in order: the records tickets point at, then tickets. */
const WALK: readonly Shape[] = [
  ...[customerEntity, agentEntity, ticketTypeEntity, ticketAreaEntity, ticketGroupEntity, webhookEntity].map(
    recordShape,
  ),
  TICKETS,
];

const kindOf = (shape: Shape): EntityKind => shape.entity.list?.kind as EntityKind;

/** How the items of a kind are rewritten (undefined: a kind the walk does not cover). */
export const shapeOf = (kind: string): Shape | undefined => WALK.find((s) => kindOf(s) === kind);

/** The declarations of a ticket's other children (tags are the ticket's own, rewritten with it). */
const CHILDREN: Partial<Record<ChildKind, Entity<Item>>> = {
  reply: asItems(replyEntity),
  note: asItems(noteEntity),
  document: asItems(documentEntity),
};

/** How often a record that another write changed meanwhile is read again before it is skipped. */
const RETRIES = 4;
/** Records read per page (the unit of progress), and rewritten at once. */
const PAGE_SIZE = 25;
const PARALLEL = 8;

export interface ReindexReport {
  tenantId: string;
  itemsRead: number;
  itemsWritten: number;
  /** Legacy counter items whose count was moved into the cell the engine counts in now. */
  countsMoved: number;
  /** Records (`<KIND>/<id>`) that concurrent writes kept changing: a later run takes them. */
  skipped: string[];
  /** Every record was walked (false: interrupted; `resumeFrom` continues). */
  complete: boolean;
  resumeFrom?: string;
}

export interface ReindexOptions {
  /** A position to continue after (`<tenant>/<KIND>/<listsk>`, as reported). */
  from?: string;
  /** Stops after the page being rewritten; the report then says where to resume. */
  signal?: AbortSignal;
  /** After each page of records: where a later run may continue from. */
  onProgress?: (position: string, report: ReindexReport) => void;
  pageSize?: number;
}

export interface Position {
  tenantId: string;
  kind: EntityKind;
  /** The `listsk` of the last record done ('' : none of this kind yet). */
  after: string;
}

export const positionOf = (p: Position): string => `${p.tenantId}/${p.kind}/${p.after}`;

/** A position as `positionOf` writes it, or undefined. */
export const parsePosition = (text: string): Position | undefined => {
  const [tenantId, kind, after, ...rest] = text.split('/');
  if (rest.length > 0 || !isId(tenantId) || after === undefined) return undefined;
  const shape = shapeOf(kind ?? '');
  return shape ? { tenantId, kind: kindOf(shape), after } : undefined;
};

/**
 * Why this code must not rewrite the table's items now, or undefined. A rewrite writes the index
 * attributes of the indexes the code uses (at the index migration step it is told:
 * INDEX_MIGRATION_STEP) and drops the others: run at another step than the deployed functions, or
 * while an index is being created or deleted, it would drop what an index still serves.
 */
export const indexMismatch = (table: readonly { name: string; active: boolean }[]): string | undefined => {
  const inUse = [...indexesInUse()].sort();
  const names = table.map((index) => index.name).sort();
  const busy = table.filter((index) => !index.active).map((index) => index.name);
  if (busy.length > 0)
    return `indexes ${busy.join(', ')} are being created or deleted: wait until they are done`;
  if (names.join() === inUse.join()) return undefined;
  return `the table has the indexes ${names.join(', ')}, this code uses ${inUse.join(', ')}: set INDEX_MIGRATION_STEP as the deployed functions have it`;
};

/** The item and children of one record as read again, consistently (undefined: deleted meanwhile). */
const readAgain = async (shape: Shape, item: Item): Promise<{ item?: Item; children: Item[] }> => {
  if (shape !== TICKETS) {
    const out = await db().send(
      new GetCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk }, ConsistentRead: true }),
    );
    return { item: out.Item, children: [] };
  }
  const all = await queryAll({ ...queryOf({ partition: ['pk', item.pk] }), ConsistentRead: true });
  return { item: all.find((i) => i.sk === RECORD_SK), children: all.filter((i) => i.sk !== RECORD_SK) };
};

/** A ticket's children, read consistently (its own item comes from the list page). */
const childrenOf = (ticket: Item): Promise<Item[]> =>
  queryAll({
    ...queryOf({ partition: ['pk', ticket.pk], sort: { gt: ['sk', RECORD_SK] } }),
    ConsistentRead: true,
  });

/** One record (and a ticket's collection) into the current shape, retried while others change it. */
const reindexOne = async (shape: Shape, tenantId: string, listed: Item, report: ReindexReport) => {
  let item: Item | undefined = listed;
  let children = shape === TICKETS ? await childrenOf(listed) : [];
  report.itemsRead += children.length;
  for (let attempt = 0; item; attempt++) {
    try {
      // Awaited first: `+= await` would add to the total read before the wait (other records run meanwhile).
      const written = await rewriteRecord(shape, tenantId, item, children);
      report.itemsWritten += written;
      break;
    } catch (error) {
      if (!(error instanceof StaleWrite)) throw error;
      if (attempt >= RETRIES) {
        report.skipped.push(`${kindOf(shape)}/${String(item.id)}`);
        break;
      }
      ({ item, children } = await readAgain(shape, item));
      report.itemsRead += (item ? 1 : 0) + children.length;
    }
  }
  await inParallel(children, PARALLEL, async (child) => {
    const kind = childKind(String(child.sk));
    const entity = kind && CHILDREN[kind as ChildKind];
    if (!entity) return;
    const written = await rewriteChild(entity, tenantId, child);
    report.itemsWritten += written;
  });
};

/** Rewrites every item of a tenant into the current shape (see the module's comment). */
export const reindexTenant = async (
  tenantId: string,
  options: ReindexOptions = {},
): Promise<ReindexReport> => {
  const from = options.from === undefined ? undefined : parsePosition(options.from);
  if (options.from !== undefined && from?.tenantId !== tenantId)
    throw new Error(`not a position of tenant ${tenantId}: ${options.from}`);
  const report: ReindexReport = {
    tenantId,
    itemsRead: 0,
    itemsWritten: 0,
    countsMoved: 0,
    skipped: [],
    complete: false,
  };
  const counters = await readCounters(tenantId);
  report.itemsRead += counters.length;
  await settleCounts(
    WALK.map((s) => s.entity),
    tenantId,
    counters,
    report,
  );
  const first = from ? WALK.findIndex((s) => kindOf(s) === from.kind) : 0;
  for (const shape of WALK.slice(first)) {
    const kind = kindOf(shape);
    // Records after `from` (the key condition stays that of the first page: pages go on from `start`).
    const floor = from && kind === from.kind ? from.after : '';
    let after = floor;
    let start: Record<string, unknown> | undefined;
    do {
      if (options.signal?.aborted) return { ...report, resumeFrom: positionOf({ tenantId, kind, after }) };
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: LIST_INDEX.name,
          ...queryOf({
            partition: [LIST_INDEX.partition, keys.list(tenantId, kind)],
            ...(floor ? { sort: { gt: [LIST_INDEX.sort, floor] } } : {}),
          }),
          Limit: options.pageSize ?? PAGE_SIZE,
          ExclusiveStartKey: start,
        }),
      );
      const items = (page.Items ?? []) as Item[];
      report.itemsRead += items.length;
      await inParallel(items, PARALLEL, (item) => reindexOne(shape, tenantId, item, report));
      const last = items.at(-1);
      if (last) after = String(last[LIST_INDEX.sort]);
      start = page.LastEvaluatedKey;
      options.onProgress?.(positionOf({ tenantId, kind, after }), report);
    } while (start);
  }
  return { ...report, complete: true };
};
