import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { publicHandler } from '../../shared/http/public-handler';
import {
  BLOB_AREAS,
  type BlobArea,
  claimsRateLeases,
  DB,
  dynamoActions,
  hasBody,
  routeKey,
  routes,
} from '../../shared/routes';
import { blobKeys, STAGING_PREFIX } from '../../shared/store/keys';
import { workers } from '../../shared/workers';

/**
 * Parity between the route table and the code: one handler file per route and no stray ones,
 * unique operations and route keys, and every route of CONTRACT §1 present.
 */
const handlerFiles = readdirSync(new URL('../../functions/', import.meta.url)).filter((f) =>
  f.endsWith('.ts'),
);

describe('route table', () => {
  it('maps every route and worker to its own handler file, and every handler file to one of them', () => {
    const declared = [...routes, ...workers].map((r) => `${r.handler}.ts`).sort();
    expect(new Set(declared).size).toBe(routes.length + workers.length);
    expect(handlerFiles.sort()).toEqual(declared);
  });

  it('has unique operation ids and route keys', () => {
    expect(new Set(routes.map((r) => r.operationId)).size).toBe(routes.length);
    expect(new Set(routes.map(routeKey)).size).toBe(routes.length);
  });

  it('holds every route of the contract', () => {
    const keys = routes.map(routeKey);
    const contract = [
      'GET /oauth/token',
      'GET /ticket/list',
      'GET /ticket/{id}',
      'POST /ticket/insert',
      'PUT /ticket/update/{id}',
      'DELETE /ticket/delete/{id}',
      'PUT /ticket/reply/{id}',
      'PUT /ticket/addNote/{id}',
      'GET /customer/photo/{id}',
      ...['customer', 'agent', 'ticketType', 'ticketArea', 'ticketGroup'].flatMap((r) => [
        `GET /${r}/list`,
        `GET /${r}/{id}`,
        `POST /${r}/insert`,
        `PUT /${r}/update/{id}`,
        `DELETE /${r}/delete/{id}`,
      ]),
    ];
    expect(keys).toEqual(expect.arrayContaining(contract));
  });

  it('parses bodies only where there are any, and lets read routes only read', () => {
    // An action on a ticket, a customer or an import job that takes nothing but its id; a new import job.
    const bodiless = new Set([
      'ticketRestore',
      'ticketUnmerge',
      'customerExport',
      'importCreate',
      'importStart',
      'importCancel',
    ]);
    for (const r of routes) {
      expect(hasBody(r), r.operationId).toBe(
        (r.method === 'POST' || r.method === 'PUT') && !bodiless.has(r.operationId),
      );
      if (r.method === 'GET' && r.auth === 'bearer') expect(r.access, r.operationId).toBe('read');
    }
  });

  it('keeps public routes away from the table: only the OpenAPI document and the docs page are public', () => {
    const open = routes.filter((r) => r.auth === 'none');
    expect(open.map(routeKey)).toEqual(['GET /openapi.json', 'GET /docs', 'GET /docs/redoc.standalone.js']);
    for (const r of routes) expect(r.access === 'none', r.operationId).toBe(r.auth === 'none');
    for (const r of open) expect(r.blobs ?? r.cursors ?? r.idempotent, r.operationId).toBeUndefined();
    // The light chain of public functions serves public routes only.
    expect(() =>
      publicHandler('ticketList' as 'openapi', async () => ({ statusCode: 200, headers: {} })),
    ).toThrow(/not a public route/);
  });

  it('exports a handler from every handler file', async () => {
    for (const file of handlerFiles) {
      const mod = await import(/* @vite-ignore */ `../../functions/${file}`);
      expect(typeof mod.handler, file).toBe('function');
    }
  });
});

describe('declared grants (what infra/api-function.ts grants; test/integration/least-privilege.test.ts records)', () => {
  const WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem', 'BatchWriteItem'];

  it("agree with each route's access: none touches no table, read routes write nothing, write routes write", () => {
    for (const r of routes) {
      const actions = dynamoActions(r);
      const writes = actions.filter((a) => WRITES.includes(a));
      if (r.access === 'none') expect(actions, r.operationId).toEqual([]);
      else if (r.access === 'read') expect(writes, r.operationId).toEqual([]);
      else expect(writes.length, r.operationId).toBeGreaterThan(0);
      expect(claimsRateLeases(r), r.operationId).toBe(r.auth !== 'none');
    }
  });

  it('declare no Scan and no action twice; every bearer route reads its token and client in one BatchGetItem', () => {
    for (const r of routes) {
      expect(
        dynamoActions(r).filter((a) => a.endsWith('Scan')),
        r.operationId,
      ).toEqual([]);
      expect(new Set(r.dynamo ?? []).size, r.operationId).toBe((r.dynamo ?? []).length);
      if (r.auth === 'bearer') expect(dynamoActions(r), r.operationId).toContain('BatchGetItem');
    }
    for (const [name, set] of Object.entries(DB)) expect(new Set(set).size, name).toBe(set.length);
  });

  it('declare object actions on known areas of the bucket, each at most once, and none on public routes', () => {
    for (const r of routes) {
      if (!r.blobs) continue;
      expect(r.auth, r.operationId).not.toBe('none');
      const { listBucket, listVersions: _versions, ...areas } = r.blobs;
      expect(Object.keys(areas).length, r.operationId).toBeGreaterThan(0);
      for (const [area, actions] of Object.entries(areas)) {
        expect(Object.keys(BLOB_AREAS), r.operationId).toContain(area);
        expect((actions as string[]).length, `${r.operationId} ${area}`).toBeGreaterThan(0);
        expect(new Set(actions).size, `${r.operationId} ${area}`).toBe((actions as string[]).length);
      }
      // Listing only where an object that may be missing is read.
      if (listBucket) expect(Object.values(areas).flat(), r.operationId).toContain('GetObject');
    }
  });

  it("spells the bucket's areas with the key builders, so every key built falls in its area and no other", () => {
    const built: Record<BlobArea, string> = {
      documents: blobKeys.document('t1', 'k1', 'd1'),
      photos: blobKeys.photo('t1', 'p1'),
      staging: blobKeys.staging('t1', 'u1'),
      exports: blobKeys.customerExport('t1', 'c1', 'j1'),
      imports: blobKeys.importFile('t1', 'j1'),
    };
    const matches = (pattern: string, key: string) =>
      new RegExp(
        `^${pattern
          .split('*')
          .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ).test(key);
    for (const [area, key] of Object.entries(built)) {
      for (const [other, pattern] of Object.entries(BLOB_AREAS)) {
        expect(matches(pattern, key), `${key} in ${other}`).toBe(other === area);
      }
    }
    expect(BLOB_AREAS.staging.startsWith(STAGING_PREFIX)).toBe(true);
  });
});
