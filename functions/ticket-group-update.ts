import { updateHandler } from '../shared/http/record-handlers';
import { ticketGroups } from '../shared/resources/lookups';

export const handler = updateHandler('ticketGroupUpdate', ticketGroups);
