import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config';
import { db, tableName } from '../../shared/store/dynamo';
import { keys } from '../../shared/store/keys';
import { newTenant, type Tenant } from '../helpers/api';
import { clientFor, type TenantClient } from '../helpers/tenant-client';
import { openLocalPort } from '../helpers/webhook-receiver';

/**
 * Webhook subscriptions (`/webhook/*`): a record resource whose secret is shown once (the
 * insert's answer), whose URL must be a public https receiver, and whose writes are no events
 * of the change feed.
 */
let tenant: Tenant;
let api: TenantClient;
beforeEach(async () => {
  tenant = await newTenant();
  api = clientFor(tenant);
});

const RECEIVER = 'https://1.1.1.1/hooks/helpdesk';

const fieldErrors = (res: { status: number; body: { errors?: { path: string }[] } }) => {
  expect(res.status).toBe(400);
  return res.body.errors?.map((e) => e.path);
};

/**
 * Each URL is refused at insert (400 naming `url`, the detail matching `why`) and as the new URL
 * of a subscription to `valid`, which keeps its URL.
 */
const expectRefused = async (urls: string[], why: RegExp, valid: string) => {
  for (const url of urls) {
    const res = await api.post('/webhook/insert', { url });
    expect(fieldErrors(res), url).toEqual(['url']);
    expect(res.body.detail, url).toMatch(why);
  }
  const id = (await api.post('/webhook/insert', { url: valid })).body.id;
  expect(id).toEqual(expect.any(String));
  for (const url of urls)
    expect(fieldErrors(await api.put(`/webhook/update/${id}`, { url })), url).toEqual(['url']);
  expect((await api.get(`/webhook/${id}`)).body.url).toBe(valid);
};

describe('/webhook', () => {
  it('inserts (secret answered once), reads, lists, updates (merge) and deletes', async () => {
    const created = await api.post('/webhook/insert', { url: RECEIVER, description: 'CRM sync' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), secret: expect.any(String) });
    const { id, secret } = created.body;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);

    const detail = await api.get(`/webhook/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({
      id,
      url: RECEIVER,
      types: [],
      enabled: true,
      description: 'CRM sync',
      createdAt: expect.any(Number),
      disabledReason: null,
    });
    expect(JSON.stringify(detail.body)).not.toContain(secret);

    const list = await api.get('/webhook/list');
    expect(list.status).toBe(200);
    expect(list.body.webhook).toMatchObject({ totalRecords: 1, nextQuery: null, records: [detail.body] });
    expect(JSON.stringify(list.body)).not.toContain(secret);

    const updated = await api.put(`/webhook/update/${id}`, {
      types: ['ticket.replied', 'ticket.created', 'ticket.replied'],
      secret: 'whsec_AAAA',
    });
    expect(updated.body).toEqual({ id });
    const after = (await api.get(`/webhook/${id}`)).body;
    expect(after).toEqual({ ...detail.body, types: ['ticket.created', 'ticket.replied'] });

    expect((await api.put(`/webhook/update/${id}`, { description: null, enabled: false })).status).toBe(200);
    expect((await api.get(`/webhook/${id}`)).body).toMatchObject({
      description: null,
      enabled: false,
      url: RECEIVER,
    });

    expect((await api.del(`/webhook/delete/${id}`)).body).toEqual({ id });
    expect((await api.get(`/webhook/${id}`)).status).toBe(404);
    expect((await api.get('/webhook/list')).body.webhook).toMatchObject({ totalRecords: 0, records: [] });
  });

  it('re-enables, with an update setting enabled, a subscription disabled after failures', async () => {
    const id = (await api.post('/webhook/insert', { url: RECEIVER, enabled: true })).body.id;
    // What the delivery pipeline does after persistent failure.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.record(tenant.clientId, 'WEBHOOK', id),
        UpdateExpression: 'SET enabled = :off, disabledReason = :why',
        ExpressionAttributeValues: { ':off': false, ':why': 'failed for 24 h: answered 500' },
      }),
    );
    expect((await api.get(`/webhook/${id}`)).body).toMatchObject({
      enabled: false,
      disabledReason: 'failed for 24 h: answered 500',
    });
    // Other changes keep it disabled, with its reason.
    await api.put(`/webhook/update/${id}`, { description: 'fixed the receiver' });
    expect((await api.get(`/webhook/${id}`)).body).toMatchObject({
      enabled: false,
      disabledReason: expect.any(String),
    });
    expect((await api.put(`/webhook/update/${id}`, { enabled: true })).status).toBe(200);
    expect((await api.get(`/webhook/${id}`)).body).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('refuses bodies that are not a public https receiver, naming the field (400)', async () => {
    expect(fieldErrors(await api.post('/webhook/insert', {}))).toEqual(['url']);
    expect(fieldErrors(await api.post('/webhook/insert', { url: 'not a url' }))).toEqual(['url']);
    expect(
      fieldErrors(await api.post('/webhook/insert', { url: RECEIVER, types: ['ticket.exploded'] })),
    ).toEqual(['types.0']);
    expect(fieldErrors(await api.post('/webhook/insert', { url: RECEIVER, enabled: 'yes' }))).toEqual([
      'enabled',
    ]);
    for (const url of [
      'https://10.0.0.1/x',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::ffff:192.168.0.1]/x',
      'https://[fd00::1]/x',
      'http://1.1.1.1/x',
      'ftp://1.1.1.1/x',
      'https://user:pass@1.1.1.1/x',
      'https://no-such-host.invalid/x',
    ]) {
      const res = await api.post('/webhook/insert', { url });
      expect(fieldErrors(res), url).toEqual(['url']);
      expect(res.body.detail).toMatch(/^The webhook URL /);
    }
    const id = (await api.post('/webhook/insert', { url: RECEIVER })).body.id;
    expect(fieldErrors(await api.put(`/webhook/update/${id}`, { url: 'https://10.0.0.1/x' }))).toEqual([
      'url',
    ]);
    expect(fieldErrors(await api.put(`/webhook/update/${id}`, { url: 'https://[fe80::1]/x' }))).toEqual([
      'url',
    ]);
    // A bad URL is a 400 even for an unknown id.
    expect(
      fieldErrors(await api.put('/webhook/update/0123456789abcdef01234567', { url: 'https://10.0.0.1/' })),
    ).toEqual(['url']);
    expect((await api.get(`/webhook/${id}`)).body.url).toBe(RECEIVER);
    expect((await api.get('/webhook/list')).body.webhook.totalRecords).toBe(1);
  });

  it('refuses every IPv6 form outside global unicast, e.g. IPv4-translated ::ffff:0:a.b.c.d (insert and update, 400 naming url)', async () => {
    const hostile = [
      'https://[::ffff:0:169.254.169.254]/latest/meta-data/',
      'https://[::ffff:0:127.0.0.1]/x',
      'https://[::ffff:0:10.0.0.1]/x',
      'https://[::ffff:0:a9fe:a9fe]/x',
      'https://[0:0:0:0:ffff:0:7f00:1]/x',
      'https://[::ffff:0:0:a00:1]/x',
      'https://[::ffff:0:8.8.8.8]/x',
      'https://[64:ff9b::8.8.8.8]/x',
      'https://[64:ff9b:1:a9fe:a9:fe00::]/x',
      'https://[2002:a9fe:a9fe::1]/x',
      'https://[2001:0:a9fe:a9fe::1]/x',
      'https://[4000::1]/x',
      'https://[3fff::1]/x',
    ];
    await expectRefused(
      hostile,
      /^The webhook URL its host resolves to /,
      'https://[2606:4700:4700::1111]/hooks',
    );
    expect((await api.get('/webhook/list')).body.webhook.totalRecords).toBe(1);
  });

  describe('without WEBHOOK_ALLOW_LOCAL_HTTP (as in AWS)', () => {
    beforeEach(() => {
      process.env.WEBHOOK_ALLOW_LOCAL_HTTP = 'false';
      resetConfig();
    });
    afterEach(() => {
      process.env.WEBHOOK_ALLOW_LOCAL_HTTP = 'true';
      resetConfig();
    });

    it('refuses localhost, over https or http', async () => {
      for (const url of [
        'https://localhost/x',
        'http://localhost:8080/x',
        'http://127.0.0.1:8080/x',
        'https://[::1]/x',
      ])
        expect(fieldErrors(await api.post('/webhook/insert', { url })), url).toEqual(['url']);
    });
  });

  it('accepts local receivers over http in local mode (the tests, npm start)', async () => {
    openLocalPort(8080);
    expect((await api.post('/webhook/insert', { url: 'http://localhost:8080/x' })).status).toBe(201);
    expect((await api.post('/webhook/insert', { url: 'http://127.0.0.1:8080/x' })).status).toBe(201);
    expect(fieldErrors(await api.post('/webhook/insert', { url: 'http://10.0.0.1:8080/x' }))).toEqual([
      'url',
    ]);
  });

  it('refuses a local receiver on a port WEBHOOK_LOCAL_PORTS does not name, and on the S3 server’s and DynamoDB Local’s even when named (insert and update, 400 naming url)', async () => {
    const s3 = Number(new URL(String(process.env.S3_ENDPOINT)).port);
    const dynamo = Number(new URL(String(process.env.DYNAMODB_ENDPOINT)).port);
    for (const port of [8080, s3, dynamo]) openLocalPort(port);
    const refused = [
      `http://127.0.0.1:${s3}/${process.env.BUCKET_NAME}`,
      `http://localhost:${s3}/`,
      `http://[::1]:${dynamo}/`,
      `http://localhost:${dynamo}/`,
      'http://localhost:8081/x',
      'http://localhost/x',
      'https://localhost/x',
    ];
    await expectRefused(refused, /port/, 'http://localhost:8080/x');
  });

  it('keeps tenants apart: another tenant reads, changes and deletes nothing (404) and lists none', async () => {
    const id = (await api.post('/webhook/insert', { url: RECEIVER })).body.id;
    const other = clientFor(await newTenant());
    expect((await other.get(`/webhook/${id}`)).status).toBe(404);
    expect((await other.put(`/webhook/update/${id}`, { enabled: false })).status).toBe(404);
    expect((await other.del(`/webhook/delete/${id}`)).status).toBe(404);
    expect((await other.get('/webhook/list')).body.webhook).toMatchObject({ totalRecords: 0, records: [] });
    expect((await api.get(`/webhook/${id}`)).body).toMatchObject({ id, enabled: true });
  });

  it('writes no change-feed events', async () => {
    const id = (await api.post('/webhook/insert', { url: RECEIVER })).body.id;
    await api.put(`/webhook/update/${id}`, { enabled: false });
    await api.del(`/webhook/delete/${id}`);
    await api.create('/agent/insert', { name: 'Ada', email: 'ada@example.com' });
    await new Promise((resolve) => setTimeout(resolve, 250)); // the feed's lag in the tests (100 ms)
    const feed = (await api.get('/event/list')).body.event;
    // Only the client's seeded ticket types (created with it) and the agent.
    expect(feed.records.map((e: { type: string }) => e.type)).toEqual([
      ...Array(4).fill('ticket_type.created'),
      'agent.created',
    ]);
  });

  it('caps a tenant at 10 subscriptions (409 webhook-limit, nothing written), exactly, under concurrent inserts', async () => {
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, n) => api.post('/webhook/insert', { url: `${RECEIVER}/${n}` })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(5);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.type).toBe('urn:helpdesk:problem:webhook-limit');
    }
    const list = (await api.get('/webhook/list')).body.webhook;
    expect(list.totalRecords).toBe(10);
    expect(list.records).toHaveLength(10);
    // Room again once one is deleted.
    expect((await api.del(`/webhook/delete/${list.records[0].id}`)).status).toBe(200);
    expect((await api.post('/webhook/insert', { url: RECEIVER })).status).toBe(201);
    expect((await api.post('/webhook/insert', { url: RECEIVER })).status).toBe(409);
  });
});
