import { updateHandler } from '../shared/http/record-handlers';
import { ticketTypes } from '../shared/resources/lookups';

export const handler = updateHandler('ticketTypeUpdate', ticketTypes);
