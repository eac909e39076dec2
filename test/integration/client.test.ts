import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHelpdeskClient,
  type HelpdeskClientOptions,
  HelpdeskError,
  type RetryEvent,
} from '../../client/src';
import { type LocalServer, startServer } from '../../local/server';
import { forgetVerifiedTokens } from '../../shared/auth/access-tokens';
import { sha256 } from '../../shared/auth/hashing';
import { createClient } from '../../shared/domain/new-client';
import { db, tableName } from '../../shared/store/dynamo';
import { keys } from '../../shared/store/keys';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy';

/**
 * The TypeScript client (client/) against the real local server over HTTP: token exchange and
 * renewal, Idempotency-Keys, paging, searches, ETags, problem+json errors, and retries through
 * a proxy that loses requests before and after the server saw them.
 */
describe('TypeScript client against the local server', () => {
  let server: LocalServer;
  let proxy: FaultProxy;

  beforeAll(async () => {
    server = await startServer({ port: 0 });
    proxy = await startFaultProxy(server.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  interface Sent {
    method: string;
    path: string;
    search: string;
    authorization: string | null;
    idempotencyKey: string | null;
    status: number | undefined;
  }

  /** A fresh tenant and a client of it that records every request it sends and its status. */
  const tenantClient = async (
    options: Partial<HelpdeskClientOptions> = {},
    compat: 'standard' | 'deskero' = 'standard',
  ) => {
    const { clientId, apiToken } = await createClient(
      `ts-client-${Math.random().toString(36).slice(2, 8)}`,
      compat,
    );
    const sent: Sent[] = [];
    const retries: RetryEvent[] = [];
    const client = createHelpdeskClient({
      baseUrl: server.url,
      apiToken,
      retry: { baseDelayMs: 5 },
      onRetry: (event) => retries.push(event),
      fetch: async (request) => {
        const url = new URL(request.url);
        const entry: Sent = {
          method: request.method,
          path: url.pathname,
          search: url.search,
          authorization: request.headers.get('authorization'),
          idempotencyKey: request.headers.get('idempotency-key'),
          status: undefined,
        };
        sent.push(entry);
        const response = await fetch(request);
        entry.status = response.status;
        return response;
      },
      ...options,
    });
    return { client, clientId, apiToken, sent, retries };
  };

  const bearer = (s: Sent) => s.authorization?.replace(/^Bearer /, '') ?? '';

  it('exchanges the apiToken once (Basic, client credentials) and sends the access token with the clientId', async () => {
    const { client, sent } = await tenantClient();
    for await (const _ of client.customers.list()) expect.unreachable('a new tenant has no customers');
    const types = [];
    for await (const type of client.ticketTypes.list()) types.push(type.type);
    expect(types.sort()).toEqual(['incident', 'problem', 'question', 'task']);
    expect(client.tokenExchanges).toBe(1);
    expect(sent[0]).toMatchObject({
      method: 'GET',
      path: '/oauth/token',
      search: '?grant_type=client_credentials',
      status: 200,
    });
    expect(sent[0]?.authorization).toMatch(/^Basic /);
    expect(sent.slice(1).map((s) => s.authorization)).toEqual([
      sent[1]?.authorization,
      sent[1]?.authorization,
    ]);
    expect(sent[1]?.authorization).toMatch(/^Bearer .+/);
  });

  it('renews the token on a 401 (the server expired it) and sends the call again, once', async () => {
    const { client, clientId, sent } = await tenantClient();
    const { data } = await client.customers.insert({ name: 'Ada', email: 'ada@example.com' });
    const first = bearer(sent[1] as Sent);
    // Server side: the token expires (as the store sees it) and no instance remembers it valid.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.accessToken(clientId, sha256(first)),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Date.now() - 1000 },
      }),
    );
    forgetVerifiedTokens();

    const { data: customer } = await client.customers.get(data.id);
    expect(customer.email).toBe('ada@example.com');
    expect(client.tokenExchanges).toBe(2);
    expect(sent.slice(2).map((s) => [s.method, s.path, s.status])).toEqual([
      ['GET', `/customer/${data.id}`, 401],
      ['GET', '/oauth/token', 200],
      ['GET', `/customer/${data.id}`, 200],
    ]);
    expect(bearer(sent[4] as Sent)).not.toBe(first);
  });

  it('gives up with a typed 401 when the renewed token is refused too (one renewal per call)', async () => {
    const { client, clientId, sent } = await tenantClient();
    await client.customers.insert({ name: 'Ada', email: 'ada@example.com' });
    const { revokeClient } = await import('../../shared/auth/clients');
    await revokeClient(clientId);
    forgetVerifiedTokens();
    const error = await client.customers
      .get('0'.repeat(24))
      .then(() => undefined)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HelpdeskError);
    expect(error).toMatchObject({ status: 401, type: 'urn:helpdesk:problem:unauthorized' });
    // The refused call, one exchange (refused: the client is revoked), nothing more.
    expect(sent.slice(2).map((s) => [s.path, s.status])).toEqual([
      ['/customer/000000000000000000000000', 401],
      ['/oauth/token', 401],
    ]);
  });

  it('renews the token before it expires, at 90 % of expires_in, without a 401', async () => {
    let now = Date.now();
    const { client, sent } = await tenantClient({ now: () => now });
    await client.customers.insert({ name: 'Ada', email: 'ada@example.com' });
    now += 3239_000; // 89.97 % of 3600 s
    for await (const _ of client.customers.list());
    expect(client.tokenExchanges).toBe(1);
    now += 2_000; // past 90 %
    for await (const _ of client.customers.list());
    expect(client.tokenExchanges).toBe(2);
    expect(sent.map((s) => s.status)).not.toContain(401);
    expect(bearer(sent.at(-1) as Sent)).not.toBe(bearer(sent[1] as Sent));
  });

  it('creates a customer, a ticket, a reply and a note, each with its Idempotency-Key; a repeat replays', async () => {
    const { client, sent } = await tenantClient();
    const customer = await client.customers.insert({ name: 'Ada', email: 'ada@example.com' });
    const agent = await client.agents.insert({ name: 'Grace', email: 'grace@example.com' });
    const ticket = await client.tickets.insert(
      { subject: 'Printer on fire', description: 'It is on fire.', openedBy: { id: customer.data.id } },
      { idempotencyKey: 'order-4711' },
    );
    const reply = await client.tickets.reply(ticket.data.id, {
      text: 'Have you tried water?',
      replyFromOperator: { id: agent.data.id },
    });
    const note = await client.tickets.addNote(ticket.data.id, {
      note: 'VIP customer',
      insertBy: agent.data.id,
    });

    expect(ticket.idempotencyKey).toBe('order-4711');
    for (const created of [customer, agent, reply, note]) {
      expect(created.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(created.replayed).toBe(false);
    }
    const writes = sent.filter((s) => s.method !== 'GET');
    expect(writes.map((s) => s.idempotencyKey)).toEqual([
      customer.idempotencyKey,
      agent.idempotencyKey,
      'order-4711',
      reply.idempotencyKey,
      note.idempotencyKey,
    ]);

    const again = await client.tickets.insert(
      { subject: 'Printer on fire', description: 'It is on fire.', openedBy: { id: customer.data.id } },
      { idempotencyKey: 'order-4711' },
    );
    expect(again).toMatchObject({ replayed: true, data: { id: ticket.data.id } });

    const { data: read } = await client.tickets.get(ticket.data.id);
    expect(read.replies.map((r) => r.text)).toEqual(['Have you tried water?']);
    expect(read.ticketNotes.map((n) => n.note)).toEqual(['VIP customer']);
    const replies = [];
    for await (const r of client.tickets.replies(ticket.data.id)) replies.push(r.id);
    expect(replies).toEqual([reply.data.id]);
    const notes = [];
    for await (const n of client.tickets.notes(ticket.data.id)) notes.push(n.id);
    expect(notes).toEqual([note.data.id]);
    let tickets = 0;
    for await (const _ of client.tickets.list()) tickets++;
    expect(tickets).toBe(1);
    // List records are details (typed so: replies and notes are there), summaries on request.
    const details = [];
    for await (const t of client.tickets.list({ view: 'detail' })) details.push(t);
    expect(details.map((t) => t.replies.map((r) => r.text))).toEqual([read.replies.map((r) => r.text)]);
    expect(details.map((t) => t.ticketNotes)).toEqual([read.ticketNotes]);
    for await (const page of client.tickets.list({ view: 'summary' }).pages()) {
      expect(page.records.map((t) => t.id)).toEqual([ticket.data.id]);
      expect(page.records[0]).not.toHaveProperty('replies');
      expect(page.nextQuery).toBeNull();
    }
  });

  it('iterates 60 customers across 3 pages by following nextQuery', async () => {
    const { client, sent } = await tenantClient();
    const ids = new Set<string>();
    for (let batch = 0; batch < 60; batch += 20) {
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          client.customers.insert({ name: `Customer ${batch + i}`, email: `c${batch + i}@example.com` }),
        ),
      );
      for (const c of created) ids.add(c.data.id);
    }
    const listed: string[] = [];
    for await (const customer of client.customers.list()) listed.push(customer.id);
    expect(listed).toHaveLength(60);
    expect(new Set(listed)).toEqual(ids);

    const pages = sent.filter((s) => s.path === '/customer/list');
    expect(pages).toHaveLength(3);
    expect(pages[0]?.search).toBe('');
    expect(pages[1]?.search).toMatch(/^\?page=2&cursor=/);
    expect(pages[2]?.search).toMatch(/^\?page=3&cursor=/);

    const sizes = [];
    for await (const page of client.customers.list().pages())
      sizes.push([page.records.length, page.totalRecords]);
    expect(sizes).toEqual([
      [25, 60],
      [25, 60],
      [10, 60],
    ]);
  });

  it('searches: customers by e-mail, tickets by customer and status, keeping the search across pages', async () => {
    const { client, sent } = await tenantClient();
    const ada = await client.customers.insert({ name: 'Ada', email: 'ada@example.com' });
    await client.customers.insert({ name: 'Grace', email: 'grace@example.com' });
    const found = [];
    for await (const c of client.customers.list({ email: 'ADA@example.com' })) found.push(c.id);
    expect(found).toEqual([ada.data.id]);

    for (let i = 0; i < 27; i++) {
      await client.tickets.insert({ subject: `T${i}`, description: 'x', openedBy: { id: ada.data.id } });
    }
    const opened = [];
    for await (const t of client.tickets.list({ 'openedBy._id': ada.data.id })) opened.push(t.subject);
    expect(opened).toHaveLength(27);
    const second = sent.filter((s) => s.path === '/ticket/list').at(-1);
    expect(second?.search).toContain(`openedBy._id=${ada.data.id}`);
    expect(second?.search).toContain('cursor=');
    let closed = 0;
    for await (const _ of client.tickets.list({ status: 'closed' })) closed++;
    expect(closed).toBe(0);
  });

  it('exposes the ETag and sends If-Match: a stale version is a typed 412, nothing changed', async () => {
    const { client } = await tenantClient();
    const { data } = await client.customers.insert({ name: 'Ada', email: 'ada@example.com' });
    const { data: ticketId } = await client.tickets.insert({
      subject: 'Printer',
      description: 'x',
      openedBy: { id: data.id },
    });
    const { etag } = await client.tickets.get(ticketId.id);
    expect(etag).toMatch(/^"\d+"$/);
    const changed = await client.tickets.update(
      ticketId.id,
      { subject: 'Printer on fire' },
      { ifMatch: etag },
    );
    // The conditional write answers the version it made: the next write chains on it unread.
    const noted = await client.tickets.addNote(ticketId.id, { note: 'hot' }, { ifMatch: changed.etag });
    expect([changed.etag, noted.etag]).toEqual(['"2"', '"3"']);

    const error = await client.tickets
      .update(ticketId.id, { status: { status: 'closed' } }, { ifMatch: etag })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HelpdeskError);
    const problem = error as HelpdeskError;
    expect(problem).toMatchObject({
      status: 412,
      type: 'urn:helpdesk:problem:precondition-failed',
      title: 'Precondition Failed',
    });
    expect(problem.requestId).toMatch(/.+/);
    expect(problem.requestId).toBe(problem.response.headers.get('x-request-id'));
    const { data: after, etag: current } = await client.tickets.get(ticketId.id);
    expect(after).toMatchObject({ subject: 'Printer on fire', status: { status: 'opened' } });
    expect(current).not.toBe(etag);
    await client.tickets.delete(ticketId.id, { ifMatch: current });
  });

  it('sends a bulk call with a key on each operation; sending its operations again replays them', async () => {
    const { client } = await tenantClient();
    const { data: customer } = await client.customers.insert({ name: 'Ada', email: 'ada@example.com' });
    const ticket = { subject: 's', description: 'd', openedBy: { id: customer.id } };
    const first = await client.tickets.bulk([
      { op: 'insert', body: ticket },
      { op: 'insert', body: { ...ticket, subject: '' } },
    ]);
    expect(first.data.results.map((r) => r.status)).toEqual([201, 400]);
    const again = await client.tickets.bulk(first.operations);
    expect(again.data.results.map((r) => [r.status, r.replayed])).toEqual([
      [201, true],
      [400, undefined],
    ]);
    expect(again.data.results[0]?.body).toEqual(first.data.results[0]?.body);
    const all = [];
    for await (const t of client.tickets.list({ view: 'summary' })) all.push(t);
    expect(all).toHaveLength(1);
  });

  it("turns a 400 validation problem into a HelpdeskError with each field's error", async () => {
    const { client, sent } = await tenantClient();
    const error = await client.customers
      .insert({ name: '', email: 'not-an-address' })
      .catch((e: unknown) => e as HelpdeskError);
    expect(error).toBeInstanceOf(HelpdeskError);
    if (!(error instanceof HelpdeskError)) return;
    expect(error).toMatchObject({
      status: 400,
      type: 'urn:helpdesk:problem:validation-error',
      title: 'Bad Request',
      instance: '/customer/insert',
      retryAfter: undefined,
    });
    expect(error.errors.map((e) => e.path).sort()).toEqual(['email', 'name']);
    expect(error.errors.every((e) => e.message.length > 0)).toBe(true);
    // A 400 is not retried.
    expect(sent.filter((s) => s.path === '/customer/insert')).toHaveLength(1);
  });

  it('gets the documented answers from an account pinned to the deskero profile (Helpdesk-Compat: standard)', async () => {
    const { client, sent } = await tenantClient({}, 'deskero');
    const pages = [];
    for await (const page of client.customers.list().pages()) pages.push(page);
    expect(pages).toEqual([expect.objectContaining({ totalRecords: 0, records: [] })]);
    await expect(client.customers.get('0'.repeat(24))).rejects.toMatchObject({
      status: 404,
      type: 'urn:helpdesk:problem:not-found',
    });
    expect(sent.slice(1).map((s) => s.status)).toEqual([200, 404]);
    // Without the header the account's profile answers 204 to both, which the client refuses to guess at.
    const bare = await tenantClient({ headers: { 'Helpdesk-Compat': 'deskero' } }, 'deskero');
    const answer = await bare.client.api.GET('/customer/{id}', { params: { path: { id: '0'.repeat(24) } } });
    expect(answer.response.status).toBe(204);
  });

  describe('through a proxy that loses requests', () => {
    const proxied = () => tenantClient({ baseUrl: proxy.url });
    const inserts = (method: string, path: string) => method === 'POST' && path === '/customer/insert';
    const customersOf = async (client: Awaited<ReturnType<typeof proxied>>['client']) => {
      const all = [];
      for await (const c of client.customers.list()) all.push(c);
      return all;
    };

    it('(a) retries a 503 answered before the server saw the request: one record', async () => {
      const { client, retries } = await proxied();
      await client.customers.list().pages()[Symbol.asyncIterator]().next(); // the token, outside the fault
      const before = proxy.log.length;
      proxy.refuseNext(2, inserts);
      const created = await client.customers.insert({ name: 'Ada', email: 'ada@example.com' });
      const attempts = proxy.log.slice(before);
      expect(attempts.map((a) => a.outcome)).toEqual(['refused', 'refused', 'forwarded']);
      expect(new Set(attempts.map((a) => a.idempotencyKey))).toEqual(new Set([created.idempotencyKey]));
      expect(retries.map((r) => [r.attempt, r.status])).toEqual([
        [1, 503],
        [2, 503],
      ]);
      expect(created.replayed).toBe(false);
      expect((await customersOf(client)).map((c) => c.id)).toEqual([created.data.id]);
    });

    it('(b) retries when the answer is lost after the server committed: the same key replays, one record', async () => {
      const { client, retries } = await proxied();
      proxy.dropNextResponse(1, inserts);
      const before = proxy.log.length;
      const created = await client.customers.insert({ name: 'Ada', email: 'ada@example.com' });
      const attempts = proxy.log.slice(before).filter((a) => inserts(a.method, a.path));
      expect(attempts).toEqual([
        expect.objectContaining({ outcome: 'dropped', status: 201, replayed: false }),
        expect.objectContaining({ outcome: 'forwarded', status: 201, replayed: true }),
      ]);
      expect(attempts.map((a) => a.idempotencyKey)).toEqual([created.idempotencyKey, created.idempotencyKey]);
      expect(retries).toEqual([expect.objectContaining({ attempt: 1, status: undefined })]);
      expect(created.replayed).toBe(true);
      expect((await customersOf(client)).map((c) => c.id)).toEqual([created.data.id]);
    });

    it('repeats an update whose answer was lost under its key: the retry replays, applied once', async () => {
      const { client } = await proxied();
      const { data } = await client.customers.insert({ name: 'Ada', email: 'ada@example.com' });
      proxy.dropNextResponse(1, (method) => method === 'PUT');
      const before = proxy.log.length;
      const updated = await client.customers.update(data.id, { company: 'Engines' });
      const attempts = proxy.log.slice(before).filter((a) => a.method === 'PUT');
      expect(attempts).toEqual([
        expect.objectContaining({ outcome: 'dropped', status: 200, replayed: false }),
        expect.objectContaining({ outcome: 'forwarded', status: 200, replayed: true }),
      ]);
      expect(new Set(attempts.map((a) => a.idempotencyKey)).size).toBe(1);
      expect(updated.data).toEqual({ id: data.id });
      const { data: after } = await client.customers.get(data.id);
      expect(after.company).toBe('Engines');
    });

    it('stops after the retry budget with the last 503 as a typed error, nothing written', async () => {
      const { client, retries } = await tenantClient({
        baseUrl: proxy.url,
        retry: { maxRetries: 2, baseDelayMs: 1 },
      });
      await client.customers.list().pages()[Symbol.asyncIterator]().next();
      proxy.refuseNext(3, inserts);
      const error = await client.customers
        .insert({ name: 'Ada', email: 'ada@example.com' })
        .catch((e: unknown) => e as HelpdeskError);
      expect(error).toBeInstanceOf(HelpdeskError);
      expect(error).toMatchObject({
        status: 503,
        type: 'urn:helpdesk:problem:unavailable',
        retryAfter: 0,
        requestId: 'fault-proxy',
      });
      expect(retries).toHaveLength(2);
      expect(await customersOf(client)).toEqual([]);
    });
  });
});
