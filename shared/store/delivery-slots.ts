import { updateOf } from './expression';
import { type ItemKey, keys } from './keys';
import { TTL_ATTRIBUTE } from './table-schema';
import { updateIf } from './update-if';

/**
 * How many webhook attempts of one tenant run at once, across every instance of the delivery
 * function (docs/decisions.md, "Webhook fairness"): `slots` items in the tenant's own partition
 * (`keys.deliverySlots`), each held by one attempt until it ends or its lease runs out (a crashed
 * attempt frees its slot by itself). So one tenant's slow or silent receivers hold at most
 * `slots` of the function's concurrency, and the rest serves the other tenants.
 */
export interface HeldSlot {
  tenantId: string;
  slot: string;
  holder: string;
}

/** The keys of a tenant's `slots` slot items (read with the rest of a delivery's state: pending-deliveries.ts `readDeliveryState`). */
export const slotKeys = (tenantId: string, slots: number): ItemKey[] =>
  Array.from({ length: slots }, (_, i) => ({ pk: keys.deliverySlots(tenantId), sk: String(i) }));

/** The slots among `slotItems` (as read) that nobody holds at `now`. */
export const freeSlots = (
  slotItems: readonly Record<string, unknown>[],
  slots: number,
  now: number,
): string[] => {
  const busy = new Set(
    slotItems.filter((i) => typeof i.until === 'number' && i.until > now).map((i) => String(i.sk)),
  );
  return Array.from({ length: slots }, (_, i) => String(i)).filter((s) => !busy.has(s));
};

/**
 * Takes one of the `free` slots (as read) for `leaseMs`, or answers undefined when they were all
 * taken meanwhile: a conditional write on one at random (a second if another attempt got there first).
 */
export const acquireSlot = async (
  tenantId: string,
  free: readonly string[],
  holder: string,
  leaseMs: number,
  now = Date.now(),
): Promise<HeldSlot | undefined> => {
  const pk = keys.deliverySlots(tenantId);
  const left = [...free];
  for (let tries = 0; tries < 2 && left.length > 0; tries++) {
    const [slot] = left.splice(Math.floor(Math.random() * left.length), 1) as [string];
    const taken = await updateIf({
      Key: { pk, sk: slot },
      ...updateOf(
        {
          set: {
            holder,
            until: now + leaseMs,
            // Slots of a tenant whose webhooks went quiet go away by themselves.
            [TTL_ATTRIBUTE]: Math.floor((now + leaseMs) / 1000) + 86_400,
          },
        },
        { or: [{ missing: 'until' }, { le: ['until', now] }] },
      ),
    });
    if (taken) return { tenantId, slot, holder };
  }
  return undefined;
};

/** Frees a slot this holder still holds (a lease that ran out and was taken by another stays theirs). */
export const releaseSlot = async (held: HeldSlot): Promise<void> => {
  await updateIf({
    Key: { pk: keys.deliverySlots(held.tenantId), sk: held.slot },
    ...updateOf({ set: { until: 0 } }, { eq: ['holder', held.holder] }),
  });
};
