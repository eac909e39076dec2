import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { dispatch, HandlerError, invoke } from '../../local/invoke';
import type { HandlerLoader, HttpHandler } from '../../local/lambda-runtime';

/** A loader that serves one stub handler for every route and records what it was given. */
const stub = (handler: HttpHandler) => {
  const seen: { name: string; event: APIGatewayProxyEventV2 }[] = [];
  const loadHandler: HandlerLoader = async (name) => async (event, context) => {
    seen.push({ name, event });
    return handler(event, context);
  };
  return { loadHandler, seen };
};

describe('dispatch (the local API Gateway + Lambda stand-in)', () => {
  it("sends a request no route matches to the fallback route's handler, as API Gateway's $default route", async () => {
    const { loadHandler, seen } = stub(async () => ({ statusCode: 204 }));
    await dispatch({ method: 'GET', rawUrl: '/nothing?x=1', headers: {} }, { loadHandler });
    await dispatch({ method: 'POST', rawUrl: '/ticket/list', headers: {} }, { loadHandler });
    expect(
      seen.map((s) => [s.name, s.event.routeKey, s.event.requestContext.routeKey, s.event.rawPath]),
    ).toEqual([
      ['docs-page', '$default', '$default', '/nothing'],
      ['docs-page', '$default', '$default', '/ticket/list'],
    ]);
  });

  it('answers our own 404 problem for an unknown route, and leads / and /docs/ to the docs page', async () => {
    const unknown = await invoke('DELETE', '/nothing/here?x=1');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(unknown.headers['x-request-id']).toBeTruthy();
    expect(unknown.body).toMatchObject({
      type: 'urn:helpdesk:problem:no-route',
      status: 404,
      detail: 'No route for DELETE /nothing/here; the routes are listed at /docs and /openapi.json.',
    });
    for (const [path, location] of [
      ['/', 'docs'],
      ['/docs/', '../docs'],
    ]) {
      const res = await invoke('GET', path as string);
      expect([res.status, res.headers.location], path).toEqual([302, location]);
      expect(new URL(location as string, `http://h${path}`).pathname).toBe('/docs');
    }
    expect((await invoke('POST', '/')).status).toBe(404);
  });

  it("runs the route's handler with a payload 2.0 event and a Lambda context", async () => {
    let remaining = 0;
    const { loadHandler, seen } = stub(async (_event, context) => {
      remaining = context.getRemainingTimeInMillis();
      return { statusCode: 201, headers: { 'X-Id': 'a' }, body: '{}' };
    });
    const result = await dispatch(
      {
        method: 'put',
        rawUrl: '/ticket/reply/a%20b?x=1',
        headers: ['Content-Type', 'application/json', 'Cookie', 'a=1; b=2'],
        body: Buffer.from('{"text":"hi"}'),
        remoteAddress: '::ffff:10.0.0.1',
        localPort: 3000,
      },
      { loadHandler },
    );
    expect(result).toEqual({ statusCode: 201, headers: { 'X-Id': 'a' }, body: '{}' });
    expect(remaining).toBeGreaterThan(0);
    const [call] = seen;
    expect(call?.name).toBe('ticket-reply');
    expect(call?.event).toMatchObject({
      routeKey: 'PUT /ticket/reply/{id}',
      rawPath: '/ticket/reply/a%20b',
      pathParameters: { id: 'a b' },
      queryStringParameters: { x: '1' },
      cookies: ['a=1', 'b=2'],
      body: '{"text":"hi"}',
      isBase64Encoded: false,
      requestContext: { http: { method: 'PUT', sourceIp: '10.0.0.1' } },
    });
    expect(call?.event.headers['x-forwarded-port']).toBe('3000');
  });

  it('turns an unstructured return value into a 200 JSON body, as API Gateway does', async () => {
    const objectResult = stub(async () => ({ ok: true }) as never);
    expect(await dispatch({ method: 'GET', rawUrl: '/ticket/list', headers: {} }, objectResult)).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"ok":true}',
    });
    const stringResult = stub(async () => 'plain');
    expect(await dispatch({ method: 'GET', rawUrl: '/ticket/list', headers: {} }, stringResult)).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: 'plain',
    });
  });

  it('rejects with a HandlerError naming the route and request when a handler throws or cannot load', async () => {
    const boom = new Error('boom');
    const throwing = stub(async () => {
      throw boom;
    });
    const error = await dispatch({ method: 'GET', rawUrl: '/ticket/abc', headers: {} }, throwing).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HandlerError);
    expect(error).toMatchObject({ routeKey: 'GET /ticket/{id}', cause: boom });
    expect((error as HandlerError).message).toMatch(/^GET \/ticket\/\{id\} \(.+\) failed$/);

    const missing = new Error('no such module');
    const unloadable = await dispatch(
      { method: 'GET', rawUrl: '/ticket/abc', headers: {} },
      { loadHandler: () => Promise.reject(missing) },
    ).catch((e: unknown) => e);
    expect(unloadable).toMatchObject({ name: 'HandlerError', cause: missing });
  });
});

describe('invoke (in-process client)', () => {
  // The access log line of each request; handlers (and their logger) load on first use.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

  // Requests without credentials are refused by the real handlers before any store access.
  it('shapes the response: status, lower-case headers, parsed problem+json body', async () => {
    const res = await invoke('GET', '/customer/list?page=1');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 401 });
    expect(res.cookies).toEqual([]);
  });
});
