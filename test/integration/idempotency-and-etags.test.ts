import { beforeEach, describe, expect, it } from 'vitest';
import { invoke, newTenant, type Tenant } from '../helpers/api';
import { clientFor, type TenantClient, tenantWithCustomer } from '../helpers/tenant-client';

let tenant: Tenant;
let api: TenantClient;
let customer: string;

beforeEach(async () => {
  ({ tenant, api, customer } = await tenantWithCustomer());
});

const withKey = (method: string, path: string, key: string, body: unknown, t: Tenant = tenant) =>
  invoke(method, path, {
    headers: { ...t.headers, 'content-type': 'application/json', 'idempotency-key': key },
    body,
  });

const ticket = () => ({ subject: 's', description: 'd', openedBy: { id: customer } });

describe('Idempotency-Key', () => {
  const creates: [string, string, () => unknown, number][] = [
    ['POST', '/customer/insert', () => ({ name: 'B', email: 'b@example.com' }), 201],
    ['POST', '/agent/insert', () => ({ name: 'A', email: 'a@example.com' }), 201],
    ['POST', '/ticketType/insert', () => ({ type: 'billing' }), 201],
    ['POST', '/ticketArea/insert', () => ({ area: 'billing' }), 201],
    ['POST', '/ticketGroup/insert', () => ({ group: 'billing' }), 201],
    ['POST', '/ticket/insert', ticket, 201],
  ];

  it.each(creates)(
    '%s %s: a retry replays the first response and creates nothing more',
    async (method, path, body, status) => {
      const first = await withKey(method, path, 'key-1', body());
      expect(first.status).toBe(status);
      const retry = await withKey(method, path, 'key-1', body());
      expect(retry.status).toBe(status);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      const listPath = path.replace('/insert', '/list');
      const key = {
        customer: 'customer',
        agent: 'agent',
        ticketType: 'type',
        ticketArea: 'area',
        ticketGroup: 'group',
        ticket: 'ticket',
      }[path.split('/')[1] as string] as string;
      const list = (await api.get(listPath)).body[key];
      expect(list.records.filter((r: { id: string }) => r.id === first.body.id)).toHaveLength(1);
      // A fresh key runs the request again (a duplicate name or e-mail is then a 409, a ticket a new one).
      const other = await withKey(method, path, 'key-2', body());
      expect(other.headers['idempotent-replayed']).toBeUndefined();
      expect(other.body.id).not.toBe(first.body.id);
    },
  );

  it('replays replies and notes, and counts the reply once', async () => {
    const id = await api.create('/ticket/insert', ticket());
    const first = await withKey('PUT', `/ticket/reply/${id}`, 'r', { text: 'hello' });
    const again = await withKey('PUT', `/ticket/reply/${id}`, 'r', { text: 'hello' });
    expect(again.body).toEqual(first.body);
    const note = await withKey('PUT', `/ticket/addNote/${id}`, 'n', { note: 'x' });
    expect((await withKey('PUT', `/ticket/addNote/${id}`, 'n', { note: 'x' })).body).toEqual(note.body);
    const t = (await api.get(`/ticket/${id}`)).body;
    expect(t.numberOfReplies).toBe(1);
    expect(t.replies).toHaveLength(1);
    expect(t.ticketNotes).toHaveLength(1);
  });

  it('answers 422 for the same key with a different body or on another route, changing nothing', async () => {
    expect(
      (await withKey('POST', '/customer/insert', 'k', { name: 'B', email: 'b@example.com' })).status,
    ).toBe(201);
    const changed = await withKey('POST', '/customer/insert', 'k', { name: 'C', email: 'c@example.com' });
    expect(changed.status).toBe(422);
    expect(changed.body.type).toBe('urn:helpdesk:problem:idempotency-key-reused');
    expect((await withKey('POST', '/agent/insert', 'k', { name: 'C', email: 'c@example.com' })).status).toBe(
      422,
    );
    expect((await api.get('/customer/list')).body.customer.totalRecords).toBe(2);
    expect((await api.get('/agent/list')).body.agent.totalRecords).toBe(0);
  });

  it('replays a retry that sends the same JSON with its keys in another order or its numbers spelled otherwise', async () => {
    const raw = (key: string, text: string) =>
      invoke('POST', '/ticket/insert', {
        headers: { ...tenant.headers, 'content-type': 'application/json', 'idempotency-key': key },
        rawBody: Buffer.from(text),
      });
    const first = await raw(
      'order',
      `{"subject":"s","description":"d","openedBy":{"id":"${customer}"},"priority":1,"customFields":[{"name":"n","value":2}]}`,
    );
    expect(first.status).toBe(201);
    for (const retry of [
      `{"priority":1,"openedBy":{"id":"${customer}"},"description":"d","subject":"s","customFields":[{"value":2,"name":"n"}]}`,
      `{"customFields":[{"value":2.0,"name":"n"}],"subject":"s","priority":1e0,"description":"d","openedBy":{"id":"${customer}"}}`,
      ` { "subject" : "s", "description":"d", "openedBy":{"id":"${customer}"}, "priority":1.0, "customFields":[{"name":"n","value":20e-1}] } `,
    ]) {
      const again = await raw('order', retry);
      expect(again.status, retry).toBe(201);
      expect(again.headers['idempotent-replayed'], retry).toBe('true');
      expect(again.body).toEqual(first.body);
    }
    // Order within an array is meaning, not spelling: another request.
    const swapped = await raw(
      'order',
      `{"subject":"s","description":"d","openedBy":{"id":"${customer}"},"priority":1,"customFields":[{"name":"n","value":2},{"name":"m","value":null}]}`,
    );
    expect(swapped.status).toBe(422);
    expect((await api.get('/ticket/list')).body.ticket.totalRecords).toBe(1);
  });

  it('scopes keys per tenant', async () => {
    const other = await newTenant();
    const otherCustomer = await clientFor(other).create('/customer/insert', {
      name: 'x',
      email: 'x@example.com',
    });
    const mine = await withKey('POST', '/ticket/insert', 'shared', ticket());
    const theirs = await withKey(
      'POST',
      '/ticket/insert',
      'shared',
      { ...ticket(), openedBy: { id: otherCustomer } },
      other,
    );
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('does not remember failures: a corrected retry with a new body is refused, the same body re-runs', async () => {
    const bad = await withKey('POST', '/customer/insert', 'f', { name: 'B', email: 'ada@example.com' });
    expect(bad.status).toBe(409);
    const same = await withKey('POST', '/customer/insert', 'f', { name: 'B', email: 'ada@example.com' });
    expect(same.status).toBe(409);
    expect(same.headers['idempotent-replayed']).toBeUndefined();
  });

  it('rejects malformed keys', async () => {
    for (const key of ['', 'x'.repeat(256), 'tab\there', 'é']) {
      const res = await withKey('POST', '/customer/insert', key, { name: 'B', email: 'b@example.com' });
      expect(res.status, JSON.stringify(key)).toBe(400);
    }
    expect((await api.get('/customer/list')).body.customer.totalRecords).toBe(1);
  });

  it('replays an update after the record changed again, and never applies it twice', async () => {
    const first = await withKey('PUT', `/customer/update/${customer}`, 'u', { company: 'A' });
    expect(first.status).toBe(200);
    await api.put(`/customer/update/${customer}`, { company: 'B' });
    const retry = await withKey('PUT', `/customer/update/${customer}`, 'u', { company: 'A' });
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect((await api.get(`/customer/${customer}`)).body.company).toBe('B');

    const id = await api.create('/ticket/insert', ticket());
    const t = await withKey('PUT', `/ticket/update/${id}`, 'tu', { subject: 'once' });
    await api.put(`/ticket/update/${id}`, { subject: 'twice' });
    const again = await withKey('PUT', `/ticket/update/${id}`, 'tu', { subject: 'once' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(t.body);
    expect((await api.get(`/ticket/${id}`)).body.subject).toBe('twice');
    // The same key for another change of the same record is a mistake, not a retry.
    const reused = await withKey('PUT', `/ticket/update/${id}`, 'tu', { subject: 'other' });
    expect(reused.status).toBe(422);
  });

  it('replays a delete: the retry answers what the delete answered, not 404', async () => {
    const id = await api.create('/ticket/insert', ticket());
    const first = await withKey('DELETE', `/ticket/delete/${id}`, 'd', undefined);
    expect(first.status).toBe(200);
    const retry = await withKey('DELETE', `/ticket/delete/${id}`, 'd', undefined);
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    const agent = await api.create('/agent/insert', { name: 'A', email: 'a@example.com' });
    expect((await withKey('DELETE', `/agent/delete/${agent}`, 'da', undefined)).status).toBe(200);
    const again = await withKey('DELETE', `/agent/delete/${agent}`, 'da', undefined);
    expect([again.status, again.headers['idempotent-replayed']]).toEqual([200, 'true']);
    // Without a key a repeated delete finds nothing to delete.
    expect((await api.del(`/agent/delete/${agent}`)).status).toBe(404);
  });

  it('lets 10 concurrent requests with one key create exactly one record', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => withKey('POST', '/ticket/insert', 'race', ticket())),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect((await api.get('/ticket/list')).body.ticket.totalRecords).toBe(1);
    const customers = await Promise.all(
      Array.from({ length: 10 }, () =>
        withKey('POST', '/customer/insert', 'race-c', { name: 'Z', email: 'z@example.com' }),
      ),
    );
    expect(customers.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(customers.map((r) => r.body.id)).size).toBe(1);
  });
});

describe('ETag and If-Match', () => {
  const withIfMatch = (method: string, path: string, etag: string, body?: unknown) =>
    invoke(method, path, {
      headers: {
        ...tenant.headers,
        'if-match': etag,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body } : {}),
    });

  it('gives every detail an ETag that changes with every write', async () => {
    const first = await api.get(`/customer/${customer}`);
    expect(first.headers.etag).toMatch(/^"\d+"$/);
    await api.put(`/customer/update/${customer}`, { company: 'x' });
    expect((await api.get(`/customer/${customer}`)).headers.etag).not.toBe(first.headers.etag);

    const id = await api.create('/ticket/insert', ticket());
    const t1 = (await api.get(`/ticket/${id}`)).headers.etag;
    await api.put(`/ticket/reply/${id}`, { text: 'r' });
    const t2 = (await api.get(`/ticket/${id}`)).headers.etag;
    expect(t1).toMatch(/^"\d+"$/);
    expect(t2).not.toBe(t1);
  });

  it('applies an update or delete whose If-Match is current, and answers 412 to a stale one', async () => {
    const etag = (await api.get(`/customer/${customer}`)).headers.etag as string;
    expect((await withIfMatch('PUT', `/customer/update/${customer}`, etag, { company: 'A' })).status).toBe(
      200,
    );
    const stale = await withIfMatch('PUT', `/customer/update/${customer}`, etag, { company: 'B' });
    expect(stale.status).toBe(412);
    expect(stale.body.type).toBe('urn:helpdesk:problem:precondition-failed');
    expect((await withIfMatch('DELETE', `/customer/delete/${customer}`, etag)).status).toBe(412);
    expect(
      (await withIfMatch('PUT', `/customer/update/${customer}`, '"nonsense', { company: 'B' })).status,
    ).toBe(412);
    expect((await api.get(`/customer/${customer}`)).body.company).toBe('A');
    expect((await withIfMatch('PUT', `/customer/update/${customer}`, '*', { company: 'C' })).status).toBe(
      200,
    );
    const now = (await api.get(`/customer/${customer}`)).headers.etag as string;
    expect((await withIfMatch('DELETE', `/customer/delete/${customer}`, `W/${now}`)).status).toBe(200);
  });

  it('takes If-Match as a list of entity-tags: any one current is enough (RFC 9110)', async () => {
    const etag = (await api.get(`/customer/${customer}`)).headers.etag as string;
    const version = Number(JSON.parse(etag));
    const other = `"${version + 6}"`;
    // One of the list is current → applied.
    expect(
      (await withIfMatch('PUT', `/customer/update/${customer}`, `${other}, ${etag}`, { company: 'A' }))
        .status,
    ).toBe(200);
    const now = (await api.get(`/customer/${customer}`)).headers.etag as string;
    // Weak tags, no spaces, empty elements and tags that are not ours (a comma inside one) in the list.
    expect(
      (
        await withIfMatch('PUT', `/customer/update/${customer}`, `"a,b",,W/"0",W/${now} ,`, {
          company: 'B',
        })
      ).status,
    ).toBe(200);
    // None current → 412, nothing changed.
    const none = await withIfMatch('PUT', `/customer/update/${customer}`, `${etag}, ${now}, "x"`, {
      company: 'C',
    });
    expect(none.status).toBe(412);
    expect(none.body.type).toBe('urn:helpdesk:problem:precondition-failed');
    // Malformed lists → 412 as a malformed single tag is.
    const current = (await api.get(`/customer/${customer}`)).headers.etag as string;
    for (const bad of [
      `${current}, nonsense`,
      `${current} ${current}`,
      `*, ${current}`,
      `${current}, "open`,
    ]) {
      expect(
        (await withIfMatch('PUT', `/customer/update/${customer}`, bad, { company: 'D' })).status,
        bad,
      ).toBe(412);
    }
    expect((await api.get(`/customer/${customer}`)).body.company).toBe('B');
    expect((await withIfMatch('DELETE', `/customer/delete/${customer}`, `"1", ${current}, "7"`)).status).toBe(
      200,
    );
  });

  it('takes If-Match lists on tickets too', async () => {
    const id = await api.create('/ticket/insert', ticket());
    const etag = (await api.get(`/ticket/${id}`)).headers.etag as string;
    expect(
      (await withIfMatch('PUT', `/ticket/update/${id}`, `"999", ${etag}`, { subject: 'mine' })).status,
    ).toBe(200);
    expect(
      (await withIfMatch('PUT', `/ticket/update/${id}`, `"999", ${etag}`, { subject: 'no' })).status,
    ).toBe(412);
    const now = (await api.get(`/ticket/${id}`)).headers.etag as string;
    expect((await withIfMatch('DELETE', `/ticket/delete/${id}`, `W/"999", W/${now}`)).status).toBe(200);
  });

  it('guards ticket update and delete the same way', async () => {
    const id = await api.create('/ticket/insert', ticket());
    const etag = (await api.get(`/ticket/${id}`)).headers.etag as string;
    await api.put(`/ticket/addNote/${id}`, { note: 'someone else was here' });
    expect((await withIfMatch('PUT', `/ticket/update/${id}`, etag, { subject: 'mine' })).status).toBe(412);
    expect((await withIfMatch('DELETE', `/ticket/delete/${id}`, etag)).status).toBe(412);
    expect((await api.get(`/ticket/${id}`)).body.subject).toBe('s');
  });

  it('guards replies and notes too: a stale, unknown or malformed If-Match adds nothing', async () => {
    const id = await api.create('/ticket/insert', ticket());
    const etag = (await api.get(`/ticket/${id}`)).headers.etag as string;
    expect((await withIfMatch('PUT', `/ticket/reply/${id}`, etag, { text: 'first' })).status).toBe(200);
    for (const stale of [etag, '"999"', '"open']) {
      const reply = await withIfMatch('PUT', `/ticket/reply/${id}`, stale, { text: 'again' });
      expect([reply.status, reply.body.type], stale).toEqual([
        412,
        'urn:helpdesk:problem:precondition-failed',
      ]);
      const note = await withIfMatch('PUT', `/ticket/addNote/${id}`, stale, { note: 'n' });
      expect(note.status, stale).toBe(412);
    }
    const current = (await api.get(`/ticket/${id}`)).headers.etag as string;
    expect((await withIfMatch('PUT', `/ticket/addNote/${id}`, `"1", ${current}`, { note: 'n' })).status).toBe(
      200,
    );
    expect((await withIfMatch('PUT', `/ticket/reply/${id}`, '*', { text: 'any' })).status).toBe(200);
    const t = (await api.get(`/ticket/${id}`)).body;
    expect(t.replies.map((r: { text: string }) => r.text)).toEqual(['first', 'any']);
    expect(t.ticketNotes).toHaveLength(1);
    expect(t.numberOfReplies).toBe(2);
    expect(
      (await withIfMatch('PUT', `/ticket/reply/ffffffffffffffffffffffff`, current, { text: 'x' })).status,
    ).toBe(404);
  });

  it('lets exactly one of several concurrent updates with the same If-Match win', async () => {
    const etag = (await api.get(`/customer/${customer}`)).headers.etag as string;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        withIfMatch('PUT', `/customer/update/${customer}`, etag, { company: `c${i}` }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
    const winner = results.findIndex((r) => r.status === 200);
    expect((await api.get(`/customer/${customer}`)).body.company).toBe(`c${winner}`);
  });
});
