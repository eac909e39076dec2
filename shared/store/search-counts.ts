import type { Entity, SlotSearch } from './entity';
import { counterNames, keys } from './keys';
import { legacyCountCells } from './migrations/legacy';
import { type CountCell, counterCell } from './write-ops';

/**
 * Where the count of one value of an exact search lives (the declaration's `count`): the cell a
 * write moves, and the cells a read sums (older records' cells included: migrations/legacy.ts).
 */
export const searchCells = <T>(
  e: Entity<T>,
  tenantId: string,
  param: string,
  search: SlotSearch<T>,
  value: string,
) => {
  const kind = (e.list as NonNullable<Entity<T>['list']>).kind;
  const own = counterCell(tenantId, counterNames.search(kind, param, value));
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
