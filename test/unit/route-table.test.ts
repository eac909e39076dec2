import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { publicHandler } from '../../shared/http/public-handler';
import { hasBody, routeKey, routes } from '../../shared/routes';
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
    for (const r of routes) {
      expect(hasBody(r), r.operationId).toBe(r.method === 'POST' || r.method === 'PUT');
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
