import { beforeAll, describe, expect, it } from 'vitest';
import { COMPAT_HEADER } from '../../shared/http/compat';
import { compatRole, routes } from '../../shared/routes';
import { type ApiResponse, invoke, newTenant, type Tenant } from '../helpers/api';
import { seedTickets } from '../helpers/seed';
import { clientFor, type TenantClient } from '../helpers/tenant-client';

/**
 * Compatibility profiles through the local dispatcher: a client pinned to `deskero` gets
 * Deskero's answers (204 for empty lists and unknown details, `onhold`, `limit` ignored), a
 * `standard` client today's, and the `Helpdesk-Compat` header overrides either for one request.
 */
const UNKNOWN_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const UNKNOWN_EMAIL = 'nobody-here@example.com';
const DETAILS = ['/ticket', '/customer', '/agent', '/ticketType', '/ticketArea', '/ticketGroup'];

const expectNoContent = (res: ApiResponse, what: string) => {
  expect(res.status, what).toBe(204);
  expect(res.body, what).toBeUndefined();
  expect(res.headers['content-type'], what).toBeUndefined();
  expect(res.headers['content-length'], what).toBeUndefined();
  expect(res.headers['x-request-id'], what).toEqual(expect.any(String));
};

const expectNotFound = (res: ApiResponse, what: string) => {
  expect(res.status, what).toBe(404);
  expect(res.headers['content-type'], what).toMatch(/^application\/problem\+json/);
  expect(res.body.type, what).toBe('urn:helpdesk:problem:not-found');
};

/** A tenant with a customer, and a ticket of that customer put on hold. */
const tenantWithTicket = async (compat?: 'standard' | 'deskero') => {
  const tenant = await newTenant(undefined, compat ? { compat } : {});
  const api = clientFor(tenant);
  const customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
  const ticket = await api.create('/ticket/insert', {
    subject: 's',
    description: 'd',
    openedBy: { id: customer },
  });
  expect((await api.put(`/ticket/update/${ticket}`, { status: { status: 'on hold' } })).status).toBe(200);
  return { tenant, api, customer, ticket };
};

/** Every list route of the route table, its `{id}` filled with a ticket's id (a webhook's under /webhook, a customer's under /customer). */
/** Every list route's address; a search's with a query that matches nothing (none is indexed here). */
const listPaths = (ticket: string, webhook: string, customer: string, job: string) =>
  routes
    .filter((r) => compatRole(r) === 'list')
    .map((r) => {
      const owner = r.path.startsWith('/webhook/')
        ? webhook
        : r.path.startsWith('/customer/')
          ? customer
          : r.path.startsWith('/import/')
            ? job
            : ticket;
      return r.path.replace('{id}', owner) + (r.search ? '?query=nothing' : '');
    });
/** `path` with more query parameters. */
const withQuery = (path: string, more: string) => `${path}${path.includes('?') ? '&' : '?'}${more}`;
const newWebhook = async (client: TenantClient): Promise<string> =>
  (await client.post('/webhook/insert', { url: 'https://1.1.1.1/hooks' })).body.id;
/** An import job, never started: its failed lines are an empty list. */
const newImport = async (client: TenantClient): Promise<string> =>
  (await client.post('/import', undefined)).body.id;

let foreign: { ticket: string; customer: string };
beforeAll(async () => {
  const other = await tenantWithTicket();
  foreign = { ticket: other.ticket, customer: other.customer };
});

describe('a client pinned to the deskero profile', () => {
  let tenant: Tenant;
  let api: TenantClient;
  let customer: string;
  let ticket: string;
  beforeAll(async () => {
    ({ tenant, api, customer, ticket } = await tenantWithTicket('deskero'));
  });

  it('answers the Magento lookup of an unknown shopper with 204 and an empty body', async () => {
    expectNoContent(await api.get(`/customer/list?email=${UNKNOWN_EMAIL}`), 'email');
    expectNoContent(await api.get(`/customer/list?page=1&email=${UNKNOWN_EMAIL}`), 'page=1&email');
    // A known shopper is the page it always was.
    const known = await api.get('/customer/list?page=1&email=ada@example.com');
    expect(known.status).toBe(200);
    expect(known.body.customer).toMatchObject({ totalRecords: 1, records: [{ id: customer }] });
  });

  it('answers a detail of an unknown, malformed or foreign id with 204 on every detail route', async () => {
    for (const base of DETAILS) {
      for (const id of [UNKNOWN_ID, 'nope']) expectNoContent(await api.get(`${base}/${id}`), `${base}/${id}`);
    }
    expectNoContent(await api.get(`/customer/${foreign.customer}`), 'foreign customer');
    expectNoContent(await api.get(`/ticket/${foreign.ticket}`), 'foreign ticket');
    expect((await api.get(`/customer/${customer}`)).status).toBe(200);
  });

  it('keeps 404 for every other operation on an unknown id, the photo and the attachment routes', async () => {
    expectNotFound(await api.put(`/customer/update/${UNKNOWN_ID}`, { name: 'x' }), 'update');
    expectNotFound(await api.del(`/customer/delete/${UNKNOWN_ID}`), 'delete');
    expectNotFound(await api.put(`/ticket/reply/${UNKNOWN_ID}`, { text: 'x' }), 'reply');
    expectNotFound(await api.get(`/ticket/${UNKNOWN_ID}/replies`), 'replies of an unknown ticket');
    expectNotFound(await api.get(`/customer/photo/${UNKNOWN_ID}`), 'photo of an unknown customer');
    expectNotFound(await api.get(`/customer/photo/${customer}`), 'no photo');
    expectNotFound(await api.get(`/ticket/${ticket}/attachment/${UNKNOWN_ID}`), 'attachment');
  });

  it('reads a ticket on hold as "onhold" in its detail and in list records, and takes both spellings', async () => {
    const onhold = { status: 'onhold', labels: expect.objectContaining({ en: 'On hold' }) };
    const detail = await api.get(`/ticket/${ticket}`);
    expect(detail.status).toBe(200);
    expect(detail.body.status).toEqual(onhold);
    expect(JSON.stringify(detail.body)).toContain('"status":"onhold"');
    for (const query of ['', '?status=onhold', '?status=on%20hold']) {
      const page = (await api.get(`/ticket/list${query}`)).body.ticket;
      expect(page.records, query).toEqual([expect.objectContaining({ id: ticket, status: onhold })]);
    }
    for (const status of ['opened', 'onhold', { status: 'on hold' }]) {
      expect((await api.put(`/ticket/update/${ticket}`, { status })).status).toBe(200);
    }
    expect((await api.get(`/ticket/${ticket}`)).body.status.status).toBe('onhold');
  });

  it('accepts and ignores limit on every list route: pages stay 25', async () => {
    expect((await api.get('/ticket/list?limit=1000')).status).toBe(200);
    const own = await newTenant(undefined, { compat: 'deskero' });
    const many = clientFor(own);
    const shopper = await many.create('/customer/insert', { name: 'B', email: 'b@example.com' });
    await seedTickets(
      own.clientId,
      Array.from({ length: 30 }, (_, i) => ({
        subject: `t${i}`,
        description: 'd',
        openedBy: { id: shopper },
      })),
    );
    const page = await many.get('/ticket/list?limit=1000');
    expect(page.status).toBe(200);
    expect(page.body.ticket).toMatchObject({ totalRecords: 30, recordsPerPage: 25 });
    expect(page.body.ticket.records).toHaveLength(25);
    expect(page.body.ticket.nextQuery).not.toContain('limit');
    expect((await many.get('/ticket/list?status=opened&limit=1')).body.ticket.records).toHaveLength(25);
    for (const path of listPaths(ticket, await newWebhook(api), customer, await newImport(api))) {
      expect([200, 204], path).toContain((await api.get(withQuery(path, 'limit=1000'))).status);
    }
  });

  it('answers a list or search that matches nothing with 204 on every list route', async () => {
    const { api: fresh, ticket: bare, customer: one } = await tenantWithTicket('deskero');
    const searches: Record<string, string> = {
      '/ticket/list': 'status=closed',
      '/customer/list': `email=${UNKNOWN_EMAIL}`,
      '/ticketType/list': 'type=nothing',
      // The tenant's one webhook has no deliveries; past the last page of the list, nothing.
      '/webhook/list': 'page=2',
      // A record's history has at least its creation: past its last page, nothing.
      [`/ticket/${bare}/history`]: 'page=2',
      [`/customer/${one}/history`]: 'page=2',
    };
    const paths = listPaths(bare, await newWebhook(fresh), one, await newImport(fresh));
    expect(paths).toHaveLength(17);
    for (const path of paths) {
      const search = searches[path];
      expectNoContent(await fresh.get(search ? withQuery(path, search) : path), path);
    }
    // Past the last page of a list with records: nothing there either.
    expectNoContent(await fresh.get('/ticket/list?page=2'), 'page 2');
    expect((await fresh.get('/ticket/list?tags=none&limit=5')).status).toBe(204);
  });

  it('answers everything else exactly as standard does', async () => {
    await api.put(`/ticket/update/${ticket}`, { status: 'opened' });
    await api.put(`/ticket/reply/${ticket}`, { text: 'hello' });
    for (const path of [
      `/ticket/${ticket}`,
      '/ticket/list',
      `/ticket/${ticket}/replies`,
      `/customer/${customer}`,
      '/customer/list',
      '/ticketType/list',
    ]) {
      const deskero = await api.get(path);
      const standard = await invoke('GET', path, {
        headers: { ...tenant.headers, [COMPAT_HEADER]: 'standard' },
      });
      expect(deskero.status, path).toBe(200);
      expect(deskero.body, path).toEqual(standard.body);
      expect(deskero.headers.etag, path).toEqual(standard.headers.etag);
    }
    const invalid = await api.post('/customer/insert', { name: 'x', email: 'not-an-email' });
    expect(invalid.status).toBe(400);
  });
});

describe('a client on the standard profile (the default)', () => {
  let api: TenantClient;
  let ticket: string;
  let customer: string;
  beforeAll(async () => {
    ({ api, ticket, customer } = await tenantWithTicket());
  });

  it("gets today's answers: an empty page, 404, 'on hold', and limit refused as an unknown search field", async () => {
    for (const path of [
      `/customer/list?email=${UNKNOWN_EMAIL}`,
      `/customer/list?page=1&email=${UNKNOWN_EMAIL}`,
    ]) {
      const res = await api.get(path);
      expect(res.status, path).toBe(200);
      expect(res.body.customer, path).toMatchObject({ totalRecords: 0, records: [], nextQuery: null });
    }
    for (const base of DETAILS) expectNotFound(await api.get(`${base}/${UNKNOWN_ID}`), base);
    expectNotFound(await api.get(`/ticket/${foreign.ticket}`), 'foreign ticket');
    expect((await api.get(`/ticket/${ticket}`)).body.status.status).toBe('on hold');
    expect((await api.get('/ticket/list')).body.ticket.records[0].status.status).toBe('on hold');
    for (const path of listPaths(ticket, UNKNOWN_ID, customer, UNKNOWN_ID)) {
      const res = await api.get(withQuery(path, 'limit=1000'));
      expect(res.status, path).toBe(400);
      expect(res.body.errors, path).toEqual([{ path: 'limit', message: 'unknown field' }]);
    }
    const empty = await api.get('/agent/list');
    expect(empty.status).toBe(200);
    expect(empty.body.agent).toMatchObject({ totalRecords: 0, records: [] });
  });
});

describe('the Helpdesk-Compat header', () => {
  it("overrides the client's profile for one request, both ways", async () => {
    const standard = await newTenant();
    const deskero = await newTenant(undefined, { compat: 'deskero' });
    const get = (tenant: Tenant, header?: string) =>
      invoke('GET', `/customer/list?email=${UNKNOWN_EMAIL}`, {
        headers: { ...tenant.headers, ...(header === undefined ? {} : { [COMPAT_HEADER]: header }) },
      });
    expectNoContent(await get(standard, 'deskero'), 'standard client, deskero header');
    expectNoContent(await get(standard, ' Deskero '), 'any case, blanks around');
    expect((await get(standard)).status).toBe(200);
    expect((await get(deskero, 'standard')).body.customer).toMatchObject({ totalRecords: 0, records: [] });
    expectNoContent(await get(deskero), 'deskero client, no header');
    const detail = await invoke('GET', `/customer/${UNKNOWN_ID}`, {
      headers: { ...standard.headers, 'helpdesk-compat': 'deskero' },
    });
    expectNoContent(detail, 'header name in lower case');
  });

  it('answers a value naming no profile with a 400 that names the header, after authentication', async () => {
    const tenant = await newTenant();
    for (const value of ['legacy', '', 'deskero, standard', 'standard2']) {
      const res = await invoke('GET', '/customer/list', {
        headers: { ...tenant.headers, [COMPAT_HEADER]: value },
      });
      expect(res.status, value).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body, value).toMatchObject({
        type: 'urn:helpdesk:problem:bad-request',
        detail: `The ${COMPAT_HEADER} header must be one of standard, deskero.`,
        errors: [{ path: COMPAT_HEADER, message: 'must be one of standard, deskero' }],
      });
    }
    const write = await invoke('POST', '/customer/insert', {
      headers: { ...tenant.headers, [COMPAT_HEADER]: 'legacy' },
      body: { name: 'x', email: 'x@example.com' },
    });
    expect(write.status).toBe(400);
    expect((await clientFor(tenant).get('/customer/list')).body.customer.totalRecords).toBe(0);
    // Credentials first: an anonymous caller learns nothing about the header.
    expect((await invoke('GET', '/customer/list', { headers: { [COMPAT_HEADER]: 'legacy' } })).status).toBe(
      401,
    );
    // The token route has no client yet and answers the same under every profile.
    const token = await invoke('GET', '/oauth/token?grant_type=client_credentials', {
      headers: { authorization: `Basic ${tenant.apiToken}`, [COMPAT_HEADER]: 'legacy' },
    });
    expect(token.status).toBe(200);
  });
});
