import type { BaseRecord, RecordEntity, Stored } from './entities/records';
import { liveItem } from './entity-item';
import type { ItemKey } from './keys';
import { guardPage, listPage } from './page-read';
import { guardTarget, searchTarget } from './search-targets';
import { itemId } from './write-ops';

/** Pages of a record resource's list and of its searches. */

/**
 * A page of a resource's records: the whole list or one exact-match search, each from its own
 * index. A plain list's entries are the records; a search's entries are keys only, so the page's
 * one BatchGetItem reads the records with the count. A search served by a unique guard (e-mail)
 * reads the guard, then the record it names.
 */
export const listRecords = async <T extends BaseRecord>(
  e: RecordEntity<T>,
  tenantId: string,
  query: { page: number; cursor?: string; search?: { param: string; value: string } },
) => {
  const guard = guardTarget(e, tenantId, query.search);
  if (guard) {
    const page = await guardPage(guard, query.page, query.cursor);
    return { ...page, items: page.items as unknown as (Stored<T> | undefined)[] };
  }
  const target = searchTarget(e, tenantId, query.search);
  const whole = target.index.projection === 'ALL';
  const page = await listPage(
    { tenantId, resource: e.kind, target, page: query.page, cursor: query.cursor },
    whole ? undefined : (entries) => entries.map((entry) => ({ pk: String(entry.pk), sk: String(entry.sk) })),
  );
  // Aligned with the entries (links resume after them); a record deleted since is undefined.
  const items = whole
    ? page.items
    : // An index entry may still name an erased customer's mark a moment after: none.
      page.items.map((entry) => liveItem(page.fetched.get(itemId(entry as unknown as ItemKey))));
  return { ...page, items: items as unknown as (Stored<T> | undefined)[] };
};
