import { newClient } from '../auth/clients';
import { config } from '../config';
import { type CompatProfile, DEFAULT_COMPAT } from '../schemas/compat';
import { DEFAULT_TICKET_TYPES } from '../schemas/lookups';
import { inRegion } from '../store/store-region';
import { commit } from './commit';
import { ticketTypes } from './lookups';
import { insertPlan } from './records';

/**
 * Creates a client (an operator's `client create`, `npm start`'s demo client) with what it starts
 * with, the default ticket types, in one commit: the client item, each type as its insert writes
 * it and each type's `ticket_type.created` event. So a client never exists without its types, nor
 * its types without their events, and a feed reader from the start sees every type it can use.
 * 14 elements, 28 write units (docs/decisions.md, "Events").
 */
export const createClient = async (
  name: string,
  compat: CompatProfile = DEFAULT_COMPAT,
  homeRegion: string = config().AWS_REGION,
): Promise<{ clientId: string; apiToken: string }> => {
  const { clientId, apiToken, write } = newClient(name, compat, homeRegion);
  const seeded = DEFAULT_TICKET_TYPES.map((type) => insertPlan(ticketTypes, clientId, type));
  // Its first data is written where all its data will be: at home (the events name that region).
  // The client's id is the transaction's token: a resend after a lost answer is applied once.
  await inRegion(homeRegion, () =>
    commit({ tenantId: clientId, requestToken: clientId }, () => ({
      result: clientId,
      ops: [write, ...seeded.flatMap((plan) => plan.ops)],
      events: seeded.flatMap((plan) => plan.events ?? []),
    })),
  );
  return { clientId, apiToken };
};
