import { listHandler } from '../shared/http/record-handlers';
import { lookupView } from '../shared/http/views/records';
import { ticketGroupEntity } from '../shared/store/entities/records';

export const handler = listHandler('ticketGroupList', ticketGroupEntity, 'group', lookupView('group'));
