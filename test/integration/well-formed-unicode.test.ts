import fc from 'fast-check';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HandlerLoader, loadHandler } from '../../local/lambda-runtime';
import { invoke, type Tenant } from '../helpers/api';
import { type TenantClient, tenantWithCustomer } from '../helpers/tenant-client';
import { countWrites } from '../helpers/write-counter';

/**
 * A string that is not well-formed Unicode (a lone UTF-16 surrogate, which JSON text can carry
 * as `"\ud800"`) is refused wherever it appears in a request: it would be stored as U+FFFD, so
 * `"\ud800"` and `"\udfff"` would be one tag, one lookup name, one search value.
 */
let tenant: Tenant;
let api: TenantClient;
let customer: string;

beforeEach(async () => {
  ({ tenant, api, customer } = await tenantWithCustomer());
});

// Table writes other than rate-limit leases.
let writes = { n: 0 };
beforeAll(() => {
  writes = countWrites();
});

const MESSAGE = 'must be well-formed Unicode (no lone surrogates)';

/** A refused body: 400 validation-error naming exactly `paths`, and nothing written. */
const expectRefused = async (send: () => ReturnType<typeof invoke>, paths: string[]) => {
  const before = writes.n;
  const res = await send();
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body.type).toBe('urn:helpdesk:problem:validation-error');
  expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(paths);
  expect(writes.n - before).toBe(0);
  return res;
};

const ticket = (extra: Record<string, unknown> = {}) => ({
  subject: 's',
  description: 'd',
  openedBy: { id: customer },
  ...extra,
});

describe('ill-formed Unicode in a body', () => {
  it('refuses lone surrogates as ticket tags (they would collide as one tag)', async () => {
    await expectRefused(() => api.post('/ticket/insert', ticket({ tags: ['\ud800'] })), ['tags.0']);
    await expectRefused(() => api.post('/ticket/insert', ticket({ tags: ['ok', '\udfff'] })), ['tags.1']);
    await expectRefused(
      () => api.post('/ticket/insert', ticket({ tags: [{ tag: 'a\udbff' }] })),
      ['tags.0.tag'],
    );
    expect((await api.get('/ticket/list')).body.ticket.totalRecords).toBe(0);
    const id = await api.create('/ticket/insert', ticket({ tags: ['ok'] }));
    await expectRefused(() => api.put(`/ticket/update/${id}`, { tags: ['\ud800'] }), ['tags.0']);
    expect((await api.get(`/ticket/${id}`)).body.tags).toEqual([{ tag: 'ok' }]);
  });

  it('refuses lone surrogates in lookup names (x\\udbff is no duplicate of x\\ud800)', async () => {
    const before = (await api.get('/ticketType/list')).body.type.totalRecords;
    await expectRefused(() => api.post('/ticketType/insert', { type: 'x\ud800' }), ['type']);
    await expectRefused(() => api.post('/ticketType/insert', { type: 'x\udbff' }), ['type']);
    await expectRefused(() => api.post('/ticketArea/insert', { area: '\udc00' }), ['area']);
    await expectRefused(
      () => api.post('/ticketGroup/insert', { group: 'g', labels: { en: 'fine', it: 'x\ud83d' } }),
      ['labels.it'],
    );
    expect((await api.get('/ticketType/list')).body.type.totalRecords).toBe(before);
  });

  it('refuses lone surrogates in customer fields, deep values and object keys', async () => {
    await expectRefused(
      () => api.post('/customer/insert', { name: 'B\ud800', email: 'b@example.com' }),
      ['name'],
    );
    await expectRefused(
      () =>
        api.post('/customer/insert', {
          name: 'B',
          email: 'b@example.com',
          customFields: { 'k\udfffey': 'v' },
        }),
      ['customFields.k\ufffdey'],
    );
    await expectRefused(
      () =>
        api.post('/customer/insert', {
          name: 'B',
          email: 'b@example.com',
          account: { username: 'u', password: 'pass\ud800word' },
        }),
      ['account.password'],
    );
    // An unknown field whose name is ill-formed is still named, made well-formed, in the answer.
    await expectRefused(
      () => api.post('/customer/insert', { name: 'B', email: 'b@example.com', '\ud800': 1 }),
      ['\ufffd'],
    );
    await expectRefused(() => api.put(`/customer/update/${customer}`, { company: '\udfff' }), ['company']);
    expect((await api.get('/customer/list')).body.customer.totalRecords).toBe(1);
    expect((await api.get(`/customer/${customer}`)).body.company).toBeNull();
  });

  it('refuses them in replies and notes, at any depth', async () => {
    const id = await api.create('/ticket/insert', ticket());
    await expectRefused(() => api.put(`/ticket/reply/${id}`, { text: 'hi \ud800' }), ['text']);
    await expectRefused(
      () =>
        api.put(`/ticket/update/${id}`, {
          replies: [{ text: 'ok' }, { text: 'ok', attachedDocuments: [{ documentName: '\udc00.txt' }] }],
        }),
      ['replies.1.attachedDocuments.0.documentName'],
    );
    await expectRefused(() => api.put(`/ticket/addNote/${id}`, { note: '\ud800' }), ['note']);
    const t = (await api.get(`/ticket/${id}`)).body;
    expect(t.numberOfReplies).toBe(0);
    expect(t.ticketNotes).toHaveLength(0);
  });

  it('reads the escapes from the JSON text itself (no help from JSON.stringify)', async () => {
    await expectRefused(
      () =>
        invoke('POST', '/ticket/insert', {
          headers: { ...tenant.headers, 'content-type': 'application/json' },
          rawBody: Buffer.from(
            `{"subject":"s","description":"d","openedBy":{"id":"${customer}"},"tags":["\\ud800"]}`,
          ),
        }),
      ['tags.0'],
    );
  });

  it('property: any ill-formed string anywhere in a valid body is a 400 naming it, and writes nothing', async () => {
    const valid = await sampleBodies(5);
    for (const [path, body] of valid) {
      // The generator makes bodies the API takes: refusals below are the surrogate's doing.
      expect((await api.post(path, body)).status, JSON.stringify(body)).toBe(201);
    }
    await fc.assert(
      fc.asyncProperty(bodyArb, injection, async ([path, body], [pick, at, unit]) => {
        const { mutated, fieldPath } = inject(body, pick, at, unit);
        await expectRefused(() => api.post(path, mutated), [fieldPath]);
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});

describe('ill-formed Unicode in the path, the query and headers', () => {
  /** Through the local dispatcher, with the handler's event changed as API Gateway could send it. */
  const withEvent = (change: (event: Record<string, unknown>) => void): HandlerLoader => {
    return async (name) => {
      const handler = await loadHandler(name);
      return (event, context) => {
        change(event as unknown as Record<string, unknown>);
        return handler(event, context);
      };
    };
  };
  const dispatchWith = async (path: string, change: (event: Record<string, unknown>) => void) => {
    const { dispatch } = await import('../../local/invoke');
    const result = await dispatch(
      { method: 'GET', rawUrl: path, headers: { ...tenant.headers, host: 'localhost' } },
      { loadHandler: withEvent(change) },
    );
    return { status: result?.statusCode, body: JSON.parse(String(result?.body)), headers: result?.headers };
  };

  it('refuses a query parameter (value or name) that is not well-formed', async () => {
    await api.create('/ticket/insert', ticket({ tags: ['\ufffd'] }));
    // URLSearchParams (the local event builder) already replaces lone surrogates; API Gateway's event may not.
    const value = await dispatchWith('/ticket/list?tags=x', (e) => {
      e.queryStringParameters = { tags: '\ud800' };
    });
    expect(value.status).toBe(400);
    expect(value.headers?.['content-type']).toMatch(/^application\/problem\+json/);
    expect(value.body.type).toBe('urn:helpdesk:problem:bad-request');
    expect(value.body.errors).toEqual([{ path: 'tags', message: MESSAGE }]);
    const name = await dispatchWith('/customer/list?x=1', (e) => {
      e.queryStringParameters = { 'x\udfff': '1' };
    });
    expect(name.status).toBe(400);
    expect(name.body.errors).toEqual([{ path: 'x\ufffd', message: MESSAGE }]);
  });

  it('refuses a path parameter that is not well-formed', async () => {
    const res = await invoke('GET', '/customer/\ud800', { headers: tenant.headers });
    expect(res.status).toBe(400);
    expect(res.body.type).toBe('urn:helpdesk:problem:bad-request');
    expect(res.body.errors).toEqual([{ path: 'id', message: MESSAGE }]);
    const del = await invoke('DELETE', `/customer/delete/${customer}\udc00`, { headers: tenant.headers });
    expect(del.status).toBe(400);
    expect((await api.get('/customer/list')).body.customer.totalRecords).toBe(1);
  });

  it('refuses Idempotency-Key and clientId headers that are not well-formed', async () => {
    const before = writes.n;
    const key = await invoke('POST', '/customer/insert', {
      headers: { ...tenant.headers, 'idempotency-key': 'k\ud800' },
      body: { name: 'B', email: 'b@example.com' },
    });
    expect(key.status).toBe(400);
    expect(key.body.errors).toEqual([{ path: 'Idempotency-Key', message: 'invalid header value' }]);
    // A malformed clientId is a malformed credential: the one 401 every credential failure gets.
    const client = await invoke('GET', '/customer/list', {
      headers: { ...tenant.headers, clientid: `${tenant.clientId}\ud800` },
    });
    expect(client.status).toBe(401);
    expect(client.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(writes.n - before).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Generated bodies: valid customer and ticket inserts, then one surrogate put somewhere in them.

/** Well-formed text (whole graphemes), trimmed non-empty where a field requires it. */
const text = fc
  .string({ unit: 'grapheme', maxLength: 6 })
  .map((s) => `t${s.trim()}`)
  .filter((s) => s.length <= 60);
const scalar = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null));
let emails = 0;

const customerBody = fc
  .record(
    {
      name: text,
      company: text,
      memo: text,
      account: fc.record({ username: text }),
      customFields: fc.dictionary(text, scalar, { minKeys: 1, maxKeys: 4 }),
    },
    { requiredKeys: ['name'] },
  )
  .map((b): [string, Record<string, unknown>] => [
    '/customer/insert',
    { ...b, email: `p${emails++}@example.com` },
  ]);

const ticketBody = fc
  .record(
    {
      subject: text,
      description: text,
      tags: fc.uniqueArray(text, { maxLength: 4 }),
      memo: text,
      customFields: fc.array(fc.record({ name: text, value: scalar }), { maxLength: 3 }),
      replies: fc.array(fc.record({ text: text }), { maxLength: 2 }),
    },
    { requiredKeys: ['subject', 'description'] },
  )
  .map((b): [string, Record<string, unknown>] => ['/ticket/insert', { ...b, openedBy: { id: customer } }]);

const bodyArb = fc.oneof(customerBody, ticketBody);
const sampleBodies = async (n: number) => fc.sample(bodyArb, n);

/** Which string (by index), where in it, and which surrogate code unit. */
const injection = fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0xd800, max: 0xdfff }));

interface Spot {
  /** Path of the field as the API names it. */
  path: string[];
  /** A value, or the key of `path`'s last segment. */
  kind: 'value' | 'key';
  text: string;
}

/** Every string of a body, values and object keys, with its path. */
const spots = (value: unknown, path: string[] = []): Spot[] => {
  if (typeof value === 'string') return [{ path, kind: 'value', text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => spots(v, [...path, String(i)]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [
      { path: [...path, k], kind: 'key' as const, text: k },
      ...spots(v, [...path, k]),
    ]);
  }
  return [];
};

const inject = (body: Record<string, unknown>, pick: number, at: number, unit: number) => {
  const all = spots(body);
  const spot = all[pick % all.length] as Spot;
  const index = at % (spot.text.length + 1);
  const bad = spot.text.slice(0, index) + String.fromCharCode(unit) + spot.text.slice(index);
  // One surrogate code unit more makes their count odd: at least one is alone.
  expect(bad.isWellFormed()).toBe(false);
  const mutated = structuredClone(body);
  const parentPath = spot.path.slice(0, -1);
  const last = spot.path.at(-1) as string;
  let parent: Record<string, unknown> = mutated;
  for (const segment of parentPath) parent = parent[segment] as Record<string, unknown>;
  if (spot.kind === 'value') parent[last] = bad;
  else {
    // Rebuild the object in its order with the one key renamed.
    const entries = Object.entries(parent).map(([k, v]): [string, unknown] => [k === last ? bad : k, v]);
    for (const k of Object.keys(parent)) delete parent[k];
    Object.assign(parent, Object.fromEntries(entries));
  }
  const named = spot.kind === 'value' ? spot.path : [...parentPath, bad.toWellFormed()];
  return { mutated, fieldPath: named.join('.') };
};
