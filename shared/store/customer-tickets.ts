import type { Item } from './entity';
import { queryOf } from './expression';
import { keys, RECORD_SK } from './keys';
import { queryAll } from './query-all';
import { LIST_INDEX, SEARCH_INDEXES } from './table-schema';

/** The tickets one customer opened, found by id: what an export gives and an erasure reaches. */

/** The ids of the live tickets a customer opened (the `openedBy._id` search: eventually consistent). */
export const ticketsOpenedBy = async (tenantId: string, customerId: string): Promise<string[]> => {
  const index = SEARCH_INDEXES.s3;
  const items = await queryAll({
    IndexName: index.name,
    ...queryOf(
      { partition: [index.partition, keys.search(tenantId, 'TICKET', 'openedBy._id', customerId)] },
      { project: ['pk', 'sk'] },
    ),
  });
  return idsOf(items.filter((item) => item.sk === RECORD_SK));
};

/** The ids of the customer's tickets in the trash (its list, filtered on what the trashed item keeps). */
export const trashedOpenedBy = async (tenantId: string, customerId: string): Promise<string[]> =>
  idsOf(
    await queryAll({
      IndexName: LIST_INDEX.name,
      ...queryOf(
        { partition: [LIST_INDEX.partition, keys.trash(tenantId)] },
        { filter: { eq: ['ticket.openedBy', customerId] }, project: ['pk', 'sk'] },
      ),
    }),
  );

const idsOf = (items: Item[]) =>
  items.map((item) => String(item.pk).slice(String(item.pk).lastIndexOf('#') + 1));
