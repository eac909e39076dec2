import { detailHandler } from '../shared/http/record-handlers';
import { ticketGroups } from '../shared/resources/lookups';

export const handler = detailHandler('ticketGroupDetail', ticketGroups);
