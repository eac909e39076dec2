/**
 * The physical shape of the single table: key attributes and global secondary indexes, with
 * what each index projects. Pure data, read by the CDK stack, by the local/test table creation,
 * by the bench's cost model and by the repositories, so there is exactly one place that knows
 * attribute and index names. Why each index projects what it does: docs/performance.md.
 *
 * - `list` orders every record of one kind in one tenant (newest first by `listsk`) and projects
 *   ALL: a plain list page is one Query of whole records (tickets included: the cheapest read of
 *   25 tickets is one Query of about 50 KB, not 25 item reads).
 * - `search1v2`..`search9v2` (partition `s1pk`..`s9pk`) are generic search slots: an entity
 *   declaration maps each searchable field to a slot (shared/store/entities/). Exact-search slots
 *   are ordered by the list order (`listsk`, shared: no copy of it per slot on the item); range
 *   slots (`s8`) by their own sort attribute. They project only the keys and PAGE_ATTRIBUTES, so
 *   a write that changes neither the search key nor those writes nothing to them, and a search
 *   page reads its records, what they point at and its count in one BatchGetItem.
 * Items without a slot's attributes stay out of its index (sparse).
 */
export const TABLE_KEY = { partition: 'pk', sort: 'sk' } as const;

export interface IndexSpec {
  readonly name: string;
  readonly partition: string;
  readonly sort: string;
  /** `ALL`, or the non-key attributes projected besides the table and index keys (INCLUDE; none: KEYS_ONLY). */
  readonly projection: 'ALL' | readonly string[];
  /**
   * The index this one replaced, ordered alike: cursors keep naming it (store/page-source.ts), so a
   * `nextQuery` handed out before a migration step still works after it.
   */
  readonly succeeds?: string;
}

/**
 * What a page of tickets needs from a search entry to read, in the same BatchGetItem as the
 * tickets, the records they point at (customer, agents, lookups): the ticket's reference
 * attributes (entities/ticket.ts `references`; a unit test keeps the two equal). They change
 * only when a ticket is reassigned or retyped, so replies, notes and edits never rewrite an entry.
 */
export const PAGE_ATTRIBUTES = ['openedBy', 'assignedTo', 'cc', 'type', 'area', 'group'] as const;

// Index names must be 3+ characters; attribute names stay short because every item carries them.
export const LIST_INDEX: IndexSpec = { name: 'list', partition: 'listpk', sort: 'listsk', projection: 'ALL' };

export const SEARCH_SLOTS = ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9'] as const;
export type SearchSlot = (typeof SEARCH_SLOTS)[number];
/** Slots ordered by a field of their own (range searches); every other slot follows the list order. */
export const RANGE_SLOTS: readonly SearchSlot[] = ['s8'];

const searchIndex = (slot: SearchSlot): IndexSpec => ({
  name: `search${slot.slice(1)}v2`,
  succeeds: `search${slot.slice(1)}`,
  partition: `${slot}pk`,
  sort: RANGE_SLOTS.includes(slot) ? `${slot}sk` : LIST_INDEX.sort,
  projection: PAGE_ATTRIBUTES,
});
export const SEARCH_INDEXES: Record<SearchSlot, IndexSpec> = Object.fromEntries(
  SEARCH_SLOTS.map((s) => [s, searchIndex(s)]),
) as Record<SearchSlot, IndexSpec>;

/**
 * The indexes of a table created today. A table created before issue 12 moves to them one index
 * per deployment (store/migrations/legacy.ts `indexesAtStep`, whose last step is this set).
 */
export const ALL_INDEXES: readonly IndexSpec[] = [LIST_INDEX, ...SEARCH_SLOTS.map((s) => SEARCH_INDEXES[s])];

/** ALL, KEYS_ONLY, or INCLUDE of the listed attributes. */
export const projectionOf = (index: IndexSpec) =>
  index.projection === 'ALL'
    ? { ProjectionType: 'ALL' as const }
    : index.projection.length === 0
      ? { ProjectionType: 'KEYS_ONLY' as const }
      : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.projection] };

/** Attribute DynamoDB deletes expired items by (access tokens). */
export const TTL_ATTRIBUTE = 'expiresAtEpoch';

/**
 * The feed's clock on an item whose events must follow its commits (store/events.ts
 * `orderInFeed`): the instant of its last event. Writes that append to a ticket (replies,
 * notes) do not read it and are not conditioned on its version, so two of them stamped
 * t1 < t2 could commit t2 first; the feed (ordered by
 * stamp) and a webhook's deliveries (ordered by commit, from the stream) would then disagree.
 * Conditioning each such write on the clock being older than its stamp makes the later-stamped
 * write commit later (a write that finds a newer clock is re-stamped and sent again).
 */
export const FEED_CLOCK = 'feedAt';
