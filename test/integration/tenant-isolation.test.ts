import { beforeAll, describe, expect, it } from 'vitest';
import { invoke, newTenant, type Tenant } from '../helpers/api';

let owner: Tenant;
let intruder: Tenant;
const owned: Record<string, string> = {};

const as = (t: Tenant, method: string, path: string, body?: unknown) =>
  invoke(method, path.replace(/^https?:\/\/[^/]+/, ''), {
    headers: { ...t.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body }),
  });

const RESOURCES: [string, string, Record<string, unknown>][] = [
  ['customer', 'customer', { name: 'Secret', email: 'secret@example.com' }],
  ['agent', 'agent', { name: 'Secret', email: 'secret@example.com' }],
  ['ticketType', 'type', { type: 'secret' }],
  ['ticketArea', 'area', { area: 'secret' }],
  ['ticketGroup', 'group', { group: 'secret' }],
];

beforeAll(async () => {
  owner = await newTenant();
  intruder = await newTenant();
  for (const [prefix, , body] of RESOURCES) {
    for (let i = 0; i < 30; i++) {
      const b = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, i ? `${i}${v}` : v]));
      const res = await as(owner, 'POST', `/${prefix}/insert`, b);
      expect(res.status).toBe(201);
      if (i === 0) owned[prefix] = res.body.id;
    }
  }
});

describe.each(RESOURCES)('another tenant and /%s', (prefix, listKey, body) => {
  it('sees none of it in lists, searches or counts', async () => {
    const list = (await as(intruder, 'GET', `/${prefix}/list`)).body[listKey];
    const ownIds = list.records.map((r: { id: string }) => r.id);
    expect(ownIds).not.toContain(owned[prefix]);
    expect(JSON.stringify(list)).not.toContain('secret');
    const [field, value] = Object.entries(body)[0] as [string, string];
    const search = (await as(intruder, 'GET', `/${prefix}/list?${field}=${value}`)).body[listKey];
    expect(search.totalRecords).toBe(0);
    expect(search.records).toEqual([]);
  });

  it('cannot read, update or delete it by id (404) and it stays intact', async () => {
    const id = owned[prefix] as string;
    expect((await as(intruder, 'GET', `/${prefix}/${id}`)).status).toBe(404);
    expect((await as(intruder, 'PUT', `/${prefix}/update/${id}`, body)).status).toBe(404);
    expect((await as(intruder, 'DELETE', `/${prefix}/delete/${id}`)).status).toBe(404);
    const mine = await as(owner, 'GET', `/${prefix}/${id}`);
    expect(mine.status).toBe(200);
    expect(JSON.stringify(mine.body)).toContain('ecret');
  });

  it('cannot use a cursor of one resource on another, even its own', async () => {
    const page = (await as(owner, 'GET', `/${prefix}/list`)).body[listKey];
    const cursor = new URL(page.nextQuery).searchParams.get('cursor');
    const elsewhere = prefix === 'agent' ? 'customer' : 'agent';
    const res = await as(owner, 'GET', `/${elsewhere}/list?page=2&cursor=${cursor}`);
    expect(res.status).toBe(400);
    expect((await as(owner, 'GET', `/ticket/list?page=2&cursor=${cursor}`)).status).toBe(400);
  });

  it("cannot page with the owner's cursor", async () => {
    const page = (await as(owner, 'GET', `/${prefix}/list`)).body[listKey];
    expect(page.nextQuery).toEqual(expect.any(String));
    const stolen = await as(intruder, 'GET', page.nextQuery);
    expect(stolen.status).toBe(400);
    expect(JSON.stringify(stolen.body)).not.toContain('ecret');
  });
});

describe("another tenant and a customer's export and erasure", () => {
  it("cannot ask for them, nor read the owner's jobs (404), and the owner's customer stays", async () => {
    const customer = owned.customer as string;
    const exported = await as(owner, 'POST', `/customer/export/${customer}`);
    const dry = await as(owner, 'POST', `/customer/erase/${customer}`, { dryRun: true });
    expect([exported.status, dry.status]).toEqual([202, 202]);
    expect((await as(intruder, 'POST', `/customer/export/${customer}`)).status).toBe(404);
    expect((await as(intruder, 'POST', `/customer/erase/${customer}`, {})).status).toBe(404);
    expect((await as(intruder, 'POST', `/customer/erase/${customer}`, { dryRun: true })).status).toBe(404);
    expect((await as(intruder, 'GET', `/customer/export/${exported.body.id}`)).status).toBe(404);
    expect((await as(intruder, 'GET', `/customer/erase/${dry.body.id}`)).status).toBe(404);
    expect((await as(owner, 'GET', `/customer/export/${exported.body.id}`)).status).toBe(200);
    expect((await as(owner, 'GET', `/customer/${customer}`)).status).toBe(200);
  });
});
