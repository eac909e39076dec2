import { listHandler } from '../shared/http/record-handlers';
import { webhookView } from '../shared/http/views/records';
import { webhookEntity } from '../shared/store/entities/records';

export const handler = listHandler('webhookList', webhookEntity, 'webhook', webhookView);
