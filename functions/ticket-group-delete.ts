import { ticketGroups } from '../shared/domain/lookups';
import { deleteHandler } from '../shared/http/record-write-handlers';

export const handler = deleteHandler('ticketGroupDelete', ticketGroups);
