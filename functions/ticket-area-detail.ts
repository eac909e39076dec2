import { detailHandler } from '../shared/http/record-handlers';
import { ticketAreas } from '../shared/resources/lookups';

export const handler = detailHandler('ticketAreaDetail', ticketAreas);
