import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetVerifiedTokens } from '../../shared/auth/access-tokens';
import { revokeClient } from '../../shared/auth/clients';
import { sha256 } from '../../shared/auth/hashing';
import { createClient } from '../../shared/domain/new-client';
import { db, tableName } from '../../shared/store/dynamo';
import { keys } from '../../shared/store/keys';
import { invoke, newTenant } from '../helpers/api';
import { tokenItems } from '../helpers/cascades';

const TOKEN_URL = '/oauth/token?grant_type=client_credentials';

const expectUnauthorized = (res: Awaited<ReturnType<typeof invoke>>, scheme = 'Bearer') => {
  expect(res.status).toBe(401);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.headers['www-authenticate']).toMatch(new RegExp(`^${scheme}`));
  expect(res.body).toEqual({
    type: 'urn:helpdesk:problem:unauthorized',
    title: 'Unauthorized',
    status: 401,
    detail: 'Missing, invalid or expired credentials.',
    instance: expect.any(String),
  });
};

describe('token endpoint', () => {
  it('exchanges the apiToken for a bearer token', async () => {
    const { apiToken } = await createClient('acme');
    const res = await invoke('GET', TOKEN_URL, { headers: { authorization: `Basic ${apiToken}` } });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token_type: 'bearer',
      expires_in: 3600,
      scope: 'read write',
    });
  });

  it('rejects a wrong secret, an unknown client, a malformed header and a missing one alike', async () => {
    const { clientId } = await createClient('acme');
    const wrong = Buffer.from(`${clientId}:${'x'.repeat(43)}`).toString('base64');
    const unknown = Buffer.from(`${'0'.repeat(24)}:${'x'.repeat(43)}`).toString('base64');
    for (const authorization of [
      `Basic ${wrong}`,
      `Basic ${unknown}`,
      'Basic !!!',
      'Bearer abc',
      undefined,
    ]) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      expectUnauthorized(await invoke('GET', TOKEN_URL, { headers }), 'Basic');
    }
  });

  it('requires grant_type=client_credentials', async () => {
    const { apiToken } = await createClient('acme');
    const res = await invoke('GET', '/oauth/token?grant_type=password', {
      headers: { authorization: `Basic ${apiToken}` },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'grant_type', message: 'unsupported grant type' }]);
  });

  it('stores only a hash of the secret and of the token', async () => {
    const { clientId, apiToken } = await createClient('acme');
    const secret = Buffer.from(apiToken, 'base64').toString().split(':')[1] as string;
    const res = await invoke('GET', TOKEN_URL, { headers: { authorization: `Basic ${apiToken}` } });
    const token = res.body.access_token as string;
    const { Items = [] } = await db().send(
      new (await import('@aws-sdk/lib-dynamodb')).QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.client(clientId).pk },
      }),
    );
    const stored = JSON.stringify(Items);
    expect(Items.length).toBe(2);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(token);
    expect(stored).toContain(sha256(token));
  });
});

describe('bearer authentication', () => {
  it('accepts a valid token with its own clientId', async () => {
    const tenant = await newTenant();
    expect((await invoke('GET', '/customer/list', { headers: tenant.headers })).status).toBe(200);
  });

  it('rejects missing token, missing clientId, wrong token and garbage alike', async () => {
    const tenant = await newTenant();
    const cases: Record<string, string>[] = [
      {},
      { authorization: tenant.headers.authorization },
      { clientid: tenant.clientId },
      { authorization: `Bearer ${'A'.repeat(43)}`, clientid: tenant.clientId },
      { authorization: 'Bearer', clientid: tenant.clientId },
      { authorization: `Basic ${tenant.apiToken}`, clientid: tenant.clientId },
      { authorization: tenant.headers.authorization, clientid: 'not-a-client' },
    ];
    for (const headers of cases) expectUnauthorized(await invoke('GET', '/customer/list', { headers }));
  });

  it("rejects a token presented with another client's id", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const res = await invoke('GET', '/customer/list', {
      headers: { authorization: a.headers.authorization, clientid: b.clientId },
    });
    expectUnauthorized(res);
  });

  it('rejects an expired token', async () => {
    const tenant = await newTenant();
    const token = 'E'.repeat(43);
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.accessToken(tenant.clientId, sha256(token)),
          clientId: tenant.clientId,
          tokenHash: sha256(token),
          expiresAt: Date.now() - 1000,
        },
      }),
    );
    const res = await invoke('GET', '/customer/list', {
      headers: { authorization: `Bearer ${token}`, clientid: tenant.clientId },
    });
    expectUnauthorized(res);
  });

  it('revoking a client stops new tokens at once and kills issued ones', async () => {
    const tenant = await newTenant();
    expect(await revokeClient(tenant.clientId)).toBe(true);
    const token = await invoke('GET', TOKEN_URL, { headers: { authorization: `Basic ${tenant.apiToken}` } });
    expectUnauthorized(token, 'Basic');
    forgetVerifiedTokens(); // a warm instance may honour a verified token for up to 30 s
    expectUnauthorized(await invoke('GET', '/customer/list', { headers: tenant.headers }));
    expect(await revokeClient('0'.repeat(24))).toBe(false);
  });

  it('refuses the token of a revoked client at verification, even while its token item remains', async () => {
    const tenant = await newTenant();
    expect((await invoke('GET', '/customer/list', { headers: tenant.headers })).status).toBe(200);
    // Marked revoked, its tokens not (yet) swept: revocation marks the client first, and the
    // sweep of its token items can fail.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.client(tenant.clientId),
        UpdateExpression: 'SET revoked = :yes',
        ExpressionAttributeValues: { ':yes': true },
      }),
    );
    expect(await tokenItems(tenant.clientId)).toHaveLength(1);
    forgetVerifiedTokens(); // a warm instance may honour a verified token for up to 30 s
    expectUnauthorized(await invoke('GET', '/customer/list', { headers: tenant.headers }));

    // A token whose client item is gone altogether is refused too.
    const gone = await newTenant();
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.client(gone.clientId) }));
    expectUnauthorized(await invoke('GET', '/customer/list', { headers: gone.headers }));
  });

  it('authenticates before reading the body, so garbage without credentials is a 401', async () => {
    const res = await invoke('POST', '/customer/insert', {
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expectUnauthorized(res);
  });

  it('answers every response with a request id', async () => {
    const ok = await invoke('GET', '/customer/list', { headers: (await newTenant()).headers });
    const denied = await invoke('GET', '/customer/list');
    expect(ok.headers['x-request-id']).toEqual(expect.any(String));
    expect(denied.headers['x-request-id']).toEqual(expect.any(String));
  });
});

describe('the cost of verifying a token', () => {
  type Call = { command: string; input: Record<string, unknown> };
  let calls: Call[] = [];
  afterEach(() => {
    db().middlewareStack.remove('watch-calls');
  });
  /** The store calls `send` makes. */
  const callsOf = async (send: () => Promise<unknown>): Promise<Call[]> => {
    calls = [];
    await send();
    return calls;
  };

  it("is one consistent BatchGetItem of the token and its client on a cache miss (bringing the client's profile), none on a hit", async () => {
    db().middlewareStack.add(
      (next, context) => async (args) => {
        calls.push({ command: context.commandName ?? '?', input: args.input as Record<string, unknown> });
        return next(args);
      },
      { step: 'initialize', name: 'watch-calls' },
    );
    for (const compat of ['standard', 'deskero'] as const) {
      const tenant = await newTenant(undefined, { compat });
      const get = () => invoke('GET', '/customer/list?email=nobody@example.com', { headers: tenant.headers });
      await get(); // the rate-limit lease of this client claimed
      forgetVerifiedTokens();
      const miss = await callsOf(get);
      const hit = await callsOf(get);
      const names = (list: Call[]) => list.map((c) => c.command);
      expect(names(miss), compat).toEqual(['BatchGetItemCommand', ...names(hit)]);
      // On a hit nothing reads the client or its tokens (the page's own BatchGet reads its count).
      const readsCredentials = (c: Call) => JSON.stringify(c.input).includes(keys.client(tenant.clientId).pk);
      expect(hit.filter(readsCredentials), compat).toEqual([]);
      const { RequestItems } = (miss[0] as Call).input as {
        RequestItems: Record<string, { Keys: unknown[]; ConsistentRead: boolean }>;
      };
      expect(RequestItems).toEqual({
        [tableName()]: {
          Keys: expect.arrayContaining([
            keys.client(tenant.clientId),
            { pk: keys.client(tenant.clientId).pk, sk: expect.stringMatching(/^TOKEN#/) },
          ]),
          ConsistentRead: true,
        },
      });
      expect(RequestItems[tableName()]?.Keys).toHaveLength(2);
      // The profile came with that read: the answers follow it, with no further read.
      expect((await get()).status, compat).toBe(compat === 'deskero' ? 204 : 200);
    }
  });
});
