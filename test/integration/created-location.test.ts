import { describe, expect, it } from 'vitest';
import { invoke } from '../../local/invoke';
import { newTenant } from '../helpers/api';
import { openLocalPort } from '../helpers/webhook-receiver';

/**
 * A 201 says where the created resource is (`Location`, absolute) and, for a record, the version
 * the write made (`ETag: "1"`), on the first answer and on its replay: a client reads the record
 * at that address and updates exactly that version without reading first.
 */
// A receiver's address the webhook insert accepts (test/helpers/env.ts allows local http on named ports).
const RECEIVER_PORT = 9;
openLocalPort(RECEIVER_PORT);

describe('201 Created', () => {
  const as = async () => {
    const tenant = await newTenant();
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      invoke(method, path.replace(/^https?:\/\/[^/]+/, ''), {
        headers: {
          ...tenant.headers,
          ...headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body }),
      });
    return call;
  };

  it('answers Location and ETag on every record insert; the ETag is the version an If-Match update needs', async () => {
    const call = await as();
    const customer = await call('POST', '/customer/insert', { name: 'Ada', email: 'ada@example.com' });
    const inserts: [string, unknown][] = [
      ['/customer/insert', { name: 'Grace', email: 'grace@example.com' }],
      ['/agent/insert', { name: 'Alan', email: 'alan@example.com' }],
      ['/ticketType/insert', { type: 'billing' }],
      ['/ticketArea/insert', { area: 'north' }],
      ['/ticketGroup/insert', { group: 'tier 2' }],
      ['/ticket/insert', { subject: 's', description: 'd', openedBy: { id: customer.body.id } }],
      ['/webhook/insert', { url: `http://127.0.0.1:${RECEIVER_PORT}/hook` }],
    ];
    for (const [path, body] of [['/customer/insert', null] as const, ...inserts]) {
      const res = path === '/customer/insert' && body === null ? customer : await call('POST', path, body);
      expect(res.status, path).toBe(201);
      const resource = path.split('/')[1];
      expect(res.headers.location, path).toBe(`http://localhost/${resource}/${res.body.id}`);
      expect(res.headers.etag, path).toBe('"1"');
      const read = await call('GET', res.headers.location as string);
      expect([read.status, read.headers.etag], path).toEqual([200, '"1"']);
    }
    // The ETag of the insert is the version: an update naming it applies, a second one is stale.
    const id = customer.body.id as string;
    const first = await call('PUT', `/customer/update/${id}`, { company: 'Engines' }, { 'if-match': '"1"' });
    expect(first.status).toBe(200);
    const second = await call('PUT', `/customer/update/${id}`, { company: 'Looms' }, { 'if-match': '"1"' });
    expect(second.status).toBe(412);
  });

  it('carries them on a replay, and on an import job and an upload (Location only: not records)', async () => {
    const call = await as();
    const key = { 'idempotency-key': 'created-location-1' };
    const first = await call('POST', '/customer/insert', { name: 'Ada', email: 'ada@example.com' }, key);
    const again = await call('POST', '/customer/insert', { name: 'Ada', email: 'ada@example.com' }, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect([again.headers.location, again.headers.etag]).toEqual([first.headers.location, '"1"']);

    const job = await call('POST', '/import', {});
    expect(job.status).toBe(201);
    expect(job.headers.location).toBe(`http://localhost/import/${job.body.id}`);
    expect(job.headers.etag).toBeUndefined();
    expect((await call('GET', job.headers.location as string)).status).toBe(200);

    const upload = await call('POST', '/ticket/attachment/upload', {
      documentName: 'a.txt',
      documentType: 'text/plain',
    });
    expect(upload.status).toBe(201);
    expect(upload.headers.location).toBe(upload.body.uploadUrl);
    expect(upload.headers.etag).toBeUndefined();
  });
});
