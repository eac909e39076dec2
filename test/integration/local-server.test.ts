import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { observeResponses, type ResponseObserver } from '../../local/invoke';
import { type LocalServer, MAX_BODY_BYTES, startServer } from '../../local/server';
import { createClient } from '../../shared/domain/new-client';
import { routes } from '../../shared/routes';
import { connects, reachableWhenExposed } from '../helpers/reachability';

/** The local server over real HTTP: the same handlers, routed and wrapped like API Gateway does. */
describe('local server', () => {
  let server: LocalServer;
  let clientId: string;
  let apiToken: string;

  beforeAll(async () => {
    server = await startServer({ port: 0 });
    ({ clientId, apiToken } = await createClient('local-server-test'));
  });
  afterAll(() => server?.close());

  const token = async (): Promise<string> => {
    const res = await fetch(`${server.url}/oauth/token?grant_type=client_credentials`, {
      headers: { authorization: `Basic ${apiToken}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(body).toMatchObject({ token_type: 'bearer' });
    expect(body.expires_in).toBeGreaterThan(0);
    expect(body.access_token).toEqual(expect.any(String));
    return body.access_token;
  };

  it('answers an unknown route with our 404 problem, and leads / to the docs', async () => {
    const res = await fetch(`${server.url}/nothing/here?x=1`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await res.json()).toMatchObject({
      type: 'urn:helpdesk:problem:no-route',
      title: 'Not Found',
      status: 404,
      detail: 'No route for GET /nothing/here; the routes are listed at /docs and /openapi.json.',
    });
    const home = await fetch(`${server.url}/`, { redirect: 'manual' });
    expect([home.status, home.headers.get('location')]).toEqual([302, 'docs']);
  });

  it('exchanges the apiToken and serves a list with the access token', async () => {
    const accessToken = await token();
    const res = await fetch(`${server.url}/customer/list`, {
      headers: { authorization: `Bearer ${accessToken}`, clientId },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ customer: { records: [], totalRecords: 0, nextQuery: null } });
  });

  it('answers the lookup of an unknown shopper of a deskero client with a bare 204 over HTTP, a standard client with the page', async () => {
    const deskero = await createClient('local-server-deskero', 'deskero');
    const exchange = await fetch(`${server.url}/oauth/token?grant_type=client_credentials`, {
      headers: { authorization: `Basic ${deskero.apiToken}` },
    });
    const { access_token } = (await exchange.json()) as { access_token: string };
    const lookup = (id: string, bearer: string, header: Record<string, string> = {}) =>
      fetch(`${server.url}/customer/list?page=1&email=nobody@example.com`, {
        headers: { authorization: `Bearer ${bearer}`, clientId: id, ...header },
      });
    const res = await lookup(deskero.clientId, access_token);
    expect(res.status).toBe(204);
    expect(res.headers.get('content-type')).toBeNull();
    expect(res.headers.get('content-length')).toBeNull();
    expect(await res.text()).toBe('');
    const standard = await lookup(clientId, await token());
    expect(standard.status).toBe(200);
    expect(await standard.json()).toMatchObject({ customer: { records: [], totalRecords: 0 } });
    const overridden = await lookup(deskero.clientId, access_token, { 'Helpdesk-Compat': 'standard' });
    expect(overridden.status).toBe(200);
  });

  it('answers 401 with WWW-Authenticate without a token', async () => {
    const res = await fetch(`${server.url}/customer/list`, { headers: { clientId } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('rejects a body over 6 MB with 413 before any handler runs', async () => {
    const res = await fetch(`${server.url}/customer/insert`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `"${'x'.repeat(MAX_BODY_BYTES)}"`,
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 413, title: 'Content Too Large' });
  });

  // Route parity: every route in the table reaches its handler (whose auth answers 401, or a
  // public route's 200), never the router's 404.
  it.each(routes.map((r) => [r.method, r.path, r.auth]))(
    'routes %s %s to its handler',
    async (method, path, auth) => {
      const hasBody = method === 'POST' || method === 'PUT';
      const res = await fetch(`${server.url}${path.replaceAll('{id}', 'some-id')}`, {
        method,
        ...(hasBody ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
      });
      if (auth === 'none') {
        expect(res.status).toBe(200);
        return;
      }
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBeTruthy();
    },
  );
});

/** What the server itself answers, whatever the handlers do: stub handlers, no store. */
describe('local server, API Gateway behaviour', () => {
  let server: LocalServer;
  // A crash carrying a payload, as an AWS SDK error carries the raw response.
  const boom = Object.assign(new Error('boom'), { $response: { body: 'PAYLOAD-BYTES' } });

  // Stub handlers answer what no route documents: the contract check (test/helpers/env.ts) is
  // for the API's own responses, so it is off while they run.
  let contractCheck: ResponseObserver | undefined;
  beforeAll(async () => {
    contractCheck = observeResponses(undefined);
    server = await startServer({
      port: 0,
      loadHandler: async (name) => async () => {
        if (name === 'ticket-detail') throw boom;
        return { plain: name } as never; // unstructured: API Gateway makes it a 200 JSON body
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    observeResponses(contractCheck);
  });

  it('answers a bare 500 problem when a handler throws, logging the route and the error (not its payload)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const res = await fetch(`${server.url}/ticket/abc`);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        type: 'urn:helpdesk:problem:internal-error',
        title: 'Internal Server Error',
        status: 500,
        detail: 'The request could not be completed.',
      });
      expect(logged).toHaveBeenCalledWith(
        expect.stringMatching(/^\[local\] GET \/ticket\/\{id\} \(.+\) failed:$/),
        expect.objectContaining({ name: 'Error', message: 'boom', stack: boom.stack }),
      );
      expect(JSON.stringify(logged.mock.calls)).not.toContain('PAYLOAD-BYTES');
    } finally {
      logged.mockRestore();
    }
  });

  it('turns an unstructured handler result into a 200 JSON body', async () => {
    const res = await fetch(`${server.url}/ticket/list`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ plain: 'ticket-list' });
  });

  it('answers 413 for an oversized body to an unknown route too (the $default route takes no more than any)', async () => {
    const res = await fetch(`${server.url}/nothing`, {
      method: 'POST',
      body: 'x'.repeat(MAX_BODY_BYTES + 1),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ type: 'urn:helpdesk:problem:content-too-large' });
  });
});

/** Where the server listens: loopback unless told otherwise (`npm start`: HOST). */
describe('local server, its address', () => {
  const portOf = (server: LocalServer) => Number(new URL(server.url).port);

  it('listens on 127.0.0.1 only by default: unreachable on the machine’s other addresses', async () => {
    const server = await startServer({ port: 0 });
    try {
      expect(await connects('127.0.0.1', portOf(server))).toBe(true);
      for (const host of await reachableWhenExposed())
        expect(await connects(host, portOf(server)), `reachable on ${host}`).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('listens where `host` says when asked (HOST=:: or 0.0.0.0: every interface)', async () => {
    const server = await startServer({ port: 0, host: '::' });
    try {
      for (const host of ['127.0.0.1', ...(await reachableWhenExposed())])
        expect(await connects(host, portOf(server)), `unreachable on ${host}`).toBe(true);
    } finally {
      await server.close();
    }
  });
});
