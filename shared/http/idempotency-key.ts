import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { sha256 } from '../auth/hashing';
import { type IdempotencyContext, replayIfSeen } from '../store/idempotency';
import { canonicalJson } from './canonical-json';
import { badRequest } from './errors';
import { requestState } from './request-state';

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
 * Reads `Idempotency-Key` (1-255 printable ASCII characters) on routes that create something and
 * leaves its context in the request's state for the operation's transaction (see
 * shared/store/idempotency.ts); a retry of an already committed request finds its stored answer,
 * which it leaves there too: `apiHandler` answers with it as the request's result, and the
 * operation does not run. A result, not an error nor middy's early return (which would skip every
 * `after` hook: the request id, the rate-limit headers, the access log). Runs after auth and body parsing.
 */
export const idempotencyKey = (operationId: string): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: async ({ event }) => {
    const key = event.headers['idempotency-key'];
    if (key === undefined) return;
    if (!KEY.test(key)) {
      throw badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters.', [
        { path: 'Idempotency-Key', message: 'invalid header value' },
      ]);
    }
    const state = requestState(event);
    const tenantId = state.client?.tenantId ?? '';
    const ctx = idempotencyContext(tenantId, key, operationId, event.pathParameters?.id ?? '', event.body);
    state.idempotency = ctx;
    state.replay = await replayIfSeen(ctx);
  },
});
