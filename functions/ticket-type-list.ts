import { listHandler } from '../shared/http/record-handlers';
import { lookupView } from '../shared/http/views/records';
import { ticketTypeEntity } from '../shared/store/entities/records';

export const handler = listHandler('ticketTypeList', ticketTypeEntity, 'type', lookupView('type'));
