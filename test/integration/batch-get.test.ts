import { describe, expect, it } from 'vitest';
import { getMany } from '../../shared/store/batch-get';
import { db } from '../../shared/store/dynamo';
import { keys } from '../../shared/store/keys';
import { seedTickets } from '../helpers/seed';
import { tenantWithCustomer } from '../helpers/tenant-client';

/**
 * BatchGetItem answers at most 16 MB and leaves the rest as UnprocessedKeys: getMany must ask
 * again for those until it has every item, whatever their size.
 */
describe('getMany', () => {
  it('returns every item of a batch larger than the 16 MB one BatchGetItem answers', async () => {
    const { tenant, customer } = await tenantWithCustomer();
    const big = '漢'.repeat(64_000);
    const fields = Array.from({ length: 21 }, (_, j) => ({ name: `f${j}`, value: '漢'.repeat(2000) }));
    const tickets = await seedTickets(
      tenant.clientId,
      Array.from({ length: 60 }, (_, i) => ({
        subject: `t${i}`,
        description: big,
        memo: '漢'.repeat(10_000),
        customFields: fields,
        openedBy: { id: customer },
      })),
    );
    const sent: number[] = [];
    db().middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'BatchGetItemCommand') sent.push(1);
        return next(args);
      },
      { step: 'initialize', name: 'countBatchGets' },
    );
    const wanted = tickets.map((t) => keys.record(tenant.clientId, 'TICKET', t.id));
    const found = await getMany(wanted);
    expect(found.size).toBe(60); // ~21 MB
    expect(sent.length).toBeGreaterThan(1); // the first answer left keys unprocessed
    for (const { pk, sk } of wanted) expect(found.get(`${pk}\n${sk}`)?.description).toBe(big);
  }, 60_000);
});
