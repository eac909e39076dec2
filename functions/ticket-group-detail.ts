import { detailHandler } from '../shared/http/record-detail-handler';
import { lookupView } from '../shared/http/views/records';
import { ticketGroupEntity } from '../shared/store/entities/records';

export const handler = detailHandler('ticketGroupDetail', ticketGroupEntity, lookupView('group'));
