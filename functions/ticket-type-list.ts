import { listHandler } from '../shared/http/record-handlers';
import { ticketTypes } from '../shared/resources/lookups';

export const handler = listHandler('ticketTypeList', ticketTypes);
