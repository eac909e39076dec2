import { config } from '../config';
import { InvalidInput } from '../store/errors';
import { searchEngine } from './engine';
import { awaitPosition, isPosition } from './positions';
import { checkQuery, runSearch, type SearchRequest, type SearchTable } from './search-reads';

/**
 * The two searches (`GET /ticket/search`, `GET /customer/search`): their index tables, what each
 * filters by and highlights, and the wait for `Helpdesk-Min-Position` before the search runs.
 */
export const TICKETS: SearchTable = {
  table: 'search_tickets',
  resource: 'TICKET_SEARCH',
  columns: {
    status: 'status',
    priority: 'priority',
    tags: 'tags',
    assignedTo: 'assigned_to',
    openedBy: 'opened_by',
    type: 'type_id',
    area: 'area_id',
    group: 'group_id',
    created: 'created_at',
    updated: 'updated_at',
    hasAttachment: 'has_attachment',
  },
  highlights: {
    subject: 'subject',
    description: 'description',
    replies: 'replies',
    notes: 'notes',
    documents: 'documents',
    customer: 'customer',
  },
};

export const CUSTOMERS: SearchTable = {
  table: 'search_customers',
  resource: 'CUSTOMER_SEARCH',
  columns: { created: 'created_at', updated: 'updated_at' },
  highlights: { name: 'name', email: 'email', details: 'details' },
};

export const search = async (
  table: SearchTable,
  tenantId: string,
  request: SearchRequest,
  minPosition: string | undefined,
) => {
  checkQuery(request.query, table);
  if (minPosition !== undefined && !isPosition(minPosition))
    throw new InvalidInput('Helpdesk-Min-Position is not a position.', [
      {
        path: 'Helpdesk-Min-Position',
        message: 'must be a position a write answered (its Helpdesk-Position header)',
      },
    ]);
  const engine = await searchEngine();
  if (minPosition) await awaitPosition(engine, tenantId, minPosition, config().SEARCH_WAIT_MS);
  return runSearch(engine, table, tenantId, request);
};
