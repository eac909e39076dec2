import { beforeAll, describe, expect, it } from 'vitest';
import { invoke, newTenant, type Tenant } from '../helpers/api';

let tenant: Tenant;
const ids: string[] = []; // in insertion order
const TOTAL = 60;

const get = (pathOrUrl: string, t: Tenant = tenant) => {
  const path = pathOrUrl.replace(/^https?:\/\/[^/]+/, '');
  return invoke('GET', path, { headers: t.headers });
};

beforeAll(async () => {
  tenant = await newTenant();
  for (let i = 0; i < TOTAL; i++) {
    const res = await invoke('POST', '/customer/insert', {
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      body: { name: i % 3 === 0 ? 'Triple' : `Customer ${i}`, email: `c${i}@example.com` },
    });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
});

describe('customer list pages', () => {
  it('serves 25 a page, newest first, with an exact total, across 3 pages without gaps', async () => {
    const seen: string[] = [];
    let res = await get('/customer/list');
    const first = res.body.customer;
    expect(first.totalRecords).toBe(TOTAL);
    expect(first.recordsPerPage).toBe(25);
    expect(first.previousQuery).toBeNull();
    expect(first.nextQuery).toMatch(/^https?:\/\/[^/]+\/customer\/list\?page=2&cursor=[\w.-]+$/);
    seen.push(...first.records.map((r: { id: string }) => r.id));
    let page = first;
    for (let n = 2; page.nextQuery; n++) {
      res = await get(page.nextQuery);
      expect(res.status).toBe(200);
      page = res.body.customer;
      expect(page.totalRecords).toBe(TOTAL);
      expect(page.previousQuery).toContain(`page=${n - 1}`);
      seen.push(...page.records.map((r: { id: string }) => r.id));
    }
    expect(page.records).toHaveLength(TOTAL - 50);
    expect(seen).toEqual([...ids].reverse());
  });

  it('walks back with previousQuery to the same records', async () => {
    const p1 = (await get('/customer/list')).body.customer;
    const p2 = (await get(p1.nextQuery)).body.customer;
    const p3 = (await get(p2.nextQuery)).body.customer;
    const back2 = (await get(p3.previousQuery)).body.customer;
    expect(back2.records).toEqual(p2.records);
    expect(back2.nextQuery).toContain('page=3');
    const back1 = (await get(back2.previousQuery)).body.customer;
    expect(back1.records).toEqual(p1.records);
    expect(back2.previousQuery).toMatch(/\/customer\/list\?page=1$/);
  });

  it('serves a bare ?page=n without a cursor, equal to the cursor walk', async () => {
    const p1 = (await get('/customer/list')).body.customer;
    const p2 = (await get(p1.nextQuery)).body.customer;
    const p3 = (await get(p2.nextQuery)).body.customer;
    expect((await get('/customer/list?page=2')).body.customer.records).toEqual(p2.records);
    const bare3 = (await get('/customer/list?page=3')).body.customer;
    expect(bare3.records).toEqual(p3.records);
    expect(bare3.nextQuery).toBeNull();
  });

  it('answers a page past the end with an empty page', async () => {
    const res = await get('/customer/list?page=9');
    expect(res.status).toBe(200);
    expect(res.body.customer).toMatchObject({ totalRecords: TOTAL, records: [], nextQuery: null });
  });

  it('rejects bad page numbers and unknown search fields with a 400', async () => {
    for (const q of [
      'page=abc',
      'page=0',
      'page=-1',
      'page=1.5',
      'page=',
      'city=London',
      'email=a&name=b',
      'email=',
    ]) {
      const res = await get(`/customer/list?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });

  it('rejects tampered cursors and cursors used with another page or filter', async () => {
    const p1 = (await get('/customer/list')).body.customer;
    const url = new URL(p1.nextQuery);
    const cursor = url.searchParams.get('cursor') as string;
    const [data, mac] = cursor.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(data, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...payload, p: 3 })).toString('base64url')}.${mac}`;
    for (const q of [
      `page=2&cursor=${forged}`,
      `page=2&cursor=${cursor.slice(0, -2)}`,
      `page=2&cursor=garbage`,
      `page=3&cursor=${cursor}`,
      `page=2&name=Triple&cursor=${cursor}`,
    ]) {
      expect((await get(`/customer/list?${q}`)).status, q).toBe(400);
    }
  });
});

describe('customer search', () => {
  it('finds by e-mail, case-insensitively, with its own count', async () => {
    const res = await get('/customer/list?email=C7@EXAMPLE.COM');
    expect(res.body.customer.totalRecords).toBe(1);
    expect(res.body.customer.records.map((r: { id: string }) => r.id)).toEqual([ids[7]]);
    expect(res.body.customer.nextQuery).toBeNull();
  });

  it('finds by exact name and pages the matches keeping the filter in the links', async () => {
    const res = await get('/customer/list?name=Triple');
    const page = res.body.customer;
    const expected = ids.filter((_, i) => i % 3 === 0).reverse();
    expect(page.totalRecords).toBe(20);
    expect(page.records.map((r: { id: string }) => r.id)).toEqual(expected);
    expect(page.nextQuery).toBeNull();
  });

  it('answers no match with an empty page', async () => {
    const res = await get('/customer/list?name=Nobody');
    expect(res.body.customer).toEqual({
      totalRecords: 0,
      recordsPerPage: 25,
      previousQuery: null,
      nextQuery: null,
      records: [],
    });
  });
});

describe('filtered paging keeps the filter', () => {
  it('pages a search across 2 pages with nextQuery carrying the search term', async () => {
    const t = await newTenant();
    const made: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await invoke('POST', '/agent/insert', {
        headers: { ...t.headers, 'content-type': 'application/json' },
        body: { name: 'Same Name', email: `agent${i}@example.com` },
      });
      made.push(res.body.id);
    }
    const p1 = (await get('/agent/list?name=Same%20Name', t)).body.agent;
    expect(p1.totalRecords).toBe(30);
    expect(p1.nextQuery).toMatch(/name=Same\+Name&page=2&cursor=/);
    const p2 = (await get(p1.nextQuery, t)).body.agent;
    expect([...p1.records, ...p2.records].map((r: { id: string }) => r.id)).toEqual(made.reverse());
  });
});
