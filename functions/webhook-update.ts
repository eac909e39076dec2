import { webhooks } from '../shared/domain/webhooks';
import { updateHandler } from '../shared/http/record-handlers';

export const handler = updateHandler('webhookUpdate', webhooks);
