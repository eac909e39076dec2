import { ticketTypes } from '../shared/domain/lookups';
import { updateHandler } from '../shared/http/record-write-handlers';

export const handler = updateHandler('ticketTypeUpdate', ticketTypes);
