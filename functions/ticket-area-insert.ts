import { insertHandler } from '../shared/http/record-handlers';
import { ticketAreas } from '../shared/resources/lookups';

export const handler = insertHandler('ticketAreaInsert', ticketAreas);
