import type { MiddlewareObj } from '@middy/core';
import type { AuthorizedEvent } from '../auth/bearer-auth';
import { idempotencyContext, replayIfSeen } from '../store/idempotency';
import { badRequest } from './errors';

const KEY = /^[\x20-\x7E]{1,255}$/;

/**
 * Reads `Idempotency-Key` (1-255 printable ASCII characters) on routes that create something,
 * answers a retry of an already committed request at once, and leaves the context on the event
 * for the operation's transaction (see shared/store/idempotency.ts). Runs after auth and body parsing.
 */
export const idempotencyKey = (operationId: string): MiddlewareObj<AuthorizedEvent> => ({
  before: async ({ event }) => {
    const key = event.headers['idempotency-key'];
    if (key === undefined) return;
    if (!KEY.test(key)) {
      throw badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters.', [
        { path: 'Idempotency-Key', message: 'invalid header value' },
      ]);
    }
    const tenantId = event.requestContext.authorizer?.lambda.tenantId ?? '';
    const ctx = idempotencyContext(tenantId, key, operationId, event.pathParameters?.id ?? '', event.body);
    event.requestContext.idempotency = ctx;
    await replayIfSeen(ctx);
  },
});
