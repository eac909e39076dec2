import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from './batch-get';
import { db, tableName } from './dynamo';
import { HomeMoving } from './errors';
import { updateOf } from './expression';
import { sequenceFence } from './home-fence';
import { type ItemKey, keys } from './keys';
import { isConditionFailed } from './update-if';
import { COUNT, type CountCell, itemId } from './write-ops';

type Item = Record<string, unknown>;

/**
 * Record counts kept exact by moving them in the same transaction as the write they count
 * (`countMove`, in write-ops.ts; where each count lives is the entity declaration's `count`).
 * A count is read as the sum of its cells, so a count can live in several places at once
 * (counts of records written before issue 12 stay where they were: store/migrations/legacy.ts).
 */

/** A count: the sum of its cells (missing items and attributes count 0), from one map of items read. */
export const sumCells = (cells: readonly CountCell[], found: ReadonlyMap<string, Item>): number => {
  const sum = cells.reduce((n, cell) => {
    if (cell.whileExists && !found.has(itemId(cell.whileExists))) return n;
    const value = found.get(itemId(cell.key))?.[cell.attribute];
    return n + (typeof value === 'number' ? value : 0);
  }, 0);
  return Math.max(0, sum);
};

/**
 * A count read on its own, in one BatchGetItem. Eventually consistent, like the index entries it
 * counts (a page reads its count in the same BatchGetItem as its records).
 */
export const readCells = async (cells: readonly CountCell[]): Promise<number> =>
  sumCells(cells, await getMany(cellKeys(cells)));

/** Every item a count reads. */
export const cellKeys = (cells: readonly CountCell[]): ItemKey[] =>
  cells.flatMap((c) => (c.whileExists ? [c.key, c.whileExists] : [c.key]));

/**
 * Ticket numbers: `allocate` takes the next value of a per-tenant, per-year sequence with one
 * atomic UpdateItem (O(1) under any concurrency: a conditional claim inside the ticket's
 * transaction was measured to collapse, every racer but one losing each round). If the
 * ticket's transaction then fails, `release` hands the value back when no later value was
 * taken meanwhile, so a rejected insert leaves no gap; a value is never handed out twice.
 */
export const allocateSequence = async (tenantId: string, name: string): Promise<number> => {
  // Several regions: only the tenant's home takes the next value (home-fence.ts).
  const fence = sequenceFence();
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.counter(tenantId, name),
        ...updateOf({ add: { [COUNT]: 1 } }, fence),
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return out.Attributes?.[COUNT] as number;
  } catch (error) {
    if (fence && isConditionFailed(error)) throw new HomeMoving();
    throw error;
  }
};

export const releaseSequence = async (tenantId: string, name: string, value: number): Promise<void> => {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.counter(tenantId, name),
        ...updateOf({ set: { [COUNT]: value - 1 } }, { eq: [COUNT, value] }),
      }),
    );
  } catch {
    // A later value was taken (or the store is away): this one stays unused, never reused.
  }
};

/**
 * Moves a sequence past `value` when it is behind it (an imported ticket keeps its number: no
 * ticket made later takes it). One conditional UpdateItem; a sequence already past it stays.
 */
export const raiseSequence = async (tenantId: string, name: string, value: number): Promise<void> => {
  const fence = sequenceFence();
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.counter(tenantId, name),
        ...updateOf(
          { set: { [COUNT]: value } },
          { and: [{ or: [{ missing: COUNT }, { lt: [COUNT, value] }] }, fence] },
        ),
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    if (fence) {
      // Refused by the fence, or only because the sequence is past the value already.
      const out = await db().send(
        new GetCommand({ TableName: tableName(), Key: keys.counter(tenantId, name), ConsistentRead: true }),
      );
      if (Number(out.Item?.[COUNT] ?? 0) < value) throw new HomeMoving();
    }
  }
};
