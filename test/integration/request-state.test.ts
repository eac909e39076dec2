import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../local/invoke';
import { type HandlerLoader, loadHandler } from '../../local/lambda-runtime';
import { newTenant, type Tenant } from '../helpers/api';
import { clientFor } from '../helpers/tenant-client';

/**
 * What the chain learns of a request (its client, its compatibility profile, its Idempotency-Key,
 * a replay) lives in the chain's own request state (shared/http/request-state.ts): the event a
 * function receives is API Gateway's, and no middleware writes to its `requestContext`.
 */
let tenant: Tenant;
let customer: string;

beforeAll(async () => {
  tenant = await newTenant();
  customer = await clientFor(tenant).create('/customer/insert', { name: 'C', email: 'c@example.com' });
});

/** Each request's `requestContext` as the function received it, and as the chain left it. */
const seen: { before: unknown; after: unknown }[] = [];
const watching: HandlerLoader = async (name) => {
  const handler = await loadHandler(name);
  return async (event: APIGatewayProxyEventV2, context) => {
    const before = structuredClone(event.requestContext);
    try {
      return await handler(event, context);
    } finally {
      seen.push({ before, after: { ...event.requestContext } });
    }
  };
};

const send = async (method: string, rawUrl: string, headers: Record<string, string>, body?: unknown) => {
  const bytes = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const result = await dispatch(
    {
      method,
      rawUrl,
      headers: {
        host: 'localhost',
        ...(bytes ? { 'content-type': 'application/json', 'content-length': String(bytes.length) } : {}),
        ...headers,
      },
      ...(bytes ? { body: bytes } : {}),
    },
    { loadHandler: watching },
  );
  return result?.statusCode;
};

describe('the request state', () => {
  it('leaves every requestContext as API Gateway sent it: auth, profile, rate limit, Idempotency-Key, replay, problems', async () => {
    seen.length = 0;
    const keyed = { ...tenant.headers, 'idempotency-key': 'state-1', 'helpdesk-compat': 'deskero' };
    const ticket = { subject: 's', description: 'd', openedBy: { id: customer } };
    expect(await send('POST', '/ticket/insert', keyed, ticket)).toBe(201);
    // The retry is answered from the stored outcome.
    expect(await send('POST', '/ticket/insert', keyed, ticket)).toBe(201);
    expect(
      await send('GET', '/ticket/list?limit=5', { ...tenant.headers, 'helpdesk-compat': 'deskero' }),
    ).toBe(200);
    expect(await send('GET', '/customer/list', tenant.headers)).toBe(200);
    expect(
      await send(
        'POST',
        '/ticket/insert',
        { ...keyed, 'idempotency-key': 'state-1' },
        { ...ticket, subject: 'x' },
      ),
    ).toBe(422);
    expect(await send('GET', '/ticket/list', { ...tenant.headers, authorization: 'Bearer nope' })).toBe(401);
    expect(await send('GET', '/ticket/list', { ...tenant.headers, 'helpdesk-compat': 'nope' })).toBe(400);
    expect(await send('GET', '/openapi.json', {})).toBe(200);
    expect(seen).toHaveLength(8);
    for (const { before, after } of seen) expect(after).toEqual(before);
  });
});
