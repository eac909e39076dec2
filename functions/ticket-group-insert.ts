import { insertHandler } from '../shared/http/record-handlers';
import { ticketGroups } from '../shared/resources/lookups';

export const handler = insertHandler('ticketGroupInsert', ticketGroups);
