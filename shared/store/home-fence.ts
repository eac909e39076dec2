import { HomeMoving } from './errors';
import { type Cond, conditionOf } from './expression';
import { keys } from './keys';
import { defaultHomeRegion, homedWrite } from './store-region';
import { EXISTS, type WriteOp } from './write-ops';

/**
 * Several regions: a tenant's writes run at its home replica (docs/regions.md), and a re-home
 * (auth/clients.ts `rehomeClient`) moves that home. A request that learnt the home a moment
 * before the move (an instance remembers a verified token for 30 s) must not write at the old
 * home any more, nor at the new one before the old home's last writes have replicated there. So
 * every homed transaction also checks the client item: its home is still this replica, and the
 * re-home's settling time (`settledAt`) is over. Ticket numbers are taken before the transaction
 * by a plain UpdateItem: their sequence items carry the home too (`home`), checked the same way.
 * One region: nothing of this (no item, no condition, no cost).
 */

/** The sequence items' attribute naming the replica that may take their next value. */
export const SEQUENCE_HOME = 'home';

const sameKey = (op: WriteOp, key: { pk: string; sk: string }): boolean => {
  const item = op.item;
  const k = (item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key) as
    | { pk?: unknown; sk?: unknown }
    | undefined;
  return k?.pk === key.pk && k?.sk === key.sk;
};

/**
 * The condition check a homed transaction carries, or none (one region, not a homed write, or a
 * transaction that already writes the client item: a token's issue, which checks it itself).
 */
export const homeFence = (ops: readonly WriteOp[], now = Date.now()): WriteOp | undefined => {
  const homed = homedWrite();
  if (!homed) return undefined;
  const key = keys.client(homed.tenantId);
  if (ops.some((op) => sameKey(op, key))) return undefined;
  const isDefault = homed.home === defaultHomeRegion();
  const here: Cond = {
    or: [{ eq: ['homeRegion', homed.home] }, isDefault ? { missing: 'homeRegion' } : undefined],
  };
  return {
    item: { ConditionCheck: { Key: key, ...conditionOf({ and: [EXISTS, here, settled(now)] }) } },
    onConditionFailed: () => new HomeMoving(),
  };
};

/** The condition a sequence's UpdateItem adds at the tenant's home (home, settling time), or none. */
export const sequenceFence = (): Cond | undefined => {
  const homed = homedWrite();
  if (!homed) return undefined;
  return {
    and: [{ or: [{ missing: SEQUENCE_HOME }, { eq: [SEQUENCE_HOME, homed.home] }] }, settled(Date.now())],
  };
};

/** A re-home's settling time is over (or there was none). */
const settled = (now: number): Cond => ({ or: [{ missing: 'settledAt' }, { le: ['settledAt', now] }] });
