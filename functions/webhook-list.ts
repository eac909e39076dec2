import { listHandler } from '../shared/http/record-list-handler';
import { webhookView } from '../shared/http/views/records';
import { webhookEntity } from '../shared/store/entities/records';

export const handler = listHandler('webhookList', webhookEntity, 'webhook', webhookView);
