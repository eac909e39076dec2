import { deleteHandler } from '../shared/http/record-handlers';
import { ticketAreas } from '../shared/resources/lookups';

export const handler = deleteHandler('ticketAreaDelete', ticketAreas);
