import { config } from '../../config';
import { counterNames, type EntityKind, type ItemKey } from '../keys';
import { type IndexSpec, LIST_INDEX, SEARCH_INDEXES, SEARCH_SLOTS, type SearchSlot } from '../table-schema';
import { type CountCell, counterCell } from '../write-ops';

/**
 * Everything the store does only because of data written before issue 12 or a table still moving
 * to issue 12's indexes. The engine asks this module; nothing else knows legacy indexes, legacy
 * sort attributes or legacy counters. Each piece, and exactly when it can be deleted:
 *
 * 1. The index migration: `LEGACY_SEARCH_INDEXES`, `INDEX_MIGRATION_STEPS`, `indexesAtStep`,
 *    `searchIndexOf`, `legacySortAttributes`. A table created before issue 12 reaches the current
 *    indexes one index per deployment (docs/performance.md, "Moving an existing table"). Delete
 *    when every deployed table has reached step INDEX_MIGRATION_STEPS (no stack is deployed with
 *    `-c indexMigrationStep` any more), together with INDEX_MIGRATION_STEP (shared/config.ts) and
 *    `indexMigrationStep` (infra/stack-context.ts, infra/helpdesk-stack.ts: the stack then deploys
 *    ALL_INDEXES). The engine's calls become: `searchIndexOf(slot)` → `SEARCH_INDEXES[slot]`,
 *    `legacySortAttributes(…)` → nothing, `indexesInUse()` → the names of ALL_INDEXES. Per-slot
 *    sort copies left on items are read by nothing once the legacy indexes are gone; `helpdesk
 *    reindex` run after the last step removes them.
 * 2. Legacy counts: `LEGACY_OWN_COUNTS`, `legacyCountCells`. Before issue 12 every search was
 *    counted in a counter item of its own; for the searches listed here the engine now counts
 *    elsewhere, so a count reads the old item beside the new cell. Delete when `helpdesk reindex`
 *    has completed on every tenant of every deployment running this version or later (it moves
 *    each such item's count into the cell the engine counts in now and deletes the item, in one
 *    transaction: migrations/counts.ts), together with `CountCell.whileExists` (write-ops.ts, and
 *    its two uses in counters.ts), which only these cells use. The engine's call in search-counts.ts
 *    `searchCells`: `legacyCountCells(…)` → nothing.
 * 3. Old item shapes the code still reads: `LEGACY_TICKET_META` (`updatedAt` on tickets, stripped
 *    from the record so a write removes it) and `hasPageAttributes` (tag items without page
 *    attributes: store/ticket-pages.ts `listTickets` then reads their tickets' records with one more
 *    BatchGetItem). Delete when `helpdesk reindex` has completed on every tenant, as for 2; the
 *    second BatchGetItem of `listTickets` goes with `hasPageAttributes`. (`touchTicketWrite`'s
 *    removal of a stored `managedDate` in ticket-writes.ts is then a no-op and can go too.)
 *
 * Needing no code here: stale attributes nothing reads (stored nulls, `tenantId` and `entity` on
 * records and tickets, stored `insertDate`/`managedDate`, which `hydrate` overrides from the keys,
 * customers' and agents' `s1pk`). Every write of an item drops them, and `helpdesk reindex`
 * (migrations/reindex.ts) drops them from every item. Not part of this: `IndexSpec.succeeds`
 * (table-schema.ts) names each v2 index by its predecessor in cursors; it keeps every `nextQuery`
 * ever handed out valid and has no deadline.
 */

// --- 1. The index migration --------------------------------------------------------------------

/**
 * The search indexes of tables created before issue 12: one sort attribute per slot (`s1sk`…),
 * every attribute projected (so every change of a ticket rewrote each of its entries). A table
 * that still has one is being migrated (indexesAtStep); the code then writes that slot's sort
 * attribute too and queries it until its successor exists.
 */
export const LEGACY_SEARCH_INDEXES: Record<SearchSlot, IndexSpec> = Object.fromEntries(
  SEARCH_SLOTS.map((s) => [
    s,
    { name: `search${s.slice(1)}`, partition: `${s}pk`, sort: `${s}sk`, projection: 'ALL' },
  ]),
) as Record<SearchSlot, IndexSpec>;

/**
 * CloudFormation (like DynamoDB's UpdateTable) creates or deletes one global secondary index per
 * update, so a table with the legacy indexes reaches the current set in 18 steps: steps 1–9 add
 * `search1v2`..`search9v2` (each backfilled by DynamoDB from the attributes items already
 * carry), steps 10–18 delete `search1`..`search9`. Step 0 is the legacy set; every step differs
 * from the one before by exactly one index (test/infra/stack.test.ts), and the code works at
 * every step (searchIndexOf, legacySortAttributes). docs/performance.md ("Moving an existing
 * table") has the sequence.
 */
export const INDEX_MIGRATION_STEPS = 2 * SEARCH_SLOTS.length;

export const indexesAtStep = (step: number): IndexSpec[] => {
  if (!Number.isInteger(step) || step < 0 || step > INDEX_MIGRATION_STEPS)
    throw new Error(`index migration step must be an integer from 0 to ${INDEX_MIGRATION_STEPS}`);
  const added = Math.min(step, SEARCH_SLOTS.length);
  const deleted = Math.max(0, step - SEARCH_SLOTS.length);
  return [
    LIST_INDEX,
    ...SEARCH_SLOTS.slice(deleted).map((s) => LEGACY_SEARCH_INDEXES[s]),
    ...SEARCH_SLOTS.slice(0, added).map((s) => SEARCH_INDEXES[s]),
  ];
};

/**
 * The indexes the table has now. Usually the current set; while an existing table is moved to it
 * one index per deployment (INDEX_MIGRATION_STEP, set by the stack), a slot whose new index does
 * not exist yet is served by its legacy one, and items keep that slot's legacy sort attribute
 * written for as long as the legacy index exists, so every step serves every search completely.
 */
const byStep = new Map<number, ReadonlySet<string>>();
/** Every write asks, once per search slot: the set is built once per step (config can change in tests). */
const present = (): ReadonlySet<string> => {
  const step = config().INDEX_MIGRATION_STEP ?? INDEX_MIGRATION_STEPS;
  let names = byStep.get(step);
  if (!names) {
    names = new Set(indexesAtStep(step).map((i) => i.name));
    byStep.set(step, names);
  }
  return names;
};

/** The names of the indexes the code uses (all of them once the migration is done: ALL_INDEXES). */
export const indexesInUse = (): ReadonlySet<string> => present();

/** The index a search slot is read from. */
export const searchIndexOf = (slot: SearchSlot): IndexSpec =>
  present().has(SEARCH_INDEXES[slot].name) ? SEARCH_INDEXES[slot] : LEGACY_SEARCH_INDEXES[slot];

/** While a slot's legacy index exists (a table being migrated), it sorts by its own copy of the order. */
export const legacySortAttributes = (slot: SearchSlot, order: string): Record<string, string> =>
  present().has(LEGACY_SEARCH_INDEXES[slot].name) ? { [LEGACY_SEARCH_INDEXES[slot].sort]: order } : {};

// --- 2. Legacy counts ----------------------------------------------------------------------------

/**
 * The searches, by entity kind, whose records written before issue 12 are counted in a counter
 * item of their own (keys.counter, `counterNames.search`) while the engine now counts them
 * elsewhere: status and priority on the tickets' total counter, assignments on the agent. (Other
 * searches need none: a count kept on a reference's `refCount` always included old records, and
 * searches that keep no count read none.)
 */
export const LEGACY_OWN_COUNTS: Partial<Record<EntityKind, readonly string[]>> = {
  TICKET: ['status', 'priority', 'assignedTo._id'],
};

const isLegacyCount = (kind: EntityKind, param: string): boolean =>
  LEGACY_OWN_COUNTS[kind]?.includes(param) === true;

/**
 * The cells a count of one search value reads besides the one the engine counts it in now: its
 * legacy counter item, if the search has one. A count kept on a record (a reference's: `onRecord`,
 * that record's key) reads the old item only while the record exists: a record is deleted only
 * once nothing points at it, so its search then finds none, whatever the old item held.
 */
export const legacyCountCells = (
  tenantId: string,
  kind: EntityKind,
  param: string,
  value: string,
  onRecord?: ItemKey,
): CountCell[] => {
  if (!isLegacyCount(kind, param)) return [];
  const own = counterCell(tenantId, counterNames.search(kind, param, value));
  return [onRecord ? { ...own, whileExists: onRecord } : own];
};

// --- 3. Old item shapes --------------------------------------------------------------------------

/** `updatedAt` on tickets (it always equalled `managedDate`): not part of the record, removed by a write. */
export const LEGACY_TICKET_META = ['updatedAt'] as const;

/**
 * Whether a ticket's search entry or tag item carries its page attributes (table-schema.ts
 * PAGE_ATTRIBUTES). Every ticket has `openedBy`; tag items written before issue 12 have none.
 */
export const hasPageAttributes = (entry: Record<string, unknown>): boolean => 'openedBy' in entry;
