import { apiHandler } from '../shared/http/api-handler';
import { bulkOperation } from '../shared/http/bulk';
import { handler as addNote } from './ticket-add-note';
import { handler as remove } from './ticket-delete';
import { handler as insert } from './ticket-insert';
import { handler as reply } from './ticket-reply';
import { handler as update } from './ticket-update';

/** `POST /ticket/bulk`: each operation run by its own route's handler (shared/http/bulk.ts). */
export const handler = apiHandler(
  'ticketBulk',
  bulkOperation({
    insert: { operationId: 'ticketInsert', handler: insert },
    update: { operationId: 'ticketUpdate', handler: update },
    delete: { operationId: 'ticketDelete', handler: remove },
    reply: { operationId: 'ticketReply', handler: reply },
    addNote: { operationId: 'ticketAddNote', handler: addNote },
  }),
);
