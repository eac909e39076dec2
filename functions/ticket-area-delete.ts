import { ticketAreas } from '../shared/domain/lookups';
import { deleteHandler } from '../shared/http/record-handlers';

export const handler = deleteHandler('ticketAreaDelete', ticketAreas);
