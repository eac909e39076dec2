import { ticketGroups } from '../shared/domain/lookups';
import { deleteHandler } from '../shared/http/record-handlers';

export const handler = deleteHandler('ticketGroupDelete', ticketGroups);
