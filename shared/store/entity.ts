import { createHash } from 'node:crypto';
import type * as z from 'zod/mini';
import { searchText } from '../schemas/list-query';
import { Conflict, InvalidReference } from './errors';
import { isId } from './ids';
import { counterNames, type EntityKind, type ItemKey, keys } from './keys';
import { legacyCountCells, legacySortAttributes, searchIndexOf } from './migrations/legacy';
import { type IndexSpec, LIST_INDEX, SEARCH_INDEXES, type SearchSlot } from './table-schema';
import {
  addClause,
  COUNT,
  type CountCell,
  countMove,
  type Deltas,
  itemBytes,
  itemId,
  type WriteOp,
} from './write-ops';

/**
 * The entity engine. Each item type is declared once (shared/store/entities/): its key, the
 * list it appears in, its exact-match searches, range searches and multi-valued fields, the
 * records it points at and the values it keeps unique. From a declaration and the record
 * before and after a write, this module derives everything that keeps the table exact:
 * index attributes, counter moves, child items of multi-valued fields, reference checks and
 * counts, and unique guards. Records and tickets alike go through it.
 */
export type Item = Record<string, unknown>;

/** How a query value of a search is checked and normalised (`?status=onhold` → `on hold`); plain text when absent. */
type QueryValue = z.ZodMiniType<string, string>;

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
 * A page reads the guard, then the record its `ownerId` names (store/pages.ts `guardPage`).
 */
export interface GuardSearch {
  servedBy: 'unique';
  /** The `field` of the entity's `unique` entry whose guard serves it. */
  field: string;
  input?: QueryValue;
  /** The guard's value of a query value (as the unique's `value` is of a record); identity when absent. */
  normalize?: (raw: string) => string;
}

const isGuardSearch = <T>(search: ExactSearch<T>): search is GuardSearch => 'servedBy' in search;

/** The exact searches an index slot serves (a guard-served one writes nothing to any). */
const slotSearches = <T>(e: Entity<T>): [string, SlotSearch<T>][] =>
  Object.entries(e.searches ?? {}).flatMap(([param, s]) => (isGuardSearch(s) ? [] : [[param, s]]));

/** The unique entry whose guard serves a search (a declaration naming none is a bug). */
const guardOf = <T>(e: Entity<T>, param: string, search: GuardSearch): Unique<T> => {
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

const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

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

/** An item as read, with the fields `itemOf` left out because they are derivable put back. */
export const hydrate = <T>(e: Entity<T>, item: Item): Item => {
  const derived = Object.entries(e.derived ?? {}).flatMap(([name, from]) => {
    const value = from(item);
    return value === undefined ? [] : [[name, value]];
  });
  return { ...e.defaults, ...item, ...Object.fromEntries(derived) };
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
const BASE = ['pk', 'sk', 'entity', 'tenantId', 'dv'];

const valuesOf = <T>(get: (r: T) => readonly string[], record: T | undefined): Set<string> =>
  new Set(record ? get(record) : []);

/** Where one value of an exact search is counted (its cell), and the cells read besides it. */
const searchCells = <T>(
  e: Entity<T>,
  tenantId: string,
  param: string,
  search: SlotSearch<T>,
  value: string,
) => {
  const kind = (e.list as NonNullable<Entity<T>['list']>).kind;
  const own: CountCell = {
    key: keys.counter(tenantId, counterNames.search(kind, param, value)),
    attribute: COUNT,
  };
  const count = search.count;
  if (!count) return { moved: own, read: [own] };
  if (count.on === 'entries') return { moved: undefined, read: [] };
  const cell: CountCell =
    count.on === 'total'
      ? { key: keys.counter(tenantId, counterNames.total(kind)), attribute: `${param}=${value}` }
      : { key: keys.record(tenantId, count.kind, value), attribute: count.attribute };
  // A reference's count is moved by the reference itself (referenceMoves), not here.
  const onRecord = count.on === 'reference' ? cell.key : undefined;
  return {
    moved: count.on === 'total' ? cell : undefined,
    read: [cell, ...legacyCountCells(tenantId, kind, param, value, onRecord)],
  };
};

/** Counter moves of the list total, every exact search and every value of a multi-valued field. */
const counterMoves = <T>(e: Entity<T>, tenantId: string, after?: T, before?: T): WriteOp[] => {
  if (!e.list) return [];
  const kind = e.list.kind;
  const ops: WriteOp[] = [];
  const move = (cell: CountCell | undefined, delta: number) => {
    if (cell) ops.push(countMove(cell.key, { [cell.attribute]: delta }));
  };
  const total: CountCell = { key: keys.counter(tenantId, counterNames.total(kind)), attribute: COUNT };
  const { max } = e.list;
  if (!before && max) {
    const ceiling = max.count();
    ops.push(
      countMove(
        total.key,
        { [COUNT]: 1 },
        { attribute: COUNT, max: ceiling, exceeded: () => max.exceeded(ceiling) },
      ),
    );
  } else if (!before) move(total, 1);
  if (!after) move(total, -1);
  for (const [param, search] of slotSearches(e)) {
    const now = after && nonEmpty(search.value(after));
    const old = before && nonEmpty(search.value(before));
    if (now === old) continue;
    if (old !== undefined) move(searchCells(e, tenantId, param, search, old).moved, -1);
    if (now !== undefined) move(searchCells(e, tenantId, param, search, now).moved, 1);
  }
  for (const [param, multi] of Object.entries(e.multi ?? {})) {
    const olds = valuesOf(multi.values, before);
    const news = valuesOf(multi.values, after);
    const cell = (v: string): CountCell => ({
      key: keys.counter(tenantId, counterNames.search(kind, param, v)),
      attribute: COUNT,
    });
    for (const v of olds) if (!news.has(v)) move(cell(v), -1);
    for (const v of news) if (!olds.has(v)) move(cell(v), 1);
  }
  return ops;
};

/** Adds and removes the child items whose `list` entries serve multi-valued searches. */
const childMoves = <T>(e: Entity<T>, tenantId: string, after?: T, before?: T): WriteOp[] => {
  const record = (after ?? before) as T;
  if (!e.list || !e.multi) return [];
  const { pk } = e.key(tenantId, record);
  const ops: WriteOp[] = [];
  for (const [param, multi] of Object.entries(e.multi)) {
    const olds = valuesOf(multi.values, before);
    const news = valuesOf(multi.values, after);
    for (const v of olds) if (!news.has(v)) ops.push({ item: { Delete: { Key: { pk, sk: multi.sk(v) } } } });
    for (const v of news) {
      // A kept value is rewritten only when what its item carries (page attributes) changed.
      if (olds.has(v) && before && same(multi.attributes(before, v), multi.attributes(record, v))) continue;
      ops.push({ item: { Put: { Item: childItem(e, tenantId, record, param, v) } } });
    }
  }
  return ops;
};

/** The child item holding one value of a multi-valued field, its `list` entry in the value's partition. */
export const childItem = <T>(
  e: Entity<T>,
  tenantId: string,
  record: T,
  param: string,
  value: string,
): Item => {
  const { list, multi } = e;
  const m = multi?.[param];
  if (!list || !m) throw new Error(`${e.entity} has no multi-valued ${param}`);
  return {
    ...e.key(tenantId, record),
    sk: m.sk(value),
    tenantId,
    ...m.attributes(record, value),
    [LIST_INDEX.partition]: keys.search(tenantId, list.kind, param, value),
    [LIST_INDEX.sort]: list.order(record),
  };
};

/**
 * Checks a pointed-at record exists and moves its counts (`refCount`, and what the reference
 * also counts) by `deltas`, inside the writer's transaction. Several moves of one record in one
 * transaction merge (see mergeCounters); all-zero sums are a plain existence check.
 */
export const referenceOp = (
  tenantId: string,
  ref: { kind: EntityKind; label: string },
  pointer: Pointer,
  deltas: Deltas,
): WriteOp => {
  const key = keys.record(tenantId, ref.kind, pointer.id);
  const onConditionFailed = () => new InvalidReference(pointer.path, `${ref.label} ${pointer.id}`);
  if (!isId(pointer.id)) throw onConditionFailed();
  const build = (sums: Deltas): WriteOp => {
    const add = addClause(sums);
    return add
      ? {
          item: {
            Update: {
              Key: key,
              UpdateExpression: add.expression,
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeNames: add.names,
              ExpressionAttributeValues: add.values,
            },
          },
          onConditionFailed,
        }
      : {
          item: { ConditionCheck: { Key: key, ConditionExpression: 'attribute_exists(pk)' } },
          onConditionFailed,
        };
  };
  return { ...build(deltas), counter: { id: itemId(key), deltas, build } };
};

/**
 * Counted references: +1 for each new pointer (which also checks the target exists), -1 for
 * each dropped one; unchanged pointers cost nothing. Uncounted ones: a check of each new target.
 */
const referenceMoves = <T>(e: Entity<T>, tenantId: string, after?: T, before?: T, path = ''): WriteOp[] =>
  (e.references ?? []).flatMap((ref) => {
    const at = (p: Pointer) => ({ id: p.id, path: `${path}${p.path}` });
    const olds = before ? ref.pointers(before).map(at) : [];
    const news = after ? ref.pointers(after).map(at) : [];
    if (!ref.counted) {
      const had = new Set(olds.map((p) => p.id));
      return news.filter((p) => !had.has(p.id)).map((p) => referenceOp(tenantId, ref, p, {}));
    }
    const moves = new Map<string, { pointer: Pointer; delta: number }>();
    const add = (pointer: Pointer, delta: number) => {
      const seen = moves.get(pointer.id);
      moves.set(pointer.id, {
        pointer: delta > 0 || !seen ? pointer : seen.pointer,
        delta: (seen?.delta ?? 0) + delta,
      });
    };
    for (const p of olds) add(p, -1);
    for (const p of news) add(p, 1);
    const counts = (delta: number): Deltas => ({
      refCount: delta,
      ...(ref.alsoCounts ? { [ref.alsoCounts]: delta } : {}),
    });
    return [...moves.values()]
      .filter((m) => m.delta !== 0)
      .map((m) => referenceOp(tenantId, ref, m.pointer, counts(m.delta)));
  });

/** Guard items that keep a field's value unique in the tenant: claimed, moved or released. */
const uniqueMoves = <T>(e: Entity<T>, tenantId: string, id: string, after?: T, before?: T): WriteOp[] => {
  if (!e.list) return [];
  const kind = e.list.kind;
  return (e.unique ?? []).flatMap((u) => {
    const value = after && nonEmpty(u.value(after));
    const old = before && nonEmpty(u.value(before));
    if (value === old) return [];
    const ops: WriteOp[] = [];
    if (old !== undefined) ops.push({ item: { Delete: { Key: keys.unique(tenantId, kind, u.field, old) } } });
    if (value !== undefined)
      ops.push({
        item: {
          Put: {
            Item: { ...keys.unique(tenantId, kind, u.field, value), entity: 'UNIQUE', ownerId: id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        onConditionFailed: () => new Conflict(u.code, u.message, u.field),
      });
    return ops;
  });
};

/**
 * Everything a write of one record implies beyond its own item, derived from the declaration:
 * counters, child items of multi-valued fields, reference checks and counts, unique guards.
 * `before` absent: a create; `after` absent: a delete. `path` prefixes the body paths named by
 * a failed reference check (a reply inside a ticket body: `replies.2.`).
 */
export const derivedWrites = <T>(
  e: Entity<T>,
  tenantId: string,
  id: string,
  after?: T,
  before?: T,
  path = '',
): WriteOp[] => [
  ...counterMoves(e, tenantId, after, before),
  ...childMoves(e, tenantId, after, before),
  ...referenceMoves(e, tenantId, after, before, path),
  ...uniqueMoves(e, tenantId, id, after, before),
];

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
  const total: CountCell[] = [{ key: keys.counter(tenantId, counterNames.total(kind)), attribute: COUNT }];
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
      count: [{ key: keys.counter(tenantId, counterNames.search(kind, param, value)), attribute: COUNT }],
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

/** Deep equality of stored values (maps compared whatever their key order). */
export const same = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => same((a as Item)[k], (b as Item)[k]));
};

export interface Precondition {
  /** The versions `If-Match` named (any one must be current); undefined when it named none. */
  ifMatch?: readonly number[];
  /** What a failed condition means when the item is gone. */
  missing: () => Error;
  /** What it means when `If-Match` no longer holds. */
  stale: () => Error;
}

/**
 * The condition of a write that read `current` and derived moves from it: the item exists, the
 * derived values it read are still there (only when the write moves something from them), and
 * the version is one `If-Match` named. A failure re-reads (`stale`) unless the item is gone or
 * If-Match no longer holds.
 */
const conditionOn = (current: Item, derivedChanges: boolean, pre: Precondition, extra?: string) => {
  const clauses = ['attribute_exists(pk)'];
  const names: Record<string, string> = {};
  const values: Item = {};
  if (derivedChanges) {
    names['#dv'] = DERIVED;
    if (current[DERIVED] === undefined) clauses.push('attribute_not_exists(#dv)');
    else {
      clauses.push('#dv = :dv');
      values[':dv'] = current[DERIVED];
    }
  }
  if (pre.ifMatch) {
    clauses.push(`version IN (${pre.ifMatch.map((_, i) => `:m${i}`).join(', ')})`);
    pre.ifMatch.forEach((v, i) => {
      values[`:m${i}`] = v;
    });
  }
  if (extra) clauses.push(extra);
  const onConditionFailed = (old?: Item) => {
    if (!old) return pre.missing();
    if (pre.ifMatch && !pre.ifMatch.includes(old.version as number)) return pre.stale();
    return 'stale' as const;
  };
  return { condition: clauses.join(' AND '), names, values, onConditionFailed };
};

/**
 * Changes the item read as `current` into `after` with one UpdateItem that sets only what
 * differs (so concurrent writes of other fields are kept), removes what no longer applies
 * (index entries, emptied fields; `keep` names counts other writes move), adds `add` to counters kept on the item (e.g. `numberOfReplies`) and bumps
 * the version, conditioned on what the change depends on (see conditionOn).
 */
export const updateWrite = <T>(
  e: Entity<T>,
  tenantId: string,
  current: Item,
  after: T,
  pre: Precondition & { meta?: Item; add?: Record<string, number>; keep?: readonly string[] },
): WriteOp => {
  const next = itemOf(e, tenantId, after, pre.meta);
  const add = pre.add ?? {};
  const names: Record<string, string> = {};
  const values: Item = { ':one': 1 };
  const sets: string[] = [];
  const removes: string[] = [];
  const adds: string[] = ['version :one'];
  let n = 0;
  const ref = (attr: string, value: unknown) => {
    const i = n++;
    names[`#u${i}`] = attr;
    values[`:u${i}`] = value;
    return { at: `#u${i}`, v: `:u${i}` };
  };
  for (const [attr, value] of Object.entries(next)) {
    if (BASE.includes(attr) && attr !== DERIVED) continue;
    if (attr in add || same(current[attr], value)) continue;
    const { at, v } = ref(attr, value);
    sets.push(`${at} = ${v}`);
  }
  // What the item had and the new one does not: index entries that no longer apply, fields
  // that became empty (null is not stored). Counts other writes keep on the item stay.
  for (const attr of Object.keys(current)) {
    // Keys and the version stay; anything else the new item lacks goes (an older item's
    // `tenantId`, `entity` and derivable copies included).
    if (attr in next || attr in add || attr === 'pk' || attr === 'sk' || attr === 'version') continue;
    if (pre.keep?.includes(attr)) continue;
    const at = `#r${n++}`;
    names[at] = attr;
    removes.push(at);
  }
  for (const [attr, delta] of Object.entries(add)) {
    if (!delta) continue;
    const { at, v } = ref(attr, delta);
    adds.push(`${at} ${v}`);
  }
  const derivedChanges = derivedDigest(e, recordOf<T>(current, [])) !== next[DERIVED];
  const when = conditionOn(current, derivedChanges, pre);
  const expression = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
    `ADD ${adds.join(', ')}`,
  ]
    .filter(Boolean)
    .join(' ');
  return {
    item: {
      Update: {
        Key: e.key(tenantId, after),
        UpdateExpression: expression,
        ConditionExpression: when.condition,
        ExpressionAttributeNames: { ...names, ...when.names },
        ExpressionAttributeValues: { ...values, ...when.values },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    onConditionFailed: when.onConditionFailed,
    itemBytes: itemBytes({ ...current, ...next }),
  };
};

/** Deletes the item read as `current`, conditioned like updateWrite (derived values always count). */
export const deleteWrite = <T>(
  e: Entity<T>,
  tenantId: string,
  current: Item,
  pre: Precondition & { condition?: { expression: string; values: Item } },
): WriteOp => {
  const when = conditionOn(current, true, pre, pre.condition?.expression);
  return {
    item: {
      Delete: {
        Key: e.key(tenantId, recordOf<T>(current, [])),
        ConditionExpression: when.condition,
        ExpressionAttributeNames: when.names,
        ExpressionAttributeValues: { ...when.values, ...pre.condition?.values },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    onConditionFailed: when.onConditionFailed,
  };
};
