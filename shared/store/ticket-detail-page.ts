import { type DetailHead, readDetailHead } from './detail-items';
import { ticketEntity } from './entities/ticket';
import { hasPageAttributes } from './migrations/legacy';
import { listPage } from './page-read';
import type { Page } from './pages';
import { searchTarget } from './search-targets';
import { type Related, type RelatedOf, recordKey, relatedIn, type StoredTicket } from './tickets';

/**
 * A page of tickets read for detail records (`GET /ticket/list`, docs/decisions.md "Lists"): the
 * whole list or one search, each from its own index, as `listTickets` reads it, but each ticket
 * comes from the first Query of its item collection (store/detail-items.ts `readDetailHead`: the
 * ticket, its documents, notes and replies, whole for a collection under 1 MB), one per entry,
 * all sent at once, as soon as the index has named them, and alongside the page's BatchGetItem
 * (its count and the records the entries point at). So a page of ordinary tickets takes one
 * round trip more than the summary page, whatever its size: the index Query, then the BatchGet
 * and the collections together. A ticket deleted since its entry was read is undefined.
 *
 * At most one MB is read per ticket here (25 MB for a page of tickets with very long
 * conversations); what a head did not finish is read only for the records a page can still
 * carry (domain/ticket-reads.ts `readTicketDetailPage`).
 */
export const listTicketHeads = async (
  tenantId: string,
  query: { page: number; cursor?: string; search?: { param: string; value: string } },
  relatedOf: RelatedOf,
): Promise<Page<DetailHead | undefined> & { related: Related }> => {
  const target = searchTarget(ticketEntity, tenantId, query.search);
  let heads: Promise<(DetailHead | undefined)[]> = Promise.resolve([]);
  const page = await listPage(
    { tenantId, resource: 'TICKET', target, page: query.page, cursor: query.cursor },
    // Called once, with the entries, just before the page's BatchGetItem is sent: the
    // collections are read meanwhile. The entries' own page attributes name what they point at
    // (tag items written before issue 12 carry none: their tickets' records are read after).
    (entries) => {
      heads = Promise.all(entries.map((entry) => readDetailHead(String(entry.pk))));
      // Awaited below; a failure is thrown there, not lost if the BatchGet fails first.
      heads.catch(() => undefined);
      return relatedOf(entries.filter(hasPageAttributes) as Partial<StoredTicket>[]).map(recordKey(tenantId));
    },
  );
  return { ...page, items: await heads, related: relatedIn(tenantId, page.fetched) };
};
