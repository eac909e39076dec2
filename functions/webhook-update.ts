import { webhooks } from '../shared/domain/webhooks';
import { updateHandler } from '../shared/http/record-write-handlers';

export const handler = updateHandler('webhookUpdate', webhooks);
