import { insertHandler } from '../shared/http/record-handlers';
import { ticketTypes } from '../shared/resources/lookups';

export const handler = insertHandler('ticketTypeInsert', ticketTypes);
