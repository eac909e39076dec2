import { ticketEntity } from './entities/ticket';
import type { Item } from './entity';
import { queryOf } from './expression';
import { keys, RECORD_SK } from './keys';
import { queryAll } from './query-all';
import { searchTarget } from './search-targets';
import { LIST_INDEX } from './table-schema';

/** The tickets one customer opened, found by id: what an export gives and an erasure reaches. */

const idsOf = (items: Item[]) =>
  items.map((item) => String(item.pk).slice(String(item.pk).lastIndexOf('#') + 1));

/** The ids of the live tickets a customer opened (their `openedBy._id` search: eventually consistent). */
const ticketsOpenedBy = async (tenantId: string, customerId: string): Promise<string[]> => {
  const { index, partition } = searchTarget(ticketEntity, tenantId, {
    param: 'openedBy._id',
    value: customerId,
  });
  const items = await queryAll({
    IndexName: index.name,
    ...queryOf({ partition: [index.partition, partition] }, { project: ['pk', 'sk'] }),
  });
  return idsOf(items.filter((item) => item.sk === RECORD_SK));
};

/** The ids of the customer's tickets in the trash (its list, filtered on what the trashed item keeps). */
const trashedOpenedBy = async (tenantId: string, customerId: string): Promise<string[]> =>
  idsOf(
    await queryAll({
      IndexName: LIST_INDEX.name,
      ...queryOf(
        { partition: [LIST_INDEX.partition, keys.trash(tenantId)] },
        { filter: { eq: ['ticket.openedBy', customerId] }, project: ['pk', 'sk'] },
      ),
    }),
  );

/** Every ticket the customer opened: live ones (how many, apart), and those in the trash. */
export const customerTicketIds = async (
  tenantId: string,
  customerId: string,
): Promise<{ all: string[]; live: number }> => {
  const [live, trashed] = await Promise.all([
    ticketsOpenedBy(tenantId, customerId),
    trashedOpenedBy(tenantId, customerId),
  ]);
  return { all: [...new Set([...live, ...trashed])], live: live.length };
};
