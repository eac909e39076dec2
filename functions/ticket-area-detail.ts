import { detailHandler } from '../shared/http/record-detail-handler';
import { lookupView } from '../shared/http/views/records';
import { ticketAreaEntity } from '../shared/store/entities/records';

export const handler = detailHandler('ticketAreaDetail', ticketAreaEntity, lookupView('area'));
