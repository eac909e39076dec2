import { ticketAreas } from '../shared/domain/lookups';
import { deleteHandler } from '../shared/http/record-write-handlers';

export const handler = deleteHandler('ticketAreaDelete', ticketAreas);
