import { listHandler } from '../shared/http/record-list-handler';
import { lookupView } from '../shared/http/views/records';
import { ticketTypeEntity } from '../shared/store/entities/records';

export const handler = listHandler('ticketTypeList', ticketTypeEntity, 'type', lookupView('type'));
