import { listHandler } from '../shared/http/record-list-handler';
import { lookupView } from '../shared/http/views/records';
import { ticketGroupEntity } from '../shared/store/entities/records';

export const handler = listHandler('ticketGroupList', ticketGroupEntity, 'group', lookupView('group'));
