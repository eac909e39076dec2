import { ticketGroups } from '../shared/domain/lookups';
import { insertHandler } from '../shared/http/record-write-handlers';

export const handler = insertHandler('ticketGroupInsert', ticketGroups);
