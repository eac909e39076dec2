import { type IndexSpec, TABLE_KEY } from '../shared/store/table-schema';
import { itemBytes } from '../shared/store/write-ops';

/**
 * What AWS charges for a request, by its documented rules, from the items' actual images.
 * Pure: no SDK, no clock. The meter (meter.ts, aws-metering.ts) reads the images; this decides
 * what they cost. The rules (docs/performance.md, "Capacity units on AWS's rules"):
 *
 * - Item size: `itemBytes` (shared/store/write-ops.ts), DynamoDB's rule (names plus values).
 * - Writes, per item: a put or an update costs ceil(max(size before, size after) / 1 KB) units,
 *   a delete ceil(size before / 1 KB), a ConditionCheck ceil(size / 1 KB); at least 1 each.
 *   Every element of a TransactWriteItems costs double (prepare and commit).
 * - Index writes, per index, from the item before and after: only an item holding both index key
 *   attributes as strings is in the index (sparse); its entry is the table keys, the index keys
 *   and the projected attributes. Entering the index costs the new entry, leaving it the old
 *   one, a changed index key both (a delete and a put); otherwise one write of the larger entry
 *   when a projected attribute changed, nothing when none did. 1 KB units, at least 1 a write.
 *   The doubling is the table's alone: an index write made by a transaction costs what it costs
 *   outside one. AWS documents two underlying writes "of every item in the transaction"; index
 *   entries are maintained after it, and measurements against DynamoDB agree (the DynamoDB
 *   emulator dynoxide aligned its accounting to them: github.com/nubo-db/dynoxide/pull/188).
 *   `conservative` doubles them as well, the upper bound the bench reports beside.
 * - Reads: 4 KB units, at least 1, of each item read by GetItem or BatchGetItem (a missing item
 *   costs the minimum), of the sum of the entries a Query or Scan read before any filter (index
 *   entries as projected); eventually consistent reads (the default, and every index read) cost
 *   half, transactional reads double. ProjectionExpression and `Select: COUNT` change nothing.
 */
export type Item = Record<string, unknown>;

export const WRITE_UNIT_BYTES = 1024;
export const READ_UNIT_BYTES = 4096;

/** The table's key attributes (TABLE_KEY unless a table says otherwise). */
export interface TableKey {
  readonly partition: string;
  readonly sort: string;
}

/** Write units of one write of `bytes`: 1 KB each, rounded up, at least 1. */
export const writeUnits = (bytes: number): number => Math.max(1, Math.ceil(bytes / WRITE_UNIT_BYTES));

export interface ReadMode {
  /** Strongly consistent (ConsistentRead: true on the table); index reads never are. */
  consistent?: boolean;
  /** A TransactGetItems element: twice a strongly consistent read. */
  transactional?: boolean;
}

/** Read units of one read of `bytes` (one item, or all the entries of one Query page). */
export const readUnits = (bytes: number, mode: ReadMode = {}): number => {
  const units = Math.max(1, Math.ceil(bytes / READ_UNIT_BYTES));
  if (mode.transactional) return 2 * units;
  return mode.consistent ? units : units / 2;
};

/** An item is in an index only when it holds both of the index's key attributes as strings. */
export const isIndexed = (index: IndexSpec, item: Item | undefined): item is Item =>
  item !== undefined && typeof item[index.partition] === 'string' && typeof item[index.sort] === 'string';

/**
 * The index entry of an item, or undefined when the item is not in the index: the table keys,
 * the index keys and the projected attributes it has (ALL: the whole item; `[]`: keys only).
 */
export const indexEntry = (index: IndexSpec, item: Item | undefined, table: TableKey = TABLE_KEY) => {
  if (!isIndexed(index, item)) return undefined;
  if (index.projection === 'ALL') return item;
  const kept = new Set([table.partition, table.sort, index.partition, index.sort, ...index.projection]);
  return Object.fromEntries(Object.entries(item).filter(([name, v]) => kept.has(name) && v !== undefined));
};

/** Deep equality of stored values: maps whatever their key order, sets whatever their order, bytes. */
export const sameValue = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && Buffer.from(a).equals(Buffer.from(b));
  }
  if (a instanceof Set || b instanceof Set) {
    return a instanceof Set && b instanceof Set && a.size === b.size && [...a].every((v) => b.has(v));
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Item)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Item)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameValue((a as Item)[k], (b as Item)[k]));
};

/**
 * Write units one index spends when an item changes from `before` to `after` (either absent:
 * created or deleted), before any doubling by a transaction.
 */
export const indexWriteUnits = (
  index: IndexSpec,
  before: Item | undefined,
  after: Item | undefined,
  table: TableKey = TABLE_KEY,
): number => {
  const was = indexEntry(index, before, table);
  const now = indexEntry(index, after, table);
  if (!was && !now) return 0;
  if (!was) return writeUnits(itemBytes(now as Item));
  if (!now) return writeUnits(itemBytes(was));
  const keyMoved = was[index.partition] !== now[index.partition] || was[index.sort] !== now[index.sort];
  if (keyMoved) return writeUnits(itemBytes(was)) + writeUnits(itemBytes(now));
  if (sameValue(was, now)) return 0;
  return writeUnits(Math.max(itemBytes(was), itemBytes(now)));
};

/** `put` and `update` alike: what matters is the item before and after. */
export type WriteKind = 'put' | 'update' | 'delete' | 'check';

export interface ItemWrite {
  kind: WriteKind;
  /** The item before the write (absent: there was none). */
  before?: Item;
  /** The item after it (absent: there is none; ignored for `delete` and `check`). */
  after?: Item;
}

/** Write units of one item's write: on the table, and on each index it touched (zeros left out). */
export interface WriteCharge {
  table: number;
  indexes: Record<string, number>;
}

export const itemWriteCharge = (
  write: ItemWrite,
  options: {
    indexes: readonly IndexSpec[];
    transactional?: boolean;
    table?: TableKey;
    conservative?: boolean;
  },
): WriteCharge => {
  const times = options.transactional ? 2 : 1;
  const indexTimes = options.conservative ? times : 1;
  const size = (item: Item | undefined) => (item ? itemBytes(item) : 0);
  const changes = write.kind === 'put' || write.kind === 'update';
  const after = changes ? write.after : undefined;
  const table = writeUnits(Math.max(size(write.before), size(after)));
  const indexes: Record<string, number> = {};
  if (write.kind !== 'check') {
    for (const index of options.indexes) {
      const units = indexWriteUnits(index, write.before, after, options.table);
      if (units > 0) indexes[index.name] = indexTimes * units;
    }
  }
  return { table: times * table, indexes };
};

/** Read units of a GetItem, or of one key of a BatchGetItem (`undefined`: no such item). */
export const getReadUnits = (item: Item | undefined, mode: ReadMode = {}): number =>
  readUnits(item ? itemBytes(item) : 0, mode);

/** Read units of one Query or Scan page: the sum of the entries read, rounded up once. */
export const queryReadUnits = (entries: readonly Item[], mode: ReadMode = {}): number =>
  readUnits(
    entries.reduce((sum, entry) => sum + itemBytes(entry), 0),
    mode,
  );
