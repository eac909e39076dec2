import { searchText } from '../schemas/list-query';
import { type Entity, guardOf, type Item, isGuardSearch, type QueryValue } from './entity';
import { hydrate } from './entity-item';
import { counterNames, type ItemKey, keys } from './keys';
import { searchIndexOf } from './migrations/legacy';
import { searchCells } from './search-counts';
import { type IndexSpec, LIST_INDEX } from './table-schema';
import { type CountCell, counterCell } from './write-ops';

/**
 * Where a list and its searches are read, from the entity's declaration: the index partition and
 * the cells of its count (`searchTarget`), or the guard item a unique value's search reads
 * (`guardTarget`); and the query parameters a list takes (`searchInputs`).
 */

/**
 * Where one search of an entity's list is served: index, partition, and the cells whose sum is
 * its size (read in the page's BatchGetItem; a range search counts its entries instead, from
 * `sortFrom` on, with the list's total for the complement).
 */
export interface SearchTarget {
  index: IndexSpec;
  partition: string;
  count: readonly CountCell[];
  /** A range search: only entries whose sort key is >= this (its total is counted, not stored). */
  sortFrom?: string;
  /** Searches whose partitions together hold exactly this list, in its order (see `coveredBy`). */
  coveredBy?: SearchTarget[];
  /** No count is kept: the page counts its entries (ExactSearch `count: { on: 'entries' }`). */
  countEntries?: true;
}

/** Every search of an entity's list, by query parameter, with the schema of its query value. */
export const searchInputs = <T>(e: Entity<T>): Record<string, QueryValue> =>
  Object.fromEntries(
    [
      ...Object.entries(e.searches ?? {}),
      ...Object.entries(e.multi ?? {}),
      ...Object.entries(e.ranges ?? {}),
    ].map(([param, search]) => [param, search.input ?? searchText]),
  );

/** The list itself (no search), or one search of it with a value as the client sent it. */
export const searchTarget = <T>(
  e: Entity<T>,
  tenantId: string,
  search?: { param: string; value: string },
): SearchTarget => {
  if (!e.list) throw new Error(`${e.entity} has no list`);
  const kind = e.list.kind;
  const total: CountCell[] = [counterCell(tenantId, counterNames.total(kind))];
  if (!search) {
    const cover = e.list.coveredBy;
    return {
      index: LIST_INDEX,
      partition: keys.list(tenantId, kind),
      count: total,
      ...(cover
        ? { coveredBy: cover.values.map((value) => searchTarget(e, tenantId, { param: cover.param, value })) }
        : {}),
    };
  }
  const { param, value } = search;
  const exact = e.searches?.[param];
  if (exact && isGuardSearch(exact))
    throw new Error(`${e.entity}: ?${param}= is served by its guard (guardTarget)`);
  if (exact) {
    const key = exact.normalize ? exact.normalize(value) : value;
    return {
      index: searchIndexOf(exact.slot),
      partition: keys.search(tenantId, kind, param, key),
      count: searchCells(e, tenantId, param, exact, key).read,
      ...(exact.count?.on === 'entries' ? { countEntries: true as const } : {}),
    };
  }
  if (e.multi?.[param]) {
    return {
      index: LIST_INDEX,
      partition: keys.search(tenantId, kind, param, value),
      count: [counterCell(tenantId, counterNames.search(kind, param, value))],
    };
  }
  const range = e.ranges?.[param];
  if (range) {
    return {
      index: searchIndexOf(range.slot),
      partition: keys.range(tenantId, kind, param),
      count: total,
      sortFrom: range.from(value),
    };
  }
  throw new Error(`${e.entity} is not searchable by ${param}`);
};

/** Where a guard-served search (`GuardSearch`) is read: the guard item of its value, then the record it names. */
export interface GuardTarget {
  /** The guard item of the value searched. */
  guard: ItemKey;
  /** The key of the record a guard's `ownerId` names. */
  owner: (id: string) => ItemKey;
  /** Whether a record as read has the value searched (a write may move it between the two reads). */
  holds: (item: Item) => boolean;
}

/** The guard serving a search, or undefined when no search is asked or an index slot serves it (`searchTarget`). */
export const guardTarget = <T>(
  e: Entity<T>,
  tenantId: string,
  search?: { param: string; value: string },
): GuardTarget | undefined => {
  const exact = search && e.searches?.[search.param];
  if (!search || !exact || !isGuardSearch(exact)) return undefined;
  if (!e.list) throw new Error(`${e.entity} has no list`);
  const kind = e.list.kind;
  const unique = guardOf(e, search.param, exact);
  // The query value normalised as the unique's values are (e-mails in lower case).
  const value = exact.normalize ? exact.normalize(search.value) : search.value;
  return {
    guard: keys.unique(tenantId, kind, unique.field, value),
    owner: (id) => keys.record(tenantId, kind, id),
    holds: (item) => unique.value(hydrate(e, item) as T) === value,
  };
};
