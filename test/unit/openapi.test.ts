import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE, openApiText, postmanText } from '../../local/openapi';
import { POSTMAN_FILE } from '../../local/postman';
import { README_FILE, readmeText } from '../../local/readme-routes';
import { type JsonObject, openApiDocument } from '../../shared/http/openapi';
import { compatRole, JOB_VIEWS, type Route, routes } from '../../shared/routes';
import { PROBLEM_TYPE_PREFIX, PROBLEM_TYPES } from '../../shared/schemas/problems';
import { ticketSummaryView } from '../../shared/schemas/views';
import { SEED_TICKET } from './fixtures';

/**
 * The OpenAPI document (shared/http/openapi.ts): generated from the route table and the schemas,
 * committed up to date as docs/openapi.json, lint-free, and describing every route, parameter,
 * body, response, header, problem type and security scheme. That responses match it is the
 * integration suite's business (test/helpers/env.ts); that the matching catches drift is
 * contract.test.ts's.
 */
const doc = openApiDocument();
type Operation = {
  operationId: string;
  parameters?: (JsonObject & { $ref?: string; name?: string; in?: string })[];
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, JsonObject & { $ref?: string; headers?: Record<string, unknown> }>;
  security?: unknown[];
};
const paths = doc.paths as Record<string, Record<string, Operation>>;
const components = doc.components as Record<string, Record<string, JsonObject>>;
const schemas = components.schemas as Record<
  string,
  { properties: Record<string, JsonObject>; required: string[] }
>;
const operationOf = (r: Route): Operation => paths[r.path]?.[r.method.toLowerCase()] as Operation;
const parameterNames = (op: Operation): string[] =>
  (op.parameters ?? []).map((p) =>
    p.$ref ? String(components.parameters?.[p.$ref.split('/').pop() as string]?.name) : `${p.in}:${p.name}`,
  );

/** The seed's Customer table, field by field (its Ticket table: SEED_TICKET). */
const SEED_CUSTOMER = [
  'id',
  'name',
  'birthDate',
  'email',
  'phoneNumber',
  'faxNumber',
  'mobileNumber',
  'address',
  'city',
  'province',
  'state',
  'postalNumber',
  'skypeAddress',
  'msnAddress',
  'gtalkAddress',
  'twitterAccountUrl',
  'facebookAccountUrl',
  'linkedinAccountUrl',
  'googleAccountUrl',
  'youtubeAccountUrl',
  'registrationChannel',
  'topClient',
  'profilePhotoUrl',
  'profilePhotoBlob',
  'signature',
  'memo',
  'website',
  'company',
  'language',
  'account',
  'insertByAgentId',
  'customFields',
];
const DETAIL_EXTRAS = [
  'documentsTruncated',
  'documentsUrl',
  'repliesTruncated',
  'repliesUrl',
  'notesTruncated',
  'notesUrl',
];

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1, deterministic, and committed up to date as docs/openapi.json (npm run openapi)', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(openApiDocument()).toEqual(doc);
    expect(readFileSync(OPENAPI_FILE, 'utf8'), 'docs/openapi.json is stale: run `npm run openapi`').toBe(
      openApiText(),
    );
  });

  it('publishes a Postman collection of every operation, as npm run openapi writes it', () => {
    expect(
      readFileSync(POSTMAN_FILE, 'utf8'),
      'docs/helpdesk.postman_collection.json is stale: run `npm run openapi`',
    ).toBe(postmanText());
    const collection = JSON.parse(postmanText()) as { item: { item: { request: { method: string } }[] }[] };
    const requests = collection.item.flatMap((folder) => folder.item);
    expect(requests).toHaveLength(routes.length);
  });

  it("lists every route in the README's route table (npm run openapi writes it)", () => {
    const readme = readFileSync(README_FILE, 'utf8');
    expect(readme, 'README.md route table is stale: run `npm run openapi`').toBe(readmeText(doc, readme));
    for (const route of routes) expect(readme).toContain(`| \`${route.method} ${route.path}\` `);
  });

  it("passes Redocly's recommended lint with no error and no warning", async () => {
    const config = await createConfig({
      extends: ['recommended'],
      rules: {
        // The seed's paths: `/ticket/reply/{id}` and `/ticket/{id}/documents` share a shape; a
        // literal segment wins (as in API Gateway and local/router.ts), so each path is one route.
        'no-ambiguous-paths': 'off',
        // The attachment route answers 302 (its success) to a short-lived download address.
        'operation-2xx-response': 'off',
      },
    });
    const problems = await lintFromString({
      source: readFileSync(OPENAPI_FILE, 'utf8'),
      absoluteRef: OPENAPI_FILE,
      config,
    });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} ${p.location[0]?.pointer}`)).toEqual(
      [],
    );
  });

  it('describes every route of the table, and nothing else', () => {
    const documented = Object.entries(paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    for (const r of routes) expect(operationOf(r).operationId).toBe(r.operationId);
  });

  it("answers each route's success and problem statuses, and only those", () => {
    for (const r of routes) {
      const statuses = [r.responses.success, ...(r.responses.also ?? [])].map(([s]) => String(s));
      // Lists and details answer 204 under the deskero profile (shared/http/compat.ts).
      if (compatRole(r)) statuses.push('204');
      statuses.push(...r.responses.problems.map(String));
      expect(Object.keys(operationOf(r).responses).sort(), r.operationId).toEqual(statuses.sort());
      for (const status of r.responses.problems) {
        expect(operationOf(r).responses[status], r.operationId).toEqual({
          $ref: `#/components/responses/Problem${status}`,
        });
      }
    }
  });

  it('declares every path parameter, each search field of the list routes, and the body schemas', () => {
    for (const r of routes) {
      const op = operationOf(r);
      const names = parameterNames(op);
      for (const [, param] of r.path.matchAll(/\{(\w+)\}/g))
        expect(names, r.operationId).toContain(`path:${param}`);
      if (r.cursors)
        expect(names, r.operationId).toEqual(expect.arrayContaining(['query:page', 'query:cursor']));
      expect(op.requestBody !== undefined, r.operationId).toBe(r.request.body !== undefined);
    }
    const ticketSearches = parameterNames(
      operationOf(routes.find((r) => r.operationId === 'ticketList') as Route),
    );
    for (const field of [
      'status',
      'priority',
      'openedBy._id',
      'assignedTo._id',
      'type._id',
      'area._id',
      'group._id',
      'tags',
      'managedDate',
    ]) {
      expect(ticketSearches).toContain(`query:${field}`);
    }
    const customerSearches = parameterNames(
      operationOf(routes.find((r) => r.operationId === 'customerList') as Route),
    );
    expect(customerSearches).toEqual(expect.arrayContaining(['query:email', 'query:name']));
    expect(schemas.TicketInsertBody?.required).toEqual(['subject', 'description', 'openedBy']);
    expect(schemas.CustomerInsertBody?.required).toEqual(['name', 'email']);
    // Requests are read as sent (before defaults and transforms): status by name or object, tags as strings or objects.
    expect(JSON.stringify(schemas.TicketInsertBody?.properties.status)).toContain('"type":"string"');
  });

  it("lists every field of the seed's tables in closed response schemas, all required", () => {
    const fields = (name: string) => Object.keys(schemas[name]?.properties ?? {}).sort();
    expect(fields('Customer')).toEqual([...SEED_CUSTOMER].sort());
    // Ours beside the seed's: the schema's other fields (externalId1, integrators' key), and the
    // detail's paging links.
    const ours = Object.keys(ticketSummaryView.shape).filter((f) => !SEED_TICKET.includes(f));
    expect(fields('Ticket')).toEqual([...SEED_TICKET, ...ours, ...DETAIL_EXTRAS].sort());
    const listOnly = SEED_TICKET.filter((f) => !['replies', 'attachedDocuments', 'ticketNotes'].includes(f));
    expect(fields('TicketSummary')).toEqual([...listOnly, ...ours].sort());
    for (const name of [
      'Customer',
      'Ticket',
      'TicketSummary',
      'Agent',
      'Reply',
      'Note',
      'Document',
      'TicketType',
    ]) {
      expect(schemas[name]?.required.sort(), name).toEqual(fields(name));
      expect((schemas[name] as JsonObject).additionalProperties, name).toBe(false);
    }
    expect(schemas.CustomerPage?.properties.customer?.properties).toMatchObject({
      records: { type: 'array', items: { $ref: '#/components/schemas/Customer' } },
    });
    expect(Object.keys(schemas.TicketTypePage?.properties ?? {})).toEqual(['type']);
    // A ticket list's records are details; with `view=summary`, summaries.
    expect(schemas.TicketPage?.properties.ticket).toMatchObject({
      properties: {
        records: {
          items: {
            anyOf: [{ $ref: '#/components/schemas/Ticket' }, { $ref: '#/components/schemas/TicketSummary' }],
          },
        },
      },
    });
  });

  it('publishes every problem type of docs/errors.md, each under its own status', () => {
    const published = Object.entries(schemas)
      .filter(([name]) => name.startsWith('Problem'))
      .flatMap(([name, schema]) => {
        const status = Number(name.slice('Problem'.length));
        expect(schema.properties.status, name).toMatchObject({ const: status });
        return ((schema.properties.type?.enum ?? []) as string[]).map((type) => `${status} ${type}`);
      });
    const catalogue = Object.entries(PROBLEM_TYPES).map(
      ([code, status]) => `${status} ${PROBLEM_TYPE_PREFIX}${code}`,
    );
    expect(published.sort()).toEqual(catalogue.sort());
    // docs/errors.md's table: | status | `type` (/ `type`…) | when |
    const errorsMd = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const documented = [...errorsMd.matchAll(/^\| (\d{3})\s+\| ([^|]+)\|/gm)].flatMap(([, status, types]) =>
      [...(types as string).matchAll(/`([a-z-]+)`/g)].map(
        ([, code]) => `${status} ${PROBLEM_TYPE_PREFIX}${code}`,
      ),
    );
    expect([...new Set(documented)].sort()).toEqual(catalogue.sort());
  });

  it('documents the headers: request id and rate limit, Retry-After, WWW-Authenticate, ETag, Idempotency-Key, If-Match, Helpdesk-Compat', () => {
    const problems = components.responses as Record<
      string,
      { headers: Record<string, { required?: boolean }> }
    >;
    for (const [name, response] of Object.entries(problems)) {
      const status = Number(name.slice('Problem'.length));
      expect(Object.keys(response.headers), name).toContain('x-request-id');
      expect('Retry-After' in response.headers, name).toBe([429, 503, 504].includes(status));
      expect('WWW-Authenticate' in response.headers, name).toBe(status === 401);
      expect(response.headers['RateLimit-Limit']?.required, name).toBe(false);
    }
    for (const r of routes) {
      const op = operationOf(r);
      const names = parameterNames(op);
      expect(names.includes('Idempotency-Key'), r.operationId).toBe(r.idempotent === true);
      expect(names.includes('If-Match'), r.operationId).toBe(r.responses.problems.includes(412));
      expect(names.includes('Helpdesk-Compat'), r.operationId).toBe(r.auth === 'bearer');
      const success = op.responses[String(r.responses.success[0])] as { headers: Record<string, unknown> };
      expect(Object.keys(success.headers), r.operationId).toContain('x-request-id');
      expect('RateLimit-Remaining' in success.headers, r.operationId).toBe(r.auth === 'bearer');
      // A record's version (not a job's: it has none), or a static file's hash (the docs renderer,
      // the document);
      // a 201 of a record: the version it created; a change of the record in the path (If-Match
      // honoured, not a delete): the version it made, when known.
      const body = r.responses.success[1];
      const record = body.startsWith('view:') && !JOB_VIEWS.includes(body);
      const createdRecord = r.responses.success[0] === 201 && ['id', 'secret'].includes(body);
      const changed = r.method === 'PUT' && r.responses.problems.includes(412);
      expect('ETag' in success.headers, r.operationId).toBe(
        record || body === 'script' || body === 'openapi' || createdRecord || changed,
      );
      const etag = success.headers.ETag as { $ref?: string } | undefined;
      if (changed) expect(etag?.$ref, r.operationId).toBe('#/components/headers/WrittenETag');
      // Every 201 says where what it created is.
      expect('Location' in success.headers, r.operationId).toBe(
        r.responses.success[0] === 201 || body === 'redirect',
      );
    }
  });

  it('secures the token route with Basic, the document with nothing, and the rest with Bearer plus clientId', () => {
    expect(Object.keys(components.securitySchemes ?? {}).sort()).toEqual([
      'basicAuth',
      'bearerAuth',
      'clientId',
    ]);
    expect(components.securitySchemes?.clientId).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'clientId',
    });
    expect(doc.security).toEqual([{ bearerAuth: [], clientId: [] }]);
    for (const r of routes) {
      const expected = { basic: [{ basicAuth: [] }], none: [], bearer: undefined }[r.auth];
      expect(operationOf(r).security, r.operationId).toEqual(expected);
    }
  });

  it('takes other success answers from the route table: a 204 without content (the deskero profile)', () => {
    const table = routes.map((r) =>
      r.operationId === 'ticketDetail'
        ? { ...r, responses: { ...r.responses, also: [[204, 'empty']] as const } }
        : r,
    );
    const response = (openApiDocument(table).paths as typeof paths)['/ticket/{id}']?.get?.responses['204'];
    expect(response).toMatchObject({
      description: 'No content.',
      headers: { 'x-request-id': expect.anything() },
    });
    expect(response?.content).toBeUndefined();
  });

  it('refuses a route whose response names no schema', () => {
    const broken = [
      { ...(routes[1] as Route), responses: { success: [200, 'view:nothing'], problems: [] } },
    ] as Route[];
    expect(() => openApiDocument(broken)).toThrow(/No view named nothing/);
  });
});
