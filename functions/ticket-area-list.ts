import { listHandler } from '../shared/http/record-handlers';
import { ticketAreas } from '../shared/resources/lookups';

export const handler = listHandler('ticketAreaList', ticketAreas);
