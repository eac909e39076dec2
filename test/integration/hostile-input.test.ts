import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBody, routes } from '../../shared/routes';
import { invoke, newTenant, type Tenant } from '../helpers/api';
import { tenantWithRecords } from '../helpers/tenant-client';
import { countWrites } from '../helpers/write-counter';

/**
 * Property: whatever arrives — random JSON, wrong types, huge or odd strings, deep nesting,
 * prototype-pollution keys, wrong content types, invalid UTF-8, random queries and ids — the
 * answer is never a 5xx, and a refused request (4xx) writes nothing to the table or the bucket.
 * Over 10 000 generated requests per run.
 */
let tenant: Tenant;
let ids: Record<string, string> = {};
let writes = { n: 0 };
const sent = { n: 0 };

afterAll(() => {
  expect(sent.n).toBeGreaterThanOrEqual(10_000);
  // Some generated bodies are valid (`{}` is a fine update): proof the write counter is wired.
  expect(writes.n).toBeGreaterThan(0);
});

beforeAll(async () => {
  ({ tenant, ids } = await tenantWithRecords());
  writes = countWrites({ s3: true });
});

const pathOf = (template: string, id: string) =>
  template.replace('{id}', encodeURIComponent(id)).replace('{documentId}', encodeURIComponent(id));

/** Sends one request and checks the property; returns the status. */
const check = async (method: string, path: string, options: Parameters<typeof invoke>[2] = {}) => {
  sent.n++;
  const before = writes.n;
  const res = await invoke(method, path, { ...options, headers: { ...tenant.headers, ...options.headers } });
  const context = `${method} ${path} ${String(options.rawBody ?? JSON.stringify(options.body)).slice(0, 200)}`;
  expect(res.status, context).toBeLessThan(500);
  expect(res.status, context).toBeGreaterThanOrEqual(200);
  if (res.status >= 400) {
    expect(writes.n - before, `refused but wrote: ${context}`).toBe(0);
    expect(res.headers['content-type'], context).toMatch(/^application\/problem\+json/);
  }
  return res.status;
};

const FIELD_NAMES = [
  'name',
  'email',
  'subject',
  'description',
  'openedBy',
  'type',
  'area',
  'group',
  'assignedTo',
  'cc',
  'priority',
  'status',
  'source',
  'tags',
  'replies',
  'attachedDocuments',
  'text',
  'replyDate',
  'replyFromOperator',
  'note',
  'insertBy',
  'date',
  'remindMe',
  'language',
  'state',
  'birthDate',
  'account',
  'customFields',
  'profilePhotoBlob',
  'labels',
  'documentName',
  'documentType',
  'documentBlob',
  'documentBase64',
  'uploadId',
  '__proto__',
  'constructor',
  'prototype',
  'id',
  'number',
];

const oddString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.string({ unit: 'binary', maxLength: 50 }), // lone surrogates included
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\uFEFF',
    '\u202E',
    'é'.normalize('NFD'),
    '💥'.repeat(100),
    'a'.repeat(70_000),
  ),
  fc.constantFrom('onhold', 'closed', '0', '-1', '1e309', 'null', 'true', '{"id":1}', ids.customer ?? 'x'),
);

const oddValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    oddString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...FIELD_NAMES, 'x'), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Bodies shaped like ours (known field names) with random values, plus random JSON. */
const bodyText = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), oddValue, { maxKeys: 8 }).map((o) => JSON.stringify(o)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string(),
  fc.nat({ max: 5000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.nat({ max: 3000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.constantFrom(
    '{"__proto__":{"admin":true},"name":"x","email":"a@b.co"}',
    '{"constructor":{"prototype":{"x":1}},"text":"x"}',
    '{"name":"x","email":"a@b.co","customFields":{"__proto__":"x"}}',
  ),
);

const bodyRoutes = routes.filter(hasBody);
const queryRoutes = routes.filter((r) => r.method === 'GET');

describe('hostile input never yields a 5xx and never writes when refused', () => {
  it.each(bodyRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: random bodies',
    async (_, route) => {
      const target = pathOf(route.path, ids.ticket as string);
      await fc.assert(
        fc.asyncProperty(bodyText, async (text) => {
          await check(route.method, target, {
            headers: { 'content-type': 'application/json' },
            rawBody: Buffer.from(text, 'utf8'),
          });
        }),
        { numRuns: 450 },
      );
    },
    120_000,
  );

  it.each(bodyRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: wrong content types, invalid UTF-8 and odd path ids',
    async (_, route) => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(
            'text/plain',
            'application/xml',
            'multipart/form-data; boundary=x',
            '',
            'application/json; charset=latin1',
          ),
          fc.uint8Array({ maxLength: 200 }),
          oddString,
          async (contentType, bytes, id) => {
            const path = route.path.includes('{') ? pathOf(route.path, id || 'x') : route.path;
            await check(route.method, path, {
              headers: contentType ? { 'content-type': contentType } : {},
              rawBody: Buffer.from(bytes),
            });
          },
        ),
        { numRuns: 100 },
      );
    },
    120_000,
  );

  it.each(queryRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: random queries and ids',
    async (_, route) => {
      const param = fc.oneof(
        fc.constantFrom(
          'page',
          'cursor',
          'email',
          'name',
          'status',
          'priority',
          'tags',
          'managedDate',
          'openedBy._id',
          'type',
          'grant_type',
        ),
        fc.string({ maxLength: 20 }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(param, oddString), { maxLength: 3 }),
          oddString,
          async (pairs, id) => {
            const query = new URLSearchParams(
              pairs.map(([k, v]): [string, string] => [k, v.slice(0, 2000)]),
            ).toString();
            const path = route.path.includes('{') ? pathOf(route.path, id || 'x') : route.path;
            await check('GET', query ? `${path}?${query}` : path);
          },
        ),
        { numRuns: 150 },
      );
    },
    120_000,
  );
});

describe('search values as DynamoDB keys', () => {
  it('refuses a search value longer than any key can hold (multi-byte characters), never a 500', async () => {
    const tenant = await newTenant();
    for (const path of [
      '/customer/list?name=',
      '/agent/list?name=',
      '/ticket/list?tags=',
      '/ticketType/list?type=',
    ]) {
      const res = await invoke('GET', `${path}${encodeURIComponent('€'.repeat(500))}`, {
        headers: tenant.headers,
      });
      expect(res.status, path).toBe(400);
      expect(res.body.errors[0].message).toMatch(/bytes/);
      // The longest value a record can hold still searches.
      const ok = await invoke('GET', `${path}${encodeURIComponent('€'.repeat(100))}`, {
        headers: tenant.headers,
      });
      expect(ok.status, path).toBe(200);
    }
  });
});
