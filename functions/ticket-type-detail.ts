import { detailHandler } from '../shared/http/record-detail-handler';
import { lookupView } from '../shared/http/views/records';
import { ticketTypeEntity } from '../shared/store/entities/records';

export const handler = detailHandler('ticketTypeDetail', ticketTypeEntity, lookupView('type'));
