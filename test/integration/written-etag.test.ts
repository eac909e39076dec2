import { describe, expect, it } from 'vitest';
import { invoke } from '../../local/invoke';
import { newTenant } from '../helpers/api';
import { openLocalPort } from '../helpers/webhook-receiver';

/**
 * A write that knows the version it made answers it as `ETag`, so a client chains conditional
 * writes without reading again: an update, reply or note sent with `If-Match`, and every merge and
 * unmerge. One sent without If-Match answers none (a concurrent change of other fields may land
 * beside it: the number is not known without a read). The ETag is exact under concurrency: the
 * next read's, never a version another writer made.
 */
const RECEIVER_PORT = 9;
openLocalPort(RECEIVER_PORT);

const as = async () => {
  const tenant = await newTenant();
  return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    invoke(method, path, {
      headers: {
        ...tenant.headers,
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body }),
    });
};

describe('ETag of a write', () => {
  it('chains If-Match updates on every resource without a read, and is what the next read says', async () => {
    const call = await as();
    const customer = await call('POST', '/customer/insert', { name: 'Ada', email: 'ada@example.com' });
    const cases: [string, unknown, (n: number) => unknown][] = [
      ['customer', null, (n) => ({ company: `c${n}` })],
      ['agent', { name: 'Alan', email: 'alan@example.com' }, (n) => ({ name: `Alan ${n}` })],
      ['ticketType', { type: 'billing' }, (n) => ({ type: `billing ${n}` })],
      ['ticketArea', { area: 'north' }, (n) => ({ area: `north ${n}` })],
      ['ticketGroup', { group: 'tier 2' }, (n) => ({ group: `tier ${n}` })],
      ['webhook', { url: `http://127.0.0.1:${RECEIVER_PORT}/hook` }, (n) => ({ description: `d${n}` })],
      [
        'ticket',
        { subject: 's', description: 'd', openedBy: { id: customer.body.id } },
        (n) => ({ subject: `s${n}` }),
      ],
    ];
    for (const [resource, insert, change] of cases) {
      const made = insert === null ? customer : await call('POST', `/${resource}/insert`, insert);
      const id = made.body.id as string;
      let etag = made.headers.etag as string;
      expect(etag, resource).toBe('"1"');
      for (const n of [2, 3]) {
        const res = await call('PUT', `/${resource}/update/${id}`, change(n), { 'if-match': etag });
        expect([res.status, res.headers.etag], resource).toEqual([200, `"${n}"`]);
        etag = res.headers.etag as string;
      }
      expect((await call('GET', `/${resource}/${id}`)).headers.etag, resource).toBe(etag);
      // Unconditional: it landed, and no version is claimed.
      const free = await call('PUT', `/${resource}/update/${id}`, change(9));
      expect([free.status, free.headers.etag], resource).toEqual([200, undefined]);
      // A list of versions: the one current is the one changed, and its successor is answered.
      const listed = await call('PUT', `/${resource}/update/${id}`, change(10), { 'if-match': '"1", "4"' });
      expect([listed.status, listed.headers.etag], resource).toEqual([200, '"5"']);
    }
  });

  it('on replies and notes sent with If-Match, merges and unmerges; a replay answers the same', async () => {
    const call = await as();
    const customer = await call('POST', '/customer/insert', { name: 'Ada', email: 'ada@example.com' });
    const ticket = { subject: 's', description: 'd', openedBy: { id: customer.body.id } };
    const target = (await call('POST', '/ticket/insert', ticket)).body.id as string;
    const reply = { text: 'hello' };
    const replied = await call('PUT', `/ticket/reply/${target}`, reply, { 'if-match': '"1"' });
    expect([replied.status, replied.headers.etag]).toEqual([200, '"2"']);
    const noted = await call('PUT', `/ticket/addNote/${target}`, { note: 'n' }, { 'if-match': '"2"' });
    expect([noted.status, noted.headers.etag]).toEqual([200, '"3"']);
    // Without If-Match, or naming several versions (which one is current needs a read): none.
    expect((await call('PUT', `/ticket/reply/${target}`, reply)).headers.etag).toBeUndefined();
    expect(
      (await call('PUT', `/ticket/addNote/${target}`, { note: 'n' }, { 'if-match': '"4", "9"' })).headers
        .etag,
    ).toBeUndefined();
    const now = (await call('GET', `/ticket/${target}`)).headers.etag as string;
    expect(now).toBe('"5"');

    const source = (await call('POST', '/ticket/insert', ticket)).body.id as string;
    const key = { 'idempotency-key': 'written-etag-merge' };
    const merged = await call('PUT', `/ticket/merge/${target}`, { sources: [source] }, key);
    expect([merged.status, merged.headers.etag]).toEqual([200, '"6"']);
    const again = await call('PUT', `/ticket/merge/${target}`, { sources: [source] }, key);
    expect([again.headers['idempotent-replayed'], again.headers.etag]).toEqual(['true', '"6"']);
    expect((await call('GET', `/ticket/${target}`)).headers.etag).toBe('"6"');
    const unmerged = await call('PUT', `/ticket/unmerge/${source}`);
    expect(unmerged.status).toBe(200);
    expect((await call('GET', `/ticket/${source}`)).headers.etag).toBe(unmerged.headers.etag);
  });

  it('is exact under concurrency: writers racing with one If-Match each answer a different version, the last the one stored', async () => {
    const call = await as();
    const made = await call('POST', '/customer/insert', { name: 'Ada', email: 'ada@example.com' });
    const id = made.body.id as string;
    const writers = 8;
    // Every writer accepts any version the race can reach, so all land; each must name its own.
    const any = Array.from({ length: writers + 1 }, (_, i) => `"${i + 1}"`).join(', ');
    const answers = await Promise.all(
      Array.from({ length: writers }, (_, n) =>
        call('PUT', `/customer/update/${id}`, { company: `c${n}` }, { 'if-match': any }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(writers).fill(200));
    const versions = answers.map((a) => Number(JSON.parse(a.headers.etag as string))).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: writers }, (_, i) => i + 2));
    const read = await call('GET', `/customer/${id}`);
    expect(read.headers.etag).toBe(`"${writers + 1}"`);
  });
});
