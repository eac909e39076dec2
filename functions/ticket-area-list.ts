import { listHandler } from '../shared/http/record-list-handler';
import { lookupView } from '../shared/http/views/records';
import { ticketAreaEntity } from '../shared/store/entities/records';

export const handler = listHandler('ticketAreaList', ticketAreaEntity, 'area', lookupView('area'));
