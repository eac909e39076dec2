import { ticketGroups } from '../shared/domain/lookups';
import { updateHandler } from '../shared/http/record-handlers';

export const handler = updateHandler('ticketGroupUpdate', ticketGroups);
