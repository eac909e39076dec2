import { ticketTypes } from '../shared/domain/lookups';
import { insertHandler } from '../shared/http/record-write-handlers';

export const handler = insertHandler('ticketTypeInsert', ticketTypes);
