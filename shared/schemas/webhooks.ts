import * as z from 'zod/mini';
import { EVENT_TYPES } from './events';
import { optionalText } from './fields';

/**
 * Webhook subscriptions: where to POST the change feed's events (`url`), which of them
 * (`types`; none or empty: all), whether deliveries run (`enabled`) and a note for people
 * (`description`). The URL's scheme and addresses are checked by the domain
 * (domain/receiver-url.ts), at insert, at update and before every delivery.
 */
const fields = () => ({
  url: z.url('must be an absolute URL').check(z.maxLength(2000, 'at most 2000 characters')),
  types: z
    .array(z.enum(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`))
    .check(
      z.maxLength(EVENT_TYPES.length, `at most ${EVENT_TYPES.length} types`),
      z.describe('Event types delivered (those of GET /event/list); empty or absent: all of them.'),
    ),
  enabled: z
    .boolean()
    .check(z.describe('Deliveries run (default true); `true` re-enables one disabled after failures.')),
  description: optionalText(500),
});

export const webhookUpdate = z.lazy(() => z.partial(z.object(fields())));
export const webhookInsert = z.lazy(() => {
  const f = fields();
  return z.extend(z.partial(z.object(f)), { url: f.url });
});
export type WebhookInput = z.output<typeof webhookUpdate>;
