import { counterNames, keys } from './keys';
import { listPage } from './page-read';
import type { Page } from './pages';
import { LIST_INDEX } from './table-schema';
import { type TrashedTicket, trashedOf } from './ticket-trash';
import { type Related, type RelatedOf, recordKey, relatedIn } from './tickets';
import { counterCell } from './write-ops';

/**
 * A page of the tenant's trash (`GET /ticket/trash/list`), newest deletion first, in two requests
 * like every list: its partition of the list index (which holds the trashed-ticket items whole),
 * then one BatchGetItem of its count and of the records the tickets point at. An item past its
 * retention that DynamoDB's TTL has not removed yet reads as undefined (gone).
 */
export const listTrash = async (
  tenantId: string,
  query: { page: number; cursor?: string },
  relatedOf: RelatedOf,
): Promise<Page<TrashedTicket | undefined> & { related: Related }> => {
  const page = await listPage(
    {
      tenantId,
      resource: 'TICKET_TRASH',
      target: {
        index: LIST_INDEX,
        partition: keys.trash(tenantId),
        count: [counterCell(tenantId, counterNames.trash)],
      },
      page: query.page,
      cursor: query.cursor,
    },
    (entries) => relatedOf(entries.map((e) => e.ticket as TrashedTicket['ticket'])).map(recordKey(tenantId)),
  );
  return {
    ...page,
    items: page.items.map((entry) => trashedOf(entry)),
    related: relatedIn(tenantId, page.fetched),
  };
};
