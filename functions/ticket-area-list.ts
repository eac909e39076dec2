import { listHandler } from '../shared/http/record-handlers';
import { lookupView } from '../shared/http/views/records';
import { ticketAreaEntity } from '../shared/store/entities/records';

export const handler = listHandler('ticketAreaList', ticketAreaEntity, 'area', lookupView('area'));
