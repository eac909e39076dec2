import type { MiddlewareObj } from '@middy/core';
import { sha256 } from '../auth/hashing';
import { type IdempotencyContext, replayIfSeen } from '../store/idempotency';
import type { AuthorizedEvent } from './bearer-auth';
import { canonicalJson } from './canonical-json';
import { badRequest } from './errors';

const KEY = /^[\x20-\x7E]{1,255}$/;

/**
 * The key (hashed) and a fingerprint of what the request asks for: operation, path id and the
 * parsed body in its canonical form (canonical-json.ts), so a retry that sends the same JSON
 * with its keys in another order or its numbers spelled otherwise is the same request.
 */
export const idempotencyContext = (
  tenantId: string,
  key: string,
  operationId: string,
  pathId: string,
  body: unknown,
): IdempotencyContext => ({
  tenantId,
  keyHash: sha256(key),
  fingerprint: sha256(`${operationId}\n${pathId}\n${canonicalJson(body ?? null)}`),
});

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
