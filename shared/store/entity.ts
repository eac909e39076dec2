import type * as z from 'zod/mini';
import type { EntityKind, ItemKey } from './keys';
import type { SearchSlot } from './table-schema';

/**
 * What an item type declares (shared/store/entities/): its key, the list it appears in, its
 * exact-match searches, range searches and multi-valued fields, the records it points at and the
 * values it keeps unique. The engine derives the rest from it: the item (entity-item.ts), what a
 * write implies beyond it (derived-writes.ts), where a search is read (search-targets.ts).
 */
export type Item = Record<string, unknown>;

/** How a query value of a search is checked and normalised (`?status=onhold` → `on hold`); plain text when absent. */
export type QueryValue = z.ZodMiniType<string, string>;

/**
 * `GET /<resource>/list?<param>=<value>`: an exact-match search, served by an index slot
 * (`SlotSearch`) or, for a value the entity keeps unique, by its guard item (`GuardSearch`).
 */
export type ExactSearch<T> = SlotSearch<T> | GuardSearch;

/** An exact search served by one index slot: the record's item carries its partition attribute. */
export interface SlotSearch<T> {
  slot: SearchSlot;
  input?: QueryValue;
  /** The key value of a record (already normalised), or undefined when it has none. */
  value: (record: T) => string | undefined;
  /** The key value of a query value (e.g. e-mails case-insensitively); identity when absent. */
  normalize?: (raw: string) => string;
  /**
   * Where the number of records with one value is kept. Default: a counter item of its own
   * (keys.counter). `total`: an attribute of the list's total counter, for fields with a few
   * values (status, priority), so the write that moves the total moves it in the same element.
   * `reference`: an attribute of the record the value names (a counted reference moves it with
   * `refCount`, in the element that checks the record exists). `entries`: no count is kept, for
   * searches that match a few records (names, unique lookup names, an external id): a page that
   * reads them all counts what it read, a longer one counts its entries with key-only queries
   * (carried in its cursors). Records written before issue 12 may still be counted where the
   * code of then counted them: a count reads those cells too (migrations/legacy.ts).
   */
  count?: { on: 'total' } | { on: 'reference'; kind: EntityKind; attribute: string } | { on: 'entries' };
}

/**
 * An exact search of a value the entity keeps unique (its `unique` entry of the same `field`),
 * served by that guard item instead of an index slot: the record writes no index entry for it.
 * It matches one record or none, so no count is kept and no page has a next one (no cursor).
 * A page reads the guard, then the record its `ownerId` names (store/page-read.ts `guardPage`).
 */
export interface GuardSearch {
  servedBy: 'unique';
  /** The `field` of the entity's `unique` entry whose guard serves it. */
  field: string;
  input?: QueryValue;
  /** The guard's value of a query value (as the unique's `value` is of a record); identity when absent. */
  normalize?: (raw: string) => string;
}

export const isGuardSearch = <T>(search: ExactSearch<T>): search is GuardSearch => 'servedBy' in search;

/** The exact searches an index slot serves (a guard-served one writes nothing to any). */
export const slotSearches = <T>(e: Entity<T>): [string, SlotSearch<T>][] =>
  Object.entries(e.searches ?? {}).flatMap(([param, s]) => (isGuardSearch(s) ? [] : [[param, s]]));

/** The unique entry whose guard serves a search (a declaration naming none is a bug). */
export const guardOf = <T>(e: Entity<T>, param: string, search: GuardSearch): Unique<T> => {
  const unique = e.unique?.find((u) => u.field === search.field);
  if (!unique) throw new Error(`${e.entity}: ?${param}= is served by a unique ${search.field} it lacks`);
  return unique;
};

/** A field with many values (tags): one child item per value, its `list` entry in the value's partition. */
export interface MultiSearch<T> {
  input?: QueryValue;
  values: (record: T) => readonly string[];
  /** Sort key of the child item holding one value. */
  sk: (value: string) => string;
  /** Attributes of that child item besides keys and index entries. */
  attributes: (record: T, value: string) => Item;
}

/** `?<param>=<from>`: every record whose field is at least `from`, ordered by it, on one slot. */
export interface RangeSearch<T> {
  slot: SearchSlot;
  input?: QueryValue;
  /** The record's position in the range (e.g. `keys.byTime(managedDate, id)`). */
  order: (record: T) => string;
  /** The first position of a query value (`?managedDate=<ms>`). */
  from: (raw: string) => string;
}

/** A pointer at another record of the tenant, at a body path (for the 400 that names it). */
export interface Pointer {
  id: string;
  path: string;
}

export interface Reference<T> {
  kind: EntityKind;
  label: string;
  pointers: (record: T) => Pointer[];
  /**
   * Counted references move the target's `refCount` (so it cannot be deleted while pointed
   * at); uncounted ones only check that a newly set target exists.
   */
  counted: boolean;
  /** A counted reference that also counts its pointers in this attribute of the target (a search's count). */
  alsoCounts?: string;
}

export interface Unique<T> {
  field: string;
  value: (record: T) => string | undefined;
  /** Problem code and message of the 409. */
  code: string;
  message: string;
}

export interface Entity<T> {
  /** The `entity` attribute of its items. */
  entity: string;
  /** Human name for messages: "Customer". */
  label: string;
  key: (tenantId: string, record: T) => ItemKey;
  /** The list the record appears in (newest first), with a counter of its size. */
  list?: {
    kind: EntityKind;
    order: (record: T) => string;
    /**
     * An exact search (list-ordered, key-only entries) every record has exactly one of these
     * values of: its partitions together hold the whole list in list order, so a bare `?page=n`
     * skips through their small entries instead of the list's whole records.
     */
    coveredBy?: { param: string; values: readonly string[] };
    /**
     * The most records of this kind a tenant may have: a create that would pass it is refused
     * (`exceeded`) by a condition on the list's total counter, in the create's transaction.
     */
    max?: { count: () => number; exceeded: (max: number) => Error };
  };
  searches?: Record<string, ExactSearch<T>>;
  multi?: Record<string, MultiSearch<T>>;
  ranges?: Record<string, RangeSearch<T>>;
  references?: Reference<T>[];
  unique?: Unique<T>[];
  /**
   * Fields not stored because the item's keys hold them (a ticket's `insertDate` is in its
   * `listsk`): read back from the item by `hydrate`, overriding any copy an older item kept.
   */
  derived?: Record<string, (item: Item) => unknown>;
  /** Values not stored when a field has them (empty lists): `hydrate` puts them back. */
  defaults?: Item;
}

/** Attributes of an entity's item that the engine owns; everything else is the record's own. */
export const INDEX_ATTRIBUTE = /^(list|s\d)(pk|sk)$/;

/** A value counts when it is not empty (an empty string is no value). */
export const nonEmpty = (value: string | undefined) =>
  value === undefined || value === '' ? undefined : value;
