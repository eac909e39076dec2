import { detailHandler } from '../shared/http/record-detail-handler';
import { webhookView } from '../shared/http/views/records';
import { webhookEntity } from '../shared/store/entities/records';

export const handler = detailHandler('webhookDetail', webhookEntity, webhookView);
