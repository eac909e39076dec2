import { deleteHandler } from '../shared/http/record-handlers';
import { ticketTypes } from '../shared/resources/lookups';

export const handler = deleteHandler('ticketTypeDelete', ticketTypes);
