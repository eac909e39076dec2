import { beforeEach, describe, expect, it } from 'vitest';
import { newTenant, type Tenant } from '../helpers/api';
import { clientFor, type TenantClient } from '../helpers/tenant-client';

let tenant: Tenant;
let send: TenantClient['send'];
beforeEach(async () => {
  tenant = await newTenant();
  send = clientFor(tenant).send;
});

const LOOKUPS = [
  { prefix: 'ticketType', key: 'type' },
  { prefix: 'ticketArea', key: 'area' },
  { prefix: 'ticketGroup', key: 'group' },
] as const;

describe('a new tenant', () => {
  it('starts with the default ticket types, labelled in every language', async () => {
    const res = await send('GET', '/ticketType/list');
    expect(res.status).toBe(200);
    const page = res.body.type;
    expect(page.totalRecords).toBe(4);
    expect(page.records.map((r: { type: string }) => r.type).sort()).toEqual([
      'incident',
      'problem',
      'question',
      'task',
    ]);
    expect(page.records.find((r: { type: string }) => r.type === 'task')).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: 'task',
      labels: { en: 'Task', it: 'Attività', es: 'Tarea', fr: 'Tâche' },
    });
  });
});

describe.each(LOOKUPS)('/$prefix', ({ prefix, key }) => {
  it('inserts, reads, updates (merging labels), searches and deletes', async () => {
    const created = await send('POST', `/${prefix}/insert`, {
      [key]: 'billing',
      labels: { it: 'Fatturazione' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await send('GET', `/${prefix}/${id}`)).body).toEqual({
      id,
      [key]: 'billing',
      labels: { en: 'billing', it: 'Fatturazione', es: 'billing', fr: 'billing' },
    });

    expect((await send('PUT', `/${prefix}/update/${id}`, { labels: { fr: 'Facturation' } })).body).toEqual({
      id,
    });
    expect((await send('GET', `/${prefix}/${id}`)).body.labels).toEqual({
      en: 'billing',
      it: 'Fatturazione',
      es: 'billing',
      fr: 'Facturation',
    });

    const found = (await send('GET', `/${prefix}/list?${key}=billing`)).body[key];
    expect(found.totalRecords).toBe(1);
    expect(found.records[0].id).toBe(id);

    expect((await send('DELETE', `/${prefix}/delete/${id}`)).body).toEqual({ id });
    expect((await send('GET', `/${prefix}/${id}`)).status).toBe(404);
  });

  it('rejects duplicates (case-insensitively), bad bodies and unknown ids', async () => {
    expect((await send('POST', `/${prefix}/insert`, { [key]: 'Dup' })).status).toBe(201);
    const dup = await send('POST', `/${prefix}/insert`, { [key]: 'dup' });
    expect(dup.status).toBe(409);
    expect(dup.body.type).toBe(`urn:helpdesk:problem:duplicate-${key}`);
    for (const body of [{}, { [key]: '' }, { [key]: 5 }, { [key]: 'x', labels: { en: 5 } }]) {
      expect((await send('POST', `/${prefix}/insert`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await send('PUT', `/${prefix}/update/aaaaaaaaaaaaaaaaaaaaaaaa`, { [key]: 'x' })).status).toBe(
      404,
    );
    expect((await send('DELETE', `/${prefix}/delete/aaaaaaaaaaaaaaaaaaaaaaaa`)).status).toBe(404);
    expect((await send('GET', `/${prefix}/list?nope=1`)).status).toBe(400);
  });
});

describe('/agent', () => {
  it('runs the whole life cycle with every field', async () => {
    const created = await send('POST', '/agent/insert', {
      name: 'Grace Hopper',
      email: 'grace@example.com',
      phoneNumber: '+1 555 0100',
      language: 'es',
      signature: '-- Grace',
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await send('GET', `/agent/${id}`)).body).toEqual({
      id,
      name: 'Grace Hopper',
      email: 'grace@example.com',
      phoneNumber: '+1 555 0100',
      language: 'es',
      signature: '-- Grace',
    });
    await send('PUT', `/agent/update/${id}`, { phoneNumber: null, name: 'Rear Admiral Hopper' });
    expect((await send('GET', `/agent/${id}`)).body).toMatchObject({
      phoneNumber: null,
      name: 'Rear Admiral Hopper',
    });
    expect((await send('GET', '/agent/list?email=GRACE@example.com')).body.agent.totalRecords).toBe(1);
    expect((await send('GET', '/agent/list?name=Grace%20Hopper')).body.agent.totalRecords).toBe(0);
    expect((await send('GET', '/agent/list?name=Rear%20Admiral%20Hopper')).body.agent.totalRecords).toBe(1);
    expect((await send('POST', '/agent/insert', { name: 'x', email: 'grace@example.com' })).status).toBe(409);
    expect((await send('DELETE', `/agent/delete/${id}`)).status).toBe(200);
    expect((await send('GET', '/agent/list')).body.agent.totalRecords).toBe(0);
  });
});
