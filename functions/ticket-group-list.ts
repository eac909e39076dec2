import { listHandler } from '../shared/http/record-handlers';
import { ticketGroups } from '../shared/resources/lookups';

export const handler = listHandler('ticketGroupList', ticketGroups);
