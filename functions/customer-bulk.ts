import { apiHandler } from '../shared/http/api-handler';
import { bulkOperation } from '../shared/http/bulk';
import { handler as remove } from './customer-delete';
import { handler as insert } from './customer-insert';
import { handler as update } from './customer-update';

/** `POST /customer/bulk`: each operation run by its own route's handler (shared/http/bulk.ts). */
export const handler = apiHandler(
  'customerBulk',
  bulkOperation({
    insert: { operationId: 'customerInsert', handler: insert },
    update: { operationId: 'customerUpdate', handler: update },
    delete: { operationId: 'customerDelete', handler: remove },
  }),
);
