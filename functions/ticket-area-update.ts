import { updateHandler } from '../shared/http/record-handlers';
import { ticketAreas } from '../shared/resources/lookups';

export const handler = updateHandler('ticketAreaUpdate', ticketAreas);
