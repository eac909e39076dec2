import { createHash } from 'node:crypto';
import {
  type Entity,
  guardOf,
  INDEX_ATTRIBUTE,
  type Item,
  isGuardSearch,
  nonEmpty,
  slotSearches,
} from './entity';
import { ERASED_MARK, keys } from './keys';
import { legacySortAttributes } from './migrations/legacy';
import { LIST_INDEX, SEARCH_INDEXES } from './table-schema';

/**
 * A record's own item, from its declaration: what is stored of it, its key and index attributes
 * (list entry, exact-search and range slots), the digest of what other items are derived from,
 * and the way back from an item as read to the record.
 */

/** The index attributes of a record's own item: its list entry, exact-search and range slots. */
export const indexAttributes = <T>(e: Entity<T>, tenantId: string, record: T): Item => {
  const attributes: Item = {};
  if (!e.list) return attributes;
  const order = e.list.order(record);
  attributes[LIST_INDEX.partition] = keys.list(tenantId, e.list.kind);
  attributes[LIST_INDEX.sort] = order;
  for (const [param, search] of slotSearches(e)) {
    const value = nonEmpty(search.value(record));
    if (value === undefined) continue;
    const index = SEARCH_INDEXES[search.slot];
    if (index.sort !== LIST_INDEX.sort)
      throw new Error(`${search.slot} is a range slot: ${param} cannot use it`);
    attributes[index.partition] = keys.search(tenantId, e.list.kind, param, value);
    Object.assign(attributes, legacySortAttributes(search.slot, order));
  }
  for (const [param, range] of Object.entries(e.ranges ?? {})) {
    attributes[SEARCH_INDEXES[range.slot].partition] = keys.range(tenantId, e.list.kind, param);
    attributes[SEARCH_INDEXES[range.slot].sort] = range.order(record);
  }
  return attributes;
};

/**
 * What of a record is stored: nothing derivable. No null field (absent reads as null), no field
 * at its declared default, none the keys hold (`derived`); the item's type and tenant are in
 * its key (keys.ts `itemKindOf`).
 */
const stored = <T>(e: Entity<T>, record: Item): Item =>
  Object.fromEntries(
    Object.entries(record).filter(
      ([name, value]) =>
        value !== null &&
        value !== undefined &&
        !(e.derived && name in e.derived) &&
        !(e.defaults && name in e.defaults && same(e.defaults[name], value)),
    ),
  );

/** The record's own item: its stored fields, key and index attributes. */
export const itemOf = <T>(e: Entity<T>, tenantId: string, record: T, system: Item = {}): Item => ({
  ...stored(e, record as Item),
  ...system,
  ...e.key(tenantId, record),
  ...indexAttributes(e, tenantId, record),
  ...(e.list ? { [DERIVED]: derivedDigest(e, record) } : {}),
});

/**
 * An item as read, with the fields `itemOf` left out because they are derivable put back: in
 * place, for the item is the read's own (the SDK made it for this read): a copy of a ticket's
 * ~30 attributes cost ~10 µs, and a list page hydrates 26 tickets (docs/performance.md, "Issue
 * 27, seventh pass"). Idempotent; a caller that keeps the item as stored passes a copy
 * (migrations/rewrite.ts).
 */
export const hydrate = <T>(e: Entity<T>, item: Item): Item => {
  for (const name in e.defaults) if (item[name] === undefined) item[name] = e.defaults[name];
  for (const name in e.derived) {
    const value = e.derived[name]?.(item);
    if (value !== undefined) item[name] = value;
  }
  return item;
};

/**
 * `dv`: a digest of everything the engine derives other items from (search values, multi
 * values, pointers, unique values). A write that moves counters, guards or references from
 * the values it read is conditioned on this digest alone, so writes that change none of them
 * (a subject edit, a reply) never conflict with it.
 */
export const DERIVED = 'dv';

export const derivedDigest = <T>(e: Entity<T>, record: T): string => {
  const parts = [
    // A guard-served search's value is its unique's (the same digest as when a slot served it).
    Object.entries(e.searches ?? {}).map(([param, s]) => [
      param,
      (isGuardSearch(s) ? guardOf(e, param, s).value(record) : s.value(record)) ?? null,
    ]),
    Object.entries(e.multi ?? {}).map(([param, m]) => [param, [...m.values(record)].sort()]),
    (e.references ?? []).map((ref) => ref.pointers(record).map((p) => p.id)),
    (e.unique ?? []).map((u) => u.value(record) ?? null),
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
};

/** Strips keys, index attributes and the given system attributes: the record as it was stored. */
export const recordOf = <T>(item: Item, system: readonly string[]): T =>
  Object.fromEntries(
    Object.entries(item).filter(
      ([name]) => !INDEX_ATTRIBUTE.test(name) && !system.includes(name) && !BASE.includes(name),
    ),
  ) as T;
export const BASE = ['pk', 'sk', 'entity', 'tenantId', 'dv'];

/** Deep equality of stored values (maps compared whatever their key order). */
/** The item read, unless it is an erased customer's mark (store/customer-erasure.ts): that is no record. */
export const liveItem = <T extends Item>(item: T | undefined): T | undefined =>
  item && !(ERASED_MARK in item) ? item : undefined;

export const same = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => same((a as Item)[k], (b as Item)[k]));
};
