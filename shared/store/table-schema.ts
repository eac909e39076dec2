/**
 * The physical shape of the single table: key attributes and global secondary indexes.
 * Pure data, read by the CDK stack, by the local/test table creation and by the repositories,
 * so there is exactly one place that knows attribute and index names.
 *
 * - `list` orders every record of one kind in one tenant (newest first by sort key).
 * - `search1`..`search9` (attributes s1pk/s1sk...) are generic search slots: an entity declaration
 *   maps each searchable field to a slot (see shared/store/entities/). A table created before a
 *   slot existed gets its index from `ensureTable` locally (create-table.ts), from the stack in AWS. Items without the slot's attributes stay out of it (sparse).
 * Every index projects ALL attributes so a page is built from one Query.
 */
export const TABLE_KEY = { partition: 'pk', sort: 'sk' } as const;

export interface IndexSpec {
  readonly name: string;
  readonly partition: string;
  readonly sort: string;
}

// Index names must be 3+ characters; attribute names stay short because every item carries them.
const slot = (name: string, attribute: string): IndexSpec => ({
  name,
  partition: `${attribute}pk`,
  sort: `${attribute}sk`,
});

export const LIST_INDEX: IndexSpec = slot('list', 'list');
export const SEARCH_SLOTS = ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9'] as const;
export type SearchSlot = (typeof SEARCH_SLOTS)[number];
export const SEARCH_INDEXES: Record<SearchSlot, IndexSpec> = Object.fromEntries(
  SEARCH_SLOTS.map((s) => [s, slot(`search${s.slice(1)}`, s)]),
) as Record<SearchSlot, IndexSpec>;

export const ALL_INDEXES: readonly IndexSpec[] = [LIST_INDEX, ...SEARCH_SLOTS.map((s) => SEARCH_INDEXES[s])];

/** Attribute DynamoDB deletes expired items by (access tokens). */
export const TTL_ATTRIBUTE = 'expiresAtEpoch';
