import { describe, expect, it } from 'vitest';
import { orderInFeed } from '../../shared/store/events';
import { touchTicketWrite } from '../../shared/store/ticket-writes';
import { FeedClockAhead, writeAtomically } from '../../shared/store/transact';
import { drain } from '../helpers/feed';
import { tenantWithCustomer } from '../helpers/tenant-client';

/**
 * A ticket's events reach the feed (ordered by stamp) in the order their writes commit (the order
 * the table's stream, and so webhook deliveries, see them): every write of a ticket item carries
 * the feed clock, and one stamped before the ticket's last event is re-stamped after it.
 */
describe('feed order per ticket', () => {
  it('refuses a ticket write stamped before the ticket’s last event, and the commit re-stamps it after', async () => {
    const { api, customer, tenant } = await tenantWithCustomer();
    const ticket = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
    });
    // A write stamped a little ahead (another host's clock), committed first.
    const ahead = Date.now() + 400;
    await writeAtomically([orderInFeed(touchTicketWrite(tenant.clientId, ticket, Date.now()), ahead)]);
    // One stamped before it can no longer commit as it is...
    await expect(
      writeAtomically([orderInFeed(touchTicketWrite(tenant.clientId, ticket, Date.now()), ahead - 1)]),
    ).rejects.toEqual(new FeedClockAhead(ahead));
    // ...and a reply sent now is stamped after it: the feed shows it where it committed.
    const reply = await api.put(`/ticket/reply/${ticket}`, { text: 'after the clock' });
    expect(reply.status).toBe(200);
    await new Promise((r) => setTimeout(r, 600)); // past the stamp and the feed's lag
    const replied = (await drain(api)).events.find((e) => e.type === 'ticket.replied');
    expect(replied?.occurredAt).toBeGreaterThan(ahead);
  });
});
