import { deleteHandler } from '../shared/http/record-handlers';
import { ticketGroups } from '../shared/resources/lookups';

export const handler = deleteHandler('ticketGroupDelete', ticketGroups);
