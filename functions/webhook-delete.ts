import { webhooks } from '../shared/domain/webhooks';
import { deleteHandler } from '../shared/http/record-write-handlers';

export const handler = deleteHandler('webhookDelete', webhooks);
