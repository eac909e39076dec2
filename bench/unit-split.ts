/**
 * Capacity units split by where they were spent: the table, and each global secondary index by
 * name. Used for DynamoDB Local's reported figures and for those computed on AWS's rules alike.
 */
export interface Units {
  read: number;
  write: number;
}

export interface UnitSplit {
  table: Units;
  /** Only the indexes that were touched. */
  indexes: Record<string, Units>;
}

export const emptySplit = (): UnitSplit => ({ table: { read: 0, write: 0 }, indexes: {} });

/** Adds `units` of reads or writes to the table (no index named) or to one index. */
export const addUnits = (split: UnitSplit, kind: keyof Units, units: number, index?: string): void => {
  if (units === 0) return;
  if (index === undefined) {
    split.table[kind] += units;
    return;
  }
  const target = split.indexes[index] ?? { read: 0, write: 0 };
  target[kind] += units;
  split.indexes[index] = target;
};

export const addSplit = (into: UnitSplit, from: UnitSplit): void => {
  addUnits(into, 'read', from.table.read);
  addUnits(into, 'write', from.table.write);
  for (const [name, units] of Object.entries(from.indexes)) {
    addUnits(into, 'read', units.read, name);
    addUnits(into, 'write', units.write, name);
  }
};

/** Table and indexes together. */
export const totalUnits = (split: UnitSplit): Units =>
  Object.values(split.indexes).reduce((sum, u) => ({ read: sum.read + u.read, write: sum.write + u.write }), {
    ...split.table,
  });

/** The part spent on indexes (reads and writes). */
export const indexUnits = (split: UnitSplit): number =>
  Object.values(split.indexes).reduce((sum, u) => sum + u.read + u.write, 0);

/** The mean of several splits (indexes missing from some count as 0 there). */
export const meanSplit = (splits: readonly UnitSplit[]): UnitSplit => {
  const sum = emptySplit();
  for (const s of splits) addSplit(sum, s);
  const n = Math.max(1, splits.length);
  const scale = (u: Units): Units => ({ read: u.read / n, write: u.write / n });
  return {
    table: scale(sum.table),
    indexes: Object.fromEntries(Object.entries(sum.indexes).map(([name, u]) => [name, scale(u)])),
  };
};
