import { insertWebhook } from '../shared/domain/webhooks';
import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';
import type { WebhookSecretView } from '../shared/schemas/views';
import type { WebhookInput } from '../shared/schemas/webhooks';

/** `POST /webhook/insert`: 201 `{id, secret}`, the only answer that shows the signing secret. */
export const handler = apiHandler('webhookInsert', async ({ body, write }) => {
  const created: WebhookSecretView = await insertWebhook(write, body as WebhookInput);
  return json(201, created);
});
