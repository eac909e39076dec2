import { detailHandler } from '../shared/http/record-handlers';
import { ticketTypes } from '../shared/resources/lookups';

export const handler = detailHandler('ticketTypeDetail', ticketTypes);
