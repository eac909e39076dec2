import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../dynamo';
import type { Entity, Item } from '../entity';
import { conditionOf, queryOf, updateOf } from '../expression';
import { counterNames, type ItemKey, keys } from '../keys';
import { queryAll } from '../query-all';
import { searchTarget } from '../search-targets';
import { StaleWrite, writeAtomically } from '../transact';
import { isConditionFailed } from '../update-if';
import { COUNT, type CountCell, countMove, EXISTS, type WriteOp } from '../write-ops';

/**
 * The counter pass of `helpdesk reindex` (migrations/reindex.ts): a tenant's counter items as the
 * current declarations read them. A count is the sum of the cells its search reads (search-targets.ts
 * `searchTarget`); the first is where the engine counts now, any other a legacy one
 * (migrations/legacy.ts `legacyCountCells`). Each counter item that is such a legacy cell has its
 * count moved into the first cell and is deleted, in one transaction, so every count reads the
 * same before, during and after, and still does once the legacy cells are no longer read. A
 * counter item of a search value that no count reads (a search that now keeps no count, is served
 * by a guard, counts on a reference's `refCount`, or is no longer declared) is deleted. Totals,
 * sequences and the counts the engine keeps are left as they are.
 */

/** What the pass did: items read and written, and how many counter items it moved into their current cell. */
export interface CountsReport {
  itemsRead: number;
  itemsWritten: number;
  countsMoved: number;
}

/** A cell kept on a record that no longer exists (a legacy cell then counts nothing). */
class TargetGone extends Error {}

/** How often a move is read again and retried when another run moved or changed it meanwhile. */
const RETRIES = 3;

const sameKey = (a: ItemKey, b: ItemKey) => a.pk === b.pk && a.sk === b.sk;

/**
 * What one counter item is to the declarations: a count they keep (`keep`), a legacy cell to move
 * into `into`, or `dead` (nothing reads it). Items not named as one search value are kept.
 */
const fateOf = (
  entities: readonly Entity<Item>[],
  tenantId: string,
  counter: ItemKey,
): { keep: true } | { dead: true } | { legacy: CountCell; into: CountCell } => {
  const named = counterNames.searchOf(counter.sk);
  const e = named && entities.find((entity) => entity.list?.kind === named.kind);
  if (!named || !e) return { keep: true };
  const { field: param, value } = named;
  if (e.multi?.[param]) return { keep: true };
  const search = e.searches?.[param];
  if (!search || 'servedBy' in search) return { dead: true };
  const cells = searchTarget(e, tenantId, { param, value }).count;
  const at = cells.findIndex((cell) => sameKey(cell.key, counter) && cell.attribute === COUNT);
  if (at < 0) return { dead: true };
  if (at === 0) return { keep: true };
  return { legacy: cells[at] as CountCell, into: cells[0] as CountCell };
};

/**
 * Moves the count `n` of a legacy cell into `into` and deletes the cell's item, in one
 * transaction. The delete is conditioned on the count read (`stale` otherwise), so two runs cannot
 * both move it; API writes move only `into` (an ADD) and commute with it. A cell read only while
 * a record exists (`whileExists`) is moved onto that record only while it exists (TargetGone
 * otherwise: the item then counts nothing and is deleted alone, `into` undefined).
 */
const moveOps = (legacy: CountCell, n: number, into: CountCell | undefined): WriteOp[] => {
  const remove: WriteOp = {
    item: { Delete: { Key: legacy.key, ...conditionOf({ eq: [COUNT, n] }) } },
    onConditionFailed: () => 'stale',
  };
  if (!into || n === 0) return [remove];
  if (!legacy.whileExists) return [remove, countMove(into.key, { [into.attribute]: n })];
  const add = updateOf({ add: { [into.attribute]: n } }, EXISTS);
  return [remove, { item: { Update: { Key: into.key, ...add } }, onConditionFailed: () => new TargetGone() }];
};

const countOf = (item: Item | undefined): number | undefined =>
  item && typeof item[COUNT] === 'number' ? (item[COUNT] as number) : item ? 0 : undefined;

/** Moves one legacy cell (read as `item`) into its current cell; retried on what a concurrent run changed. */
const move = async (legacy: CountCell, into: CountCell, item: Item, report: CountsReport): Promise<void> => {
  let n = countOf(item);
  for (let attempt = 0; n !== undefined; attempt++) {
    let target: CountCell | undefined = into;
    try {
      try {
        await writeAtomically(moveOps(legacy, n, target));
      } catch (error) {
        if (!(error instanceof TargetGone)) throw error;
        target = undefined;
        await writeAtomically(moveOps(legacy, n, target));
      }
      report.itemsWritten += target && n !== 0 ? 2 : 1;
      report.countsMoved += 1;
      return;
    } catch (error) {
      if (!(error instanceof StaleWrite) || attempt >= RETRIES) throw error;
      const again = await db().send(
        new GetCommand({ TableName: tableName(), Key: legacy.key, ConsistentRead: true }),
      );
      report.itemsRead += again.Item ? 1 : 0;
      n = countOf(again.Item);
    }
  }
};

/** Deletes a counter item nothing reads, if it still holds what was read (else something counts there). */
const drop = async (key: ItemKey, item: Item, report: CountsReport): Promise<void> => {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: key,
        ...conditionOf(item[COUNT] === undefined ? { missing: COUNT } : { eq: [COUNT, item[COUNT]] }),
      }),
    );
    report.itemsWritten += 1;
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
};

/** The counter items `counters` (as read: possibly stale) of a tenant made what the declarations read. */
export const settleCounts = async (
  entities: readonly Entity<Item>[],
  tenantId: string,
  counters: readonly Item[],
  report: CountsReport,
): Promise<void> => {
  for (const item of counters) {
    const key = { pk: String(item.pk), sk: String(item.sk) };
    const fate = fateOf(entities, tenantId, key);
    if ('legacy' in fate) await move(fate.legacy, fate.into, item, report);
    else if ('dead' in fate) await drop(key, item, report);
  }
};

/** Every counter item of a tenant (its counter partition, read consistently). */
export const readCounters = (tenantId: string): Promise<Item[]> =>
  queryAll({ ...queryOf({ partition: ['pk', keys.counter(tenantId, '').pk] }), ConsistentRead: true });
