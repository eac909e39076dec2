import { randomBytes } from 'node:crypto';
import type { WebhookInput } from '../schemas/webhooks';
import { type WebhookRecord, webhookEntity } from '../store/entities/records';
import { redeliveryStart } from '../store/pending-deliveries';
import type { WriteContext } from './commit';
import { checkReceiver } from './receiver-url';
import { insertRecord, type RecordResource } from './records';

/**
 * Webhook subscriptions: a record resource (store/entities/records.ts `webhookEntity`) whose
 * URL is checked against SSRF (domain/receiver-url.ts) at insert and update, whose writes are
 * not change-feed events (`silent`), and whose signing secret is made here, once.
 */

/** A signing secret in the Standard Webhooks form: `whsec_` + base64 of 24 random bytes. */
export const newSigningSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** The body as validated, plus the secret only `insertWebhook` sets. */
type WebhookWrite = WebhookInput & { secret?: string };

export const webhooks: RecordResource<WebhookRecord, WebhookWrite> = {
  entity: webhookEntity,
  silent: true,
  check: async (input) => {
    if (input.url !== undefined) await checkReceiver(input.url);
  },
  prepare: (input, current) => {
    const fields: Partial<WebhookRecord> = {};
    if (input.url !== undefined) fields.url = input.url;
    if (input.types !== undefined) fields.types = [...new Set(input.types)].sort();
    if (input.description !== undefined) fields.description = input.description;
    // Setting `enabled` either way clears why deliveries had stopped (true re-enables).
    if (input.enabled !== undefined) Object.assign(fields, { enabled: input.enabled, disabledReason: null });
    if (current !== undefined) return fields;
    return { types: [], enabled: true, ...fields, secret: input.secret };
  },
  // Enabled again: what it is owed (held while it was not, or failing when it was disabled) is sent
  // again, oldest first (domain/webhook-fanout.ts `redeliver`).
  alsoUpdates: (tenantId, current, after) =>
    !current.enabled && after.enabled ? [redeliveryStart(tenantId, current.id, current.version + 1)] : [],
};

/** Creates a subscription; its secret is answered here and never again (no view shows it). */
export const insertWebhook = async (
  ctx: WriteContext,
  input: WebhookInput,
): Promise<{ id: string; secret: string }> => {
  const secret = newSigningSecret();
  const id = await insertRecord(webhooks, ctx, { ...input, secret });
  return { id, secret };
};
