import { beforeEach, describe, expect, it } from 'vitest';
import { invoke, newTenant, type Tenant } from '../helpers/api';
import { clientFor, type TenantClient } from '../helpers/tenant-client';

let tenant: Tenant;
let send: TenantClient['send'];
beforeEach(async () => {
  tenant = await newTenant();
  send = clientFor(tenant).send;
});

const FULL = {
  name: 'Ada Lovelace',
  email: 'Ada@Example.com',
  birthDate: -4_857_552_000_000,
  phoneNumber: '+44 20 7946 0000',
  faxNumber: '+44 20 7946 0001',
  mobileNumber: '+44 7700 900000',
  address: '12 St James Square',
  city: 'London',
  province: null,
  state: 'gb',
  postalNumber: 'SW1Y 4JH',
  skypeAddress: 'ada.skype',
  msnAddress: null,
  gtalkAddress: null,
  twitterAccountUrl: 'https://twitter.com/ada',
  facebookAccountUrl: null,
  linkedinAccountUrl: null,
  googleAccountUrl: null,
  youtubeAccountUrl: null,
  registrationChannel: 'web',
  topClient: true,
  profilePhotoBlob: null,
  signature: 'Ada',
  memo: 'first programmer',
  website: 'https://ada.example.com',
  company: 'Analytical Engines',
  language: 'it',
  account: { username: 'ada', password: 'correct horse battery' },
  insertByAgentId: null,
  customFields: { tier: 'gold', seats: 3 },
};

describe('customer insert and detail', () => {
  it('stores every seed field and returns it exactly', async () => {
    const created = await send('POST', '/customer/insert', FULL);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const id = created.body.id;

    const detail = await send('GET', `/customer/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({
      ...FULL,
      id,
      state: 'GB',
      account: { username: 'ada' },
      profilePhotoUrl: expect.stringMatching(new RegExp(`^https?://[^/]+/customer/photo/${id}$`)),
      profilePhotoBlob: null,
    });
    expect(Object.keys(detail.body)).toHaveLength(32);
    expect(JSON.stringify(detail.body)).not.toContain('correct horse');
  });

  it('fills every absent field with null and applies defaults', async () => {
    const { body } = await send('POST', '/customer/insert', { name: 'Bob', email: 'bob@example.com' });
    const detail = await send('GET', `/customer/${body.id}`);
    const expected = Object.fromEntries(Object.keys(FULL).map((k) => [k, null]));
    expect(detail.body).toEqual({
      ...expected,
      id: body.id,
      name: 'Bob',
      email: 'bob@example.com',
      topClient: false,
      language: 'en',
      profilePhotoUrl: expect.stringMatching(new RegExp(`/customer/photo/${body.id}$`)),
    });
  });

  it('ignores server-owned and unknown fields', async () => {
    const { body } = await send('POST', '/customer/insert', {
      name: 'Eve',
      email: 'eve@example.com',
      id: 'ffffffffffffffffffffffff',
      profilePhotoUrl: 'https://evil.example.com/x.png',
      somethingElse: 1,
    });
    const detail = await send('GET', `/customer/${body.id}`);
    expect(body.id).not.toBe('ffffffffffffffffffffffff');
    expect(detail.body.profilePhotoUrl).not.toContain('evil');
    expect(detail.body).not.toHaveProperty('somethingElse');
  });

  it('requires name and email and validates every field, writing nothing', async () => {
    const cases: [unknown, string[]][] = [
      [{}, ['name', 'email']],
      [{ name: 'x' }, ['email']],
      [{ name: '', email: 'a@b.co' }, ['name']],
      [{ name: 'x', email: 'not-an-email' }, ['email']],
      [{ name: 'x', email: 'a@b.co', language: 'de' }, ['language']],
      [{ name: 'x', email: 'a@b.co', state: 'XX' }, ['state']],
      [{ name: 'x', email: 'a@b.co', state: 'GBR' }, ['state']],
      [{ name: 'x', email: 'a@b.co', birthDate: '1990-01-01' }, ['birthDate']],
      [{ name: 'x', email: 'a@b.co', birthDate: 1.5 }, ['birthDate']],
      [{ name: 'x', email: 'a@b.co', topClient: 'yes' }, ['topClient']],
      [{ name: 'x', email: 'a@b.co', insertByAgentId: 5 }, ['insertByAgentId']],
      [{ name: 'x'.repeat(201), email: 'a@b.co' }, ['name']],
      [{ name: 'x', email: 'a@b.co', account: { password: 'short' } }, ['account.password']],
      [{ name: 'x', email: 'a@b.co', customFields: [1, 2] }, ['customFields']],
      [{ name: 'x', email: 'a@b.co', profilePhotoBlob: 'not a photo!' }, ['profilePhotoBlob']],
    ];
    for (const [body, paths] of cases) {
      const res = await send('POST', '/customer/insert', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.type).toBe('urn:helpdesk:problem:validation-error');
      expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([...paths].sort());
    }
    const list = await send('GET', '/customer/list');
    expect(list.body.customer.totalRecords).toBe(0);
    expect(list.body.customer.records).toEqual([]);
  });

  it('rejects non-object bodies, malformed JSON and non-JSON content types', async () => {
    for (const body of ['[]', '"text"', '42', 'null']) {
      const res = await send('POST', '/customer/insert', body);
      expect(res.status, body).toBe(400);
    }
    const malformed = await send('POST', '/customer/insert', '{"name": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.type).toBe('urn:helpdesk:problem:malformed-json');
    const wrongType = await invoke('POST', '/customer/insert', {
      headers: { ...tenant.headers, 'content-type': 'text/plain' },
      body: '{"name":"x","email":"a@b.co"}',
    });
    expect(wrongType.status).toBe(415);
  });

  it('answers a body over the route limit (3 MB: room for a photo) with 413 and writes nothing', async () => {
    const res = await send('POST', '/customer/insert', {
      name: 'x',
      email: 'big@example.com',
      memo: 'm'.repeat(3_100_000),
    });
    expect(res.status).toBe(413);
    expect(res.body.type).toBe('urn:helpdesk:problem:content-too-large');
    expect((await send('GET', '/customer/list')).body.customer.totalRecords).toBe(0);
  });

  it('names a missing agent reference with a 400 and writes nothing', async () => {
    const res = await send('POST', '/customer/insert', {
      name: 'x',
      email: 'x@example.com',
      insertByAgentId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
    });
    expect(res.status).toBe(400);
    expect(res.body.type).toBe('urn:helpdesk:problem:invalid-reference');
    expect(res.body.errors).toEqual([
      { path: 'insertByAgentId', message: expect.stringContaining('aaaaaaaaaaaa') },
    ]);
    expect((await send('GET', '/customer/list')).body.customer.totalRecords).toBe(0);

    const agent = await send('POST', '/agent/insert', { name: 'Agent', email: 'agent@example.com' });
    const ok = await send('POST', '/customer/insert', {
      name: 'x',
      email: 'x@example.com',
      insertByAgentId: agent.body.id,
    });
    expect(ok.status).toBe(201);
  });

  it('keeps e-mails unique per tenant, case-insensitively, with a 409', async () => {
    expect((await send('POST', '/customer/insert', { name: 'a', email: 'same@example.com' })).status).toBe(
      201,
    );
    const dup = await send('POST', '/customer/insert', { name: 'b', email: 'SAME@example.com' });
    expect(dup.status).toBe(409);
    expect(dup.body.type).toBe('urn:helpdesk:problem:duplicate-email');
    expect((await send('GET', '/customer/list')).body.customer.totalRecords).toBe(1);

    const other = await newTenant();
    const elsewhere = await invoke('POST', '/customer/insert', {
      headers: { ...other.headers, 'content-type': 'application/json' },
      body: { name: 'c', email: 'same@example.com' },
    });
    expect(elsewhere.status).toBe(201);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['aaaaaaaaaaaaaaaaaaaaaaaa', 'nope', '..%2F..', 'AAAAAAAAAAAAAAAAAAAAAAAA']) {
      const res = await send('GET', `/customer/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.type).toBe('urn:helpdesk:problem:not-found');
    }
  });
});

describe('customer update', () => {
  it('changes only the fields sent and clears fields sent as null', async () => {
    const { body } = await send('POST', '/customer/insert', FULL);
    const res = await send('PUT', `/customer/update/${body.id}`, {
      name: 'Ada King',
      email: 'ada@example.com',
      city: null,
      customFields: null,
      account: { username: 'ada.king' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: body.id });
    const detail = (await send('GET', `/customer/${body.id}`)).body;
    expect(detail).toMatchObject({
      name: 'Ada King',
      email: 'ada@example.com',
      city: null,
      customFields: null,
      account: { username: 'ada.king' },
      company: 'Analytical Engines',
      state: 'GB',
      topClient: true,
      language: 'it',
    });
  });

  it('moves the e-mail guard: the old address is free again, a taken one is a 409', async () => {
    const a = (await send('POST', '/customer/insert', { name: 'a', email: 'a@example.com' })).body.id;
    await send('POST', '/customer/insert', { name: 'b', email: 'b@example.com' });
    expect((await send('PUT', `/customer/update/${a}`, { email: 'b@example.com' })).status).toBe(409);
    expect((await send('GET', `/customer/${a}`)).body.email).toBe('a@example.com');
    expect((await send('PUT', `/customer/update/${a}`, { email: 'c@example.com' })).status).toBe(200);
    expect((await send('POST', '/customer/insert', { name: 'd', email: 'a@example.com' })).status).toBe(201);
  });

  it('rejects invalid fields and null for required ones, changing nothing', async () => {
    const { body } = await send('POST', '/customer/insert', { name: 'a', email: 'a@example.com' });
    for (const patch of [
      { name: null },
      { email: null },
      { language: 'xx' },
      { topClient: null },
      { email: 'bad' },
    ]) {
      expect((await send('PUT', `/customer/update/${body.id}`, patch)).status, JSON.stringify(patch)).toBe(
        400,
      );
    }
    expect((await send('GET', `/customer/${body.id}`)).body).toMatchObject({
      name: 'a',
      email: 'a@example.com',
    });
  });

  it('404s on an unknown id', async () => {
    const res = await send('PUT', '/customer/update/aaaaaaaaaaaaaaaaaaaaaaaa', { name: 'x' });
    expect(res.status).toBe(404);
  });
});

describe('customer delete', () => {
  it('deletes, frees the e-mail, moves the count and then 404s', async () => {
    const { body } = await send('POST', '/customer/insert', { name: 'a', email: 'a@example.com' });
    const res = await send('DELETE', `/customer/delete/${body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: body.id });
    expect((await send('GET', `/customer/${body.id}`)).status).toBe(404);
    expect((await send('DELETE', `/customer/delete/${body.id}`)).status).toBe(404);
    expect((await send('GET', '/customer/list')).body.customer.totalRecords).toBe(0);
    expect((await send('GET', '/customer/list?email=a@example.com')).body.customer.totalRecords).toBe(0);
    expect((await send('POST', '/customer/insert', { name: 'a', email: 'a@example.com' })).status).toBe(201);
  });

  it('ignores a Content-Type header on DELETE without a body, as Deskero clients send it', async () => {
    const { body } = await send('POST', '/customer/insert', { name: 'a', email: 'a@example.com' });
    const res = await invoke('DELETE', `/customer/delete/${body.id}`, {
      headers: { ...tenant.headers, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
  });
});
