import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config';
import { drainCascades } from '../../shared/domain/cascades';
import { renderExport } from '../../shared/http/views/customer-export';
import { pendingCascades } from '../../shared/store/cascades';
import { resetDb } from '../../shared/store/dynamo';
import { invoke, newTenant, type Tenant } from '../helpers/api';
import { interceptS3, listObjects } from '../helpers/bucket';
import { collectionItems, finishCascades } from '../helpers/cascades';
import { png } from '../helpers/images';
import { type StallProxy, startStallProxy } from '../helpers/stall-proxy';
import { clientFor, type TenantClient } from '../helpers/tenant-client';

/**
 * The store stalls past the deadline and comes back; S3 goes away mid-request. In every case
 * the answer matches what was actually stored: 503 only when nothing was written, 504
 * `outcome-unknown` when a write may still land, and a retry with the same Idempotency-Key
 * never applies it twice.
 */
const TIMEOUT_MS = 3000;
let proxy: StallProxy;
let realEndpoint: string | undefined;
let tenant: Tenant;
let api: TenantClient;
let customer: string;

beforeAll(async () => {
  realEndpoint = process.env.DYNAMODB_ENDPOINT;
  proxy = await startStallProxy(realEndpoint as string);
  process.env.DYNAMODB_ENDPOINT = proxy.endpoint;
  process.env.HELPDESK_TIMEOUT_MS = String(TIMEOUT_MS);
  resetConfig();
  resetDb();
});
afterAll(async () => {
  process.env.DYNAMODB_ENDPOINT = realEndpoint;
  delete process.env.HELPDESK_TIMEOUT_MS;
  resetConfig();
  resetDb();
  await proxy.close();
});
beforeEach(async () => {
  tenant = await newTenant();
  api = clientFor(tenant);
  customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
});

const withKey = (method: string, path: string, key: string, body: unknown) =>
  invoke(method, path, {
    headers: { ...tenant.headers, 'content-type': 'application/json', 'idempotency-key': key },
    body,
  });

const creates = [
  {
    name: 'ticket insert',
    send: (key: string) =>
      withKey('POST', '/ticket/insert', key, { subject: 's', description: 'd', openedBy: { id: customer } }),
    count: async () => (await api.get('/ticket/list')).body.ticket.totalRecords as number,
  },
  {
    name: 'reply',
    send: async (key: string) => {
      const ticket =
        (await api.get('/ticket/list')).body.ticket.records[0]?.id ??
        (await api.create('/ticket/insert', { subject: 's', description: 'd', openedBy: { id: customer } }));
      return withKey('PUT', `/ticket/reply/${ticket}`, key, { text: 'hello' });
    },
    count: async () => {
      const ticket = (await api.get('/ticket/list')).body.ticket.records[0]?.id;
      return ticket ? ((await api.get(`/ticket/${ticket}`)).body.numberOfReplies as number) : 0;
    },
  },
  {
    name: 'customer insert',
    send: (key: string) =>
      withKey('POST', '/customer/insert', key, { name: 'Bob', email: 'bob@example.com' }),
    count: async () => ((await api.get('/customer/list')).body.customer.totalRecords as number) - 1,
  },
];

describe('a store that stalls past the deadline', () => {
  for (const create of creates) {
    it(`${create.name}: answers 504 outcome-unknown, and a retry with the key finds the write that landed late`, async () => {
      if (create.name === 'reply') await create.send('warm-up'); // the ticket exists before the stall
      const before = await create.count();
      proxy.stall();
      const started = Date.now();
      const first = await create.send('k1');
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS);
      expect(first.status).toBe(504);
      expect(first.body.type).toBe('urn:helpdesk:problem:outcome-unknown');
      expect(first.body.detail).toMatch(/Idempotency-Key/);
      // At the deadline the invocation started nothing more.
      const seen = proxy.requests.length;
      await new Promise((r) => setTimeout(r, 300));
      expect(proxy.requests.length).toBe(seen);
      await proxy.resume(); // the held transaction reaches the store and commits
      expect(await create.count()).toBe(before + 1);
      const retry = await create.send('k1');
      expect([200, 201]).toContain(retry.status);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(await create.count()).toBe(before + 1);
    }, 30_000);
  }

  it('answers 504 when the write never lands, and the retry with the key then applies it once', async () => {
    proxy.stall();
    const first = await creates[0]?.send('k2');
    expect(first?.status).toBe(504);
    proxy.drop();
    expect(await creates[0]?.count()).toBe(0);
    const retry = await creates[0]?.send('k2');
    expect(retry?.status).toBe(201);
    expect(await creates[0]?.count()).toBe(1);
    expect((await creates[0]?.send('k2'))?.headers['idempotent-replayed']).toBe('true');
    expect(await creates[0]?.count()).toBe(1);
  }, 30_000);

  it('a retry sent while the first is still held applies once; the first, delivered later, does not', async () => {
    proxy.stallNext(1);
    const first = creates[0]?.send('k3');
    await new Promise((r) => setTimeout(r, 300)); // the first is held now
    const retry = await creates[0]?.send('k3');
    expect(retry?.status).toBe(201);
    expect((await first)?.status).toBe(504);
    await proxy.resume(); // the first reaches the store: same token, other content: refused
    expect(await creates[0]?.count()).toBe(1);
    const again = await creates[0]?.send('k3');
    expect(again?.headers['idempotent-replayed']).toBe('true');
    expect(again?.body.id).toBe(retry?.body.id);
  }, 30_000);
});

describe('S3 going away mid-request', () => {
  let restore: (() => void) | undefined;
  afterEach(() => restore?.());
  /** S3 refuses connections to the requests numbered in `refused` (1-based), or from `from` on. */
  const s3Refuses = (refused: (n: number) => boolean) => {
    let n = 0;
    restore = interceptS3(() => {
      n++;
      if (!refused(n)) return undefined;
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    });
  };
  const s3StopsAfter = (after: number) => s3Refuses((n) => n > after);
  const doc = (i: number) => ({
    documentName: `f${i}.txt`,
    documentType: 'text/plain',
    documentBase64: 'aGVsbG8=',
  });

  it('an insert whose second attachment cannot be stored answers 503 and leaves nothing', async () => {
    // S3 drops out for one of the two uploads (a refused connection is not retried) and is back
    // for the clean-up of the first.
    s3Refuses((n) => n === 2);
    const res = await api.post('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
      attachedDocuments: [doc(1), doc(2)],
    });
    restore?.();
    restore = undefined;
    expect(res.status).toBe(503);
    expect(res.body.type).toBe('urn:helpdesk:problem:unavailable');
    expect((await api.get('/ticket/list')).body.ticket.totalRecords).toBe(0);
    expect(await listObjects(`t/${tenant.clientId}/`)).toEqual([]);
  });

  it('a reply, a photo upload and read, and an upload check answer 503 with S3 away', async () => {
    const ticket = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
    });
    const photo = png(1, 1).toString('hex');
    const withPhoto = await api.create('/customer/insert', {
      name: 'P',
      email: 'p@example.com',
      profilePhotoBlob: photo,
    });
    s3StopsAfter(0);
    expect(
      (await api.put(`/ticket/reply/${ticket}`, { text: 'r', attachedDocuments: [doc(1)] })).status,
    ).toBe(503);
    expect((await api.put(`/customer/update/${customer}`, { profilePhotoBlob: photo })).status).toBe(503);
    expect((await api.get(`/customer/photo/${withPhoto}`)).status).toBe(503);
    const upload = await api.put(`/ticket/reply/${ticket}`, {
      text: 'r',
      attachedDocuments: [
        { documentName: 'big.bin', documentType: 'application/octet-stream', uploadId: 'a'.repeat(24) },
      ],
    });
    expect(upload.status).toBe(503);
    restore?.();
    restore = undefined;
    expect((await api.get(`/ticket/${ticket}`)).body.numberOfReplies).toBe(0);
  });

  it('a delete and a purge answer 200 though S3 is down; the cascade waits for S3 and then leaves nothing', async () => {
    const ticket = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
      attachedDocuments: [doc(1)],
    });
    await api.put(`/ticket/reply/${ticket}`, { text: 'r', attachedDocuments: [doc(2)] });
    const files = `t/${tenant.clientId}/ticket/${ticket}/`;
    expect(await listObjects(files)).toHaveLength(2);
    s3StopsAfter(0);
    expect((await api.del(`/ticket/delete/${ticket}`)).status).toBe(200);
    expect((await api.del(`/ticket/purge/${ticket}`)).status).toBe(200);
    expect((await api.get(`/ticket/${ticket}`)).status).toBe(404);
    expect((await api.get('/ticket/list')).body.ticket.totalRecords).toBe(0);
    // The worker cannot finish while S3 is down, however often it tries: the cascade stays.
    for (let i = 0; i < 3; i++) {
      const run = await drainCascades(renderExport, tenant.clientId);
      expect(run.finished).toBe(0);
      expect(run.failed).toHaveLength(1);
    }
    expect(await pendingCascades(tenant.clientId)).toHaveLength(1);
    restore?.();
    restore = undefined;
    expect(await listObjects(files)).toHaveLength(2);
    expect(await collectionItems(tenant.clientId, ticket)).not.toEqual([]);
    // S3 is back: the next run finishes it.
    expect(await finishCascades(tenant.clientId)).toBe(1);
    expect(await listObjects(files)).toEqual([]);
    expect(await collectionItems(tenant.clientId, ticket)).toEqual([]);
    expect((await api.del(`/ticket/purge/${ticket}`)).status).toBe(404);
  });
});
