import { NotFound } from './errors';
import type { HistoryEntry, HistoryOf } from './history';
import { isId } from './ids';
import { keys } from './keys';
import { pageOf } from './page-read';
import type { Page } from './pages';
import { readExisting } from './read-existing';
import { TABLE_KEY } from './table-schema';

/**
 * A page of a record's history, oldest first (`GET /ticket/{id}/history`, `/customer/{id}/history`):
 * one Query of its partition, beside a key-only GetItem of the record (404 when there is none).
 * No counter holds the number of entries: it is counted on the page a client starts from and
 * carried in the cursors, as a ticket's notes are.
 */
export const listHistory = async (
  tenantId: string,
  of: HistoryOf,
  id: string,
  query: { page: number; cursor?: string },
): Promise<Page<HistoryEntry>> => {
  const missing = () => new NotFound(`${of === 'TICKET' ? 'Ticket' : 'Customer'} ${id}`);
  if (!isId(id)) throw missing();
  const [page] = await Promise.all([
    pageOf(
      {
        tenantId,
        resource: `${of}_HISTORY`,
        index: TABLE_KEY,
        partition: keys.history(tenantId, of, id),
        order: 'oldest',
        consistent: true,
        count: { entries: true },
        carryCount: true,
      },
      query.page,
      query.cursor,
    ),
    readExisting(keys.record(tenantId, of, id), [], missing),
  ]);
  return page as unknown as Page<HistoryEntry>;
};
