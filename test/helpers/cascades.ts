import { expect } from 'vitest';
import { drainCascades } from '../../shared/domain/cascades';
import { renderExport } from '../../shared/http/views/customer-export';
import { pendingCascades } from '../../shared/store/cascades';
import { clientTokenKeys } from '../../shared/store/client-items';
import { keys } from '../../shared/store/keys';
import { partitionItems } from './partition';

/**
 * Does what the cascade worker does for the removals a test made (the stream drives it under
 * `npm start` and in AWS: test/integration/cascades.test.ts): finishes the tenant's pending
 * cascades, and those they wrote in turn (an erasure's ticket deletions), expecting none to fail.
 * Answers how many there were.
 */
export const finishCascades = async (tenantId: string): Promise<number> => {
  let finished = 0;
  for (;;) {
    const round = await drainCascades(renderExport, tenantId);
    expect(round.failed).toEqual([]);
    if (round.finished === 0) break;
    finished += round.finished;
  }
  expect(await pendingCascades(tenantId)).toEqual([]);
  return finished;
};

/** Every access-token item a client holds (their keys), read consistently. */
export const tokenItems = clientTokenKeys;

/** Every item left in a ticket's item collection (the ticket's own included), read consistently. */
export const collectionItems = (tenantId: string, ticketId: string) =>
  partitionItems(keys.record(tenantId, 'TICKET', ticketId).pk);
