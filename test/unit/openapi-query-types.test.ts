import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createHelpdeskClient } from '../../client/src';
import { compatFor } from '../../shared/http/compat';
import { DECLARED_QUERY } from '../../shared/http/openapi';
import { OPENAPI_DOCUMENT, routes } from '../../shared/routes';
import { DEFAULT_COMPAT } from '../../shared/schemas/compat';

/**
 * The document declares query parameters by what the server accepts (integers, enums), not as the
 * text every query value arrives as; the server's parsing is its schema's. Each declared value
 * must be one the server takes, and a value outside the declaration one it refuses.
 */
interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: { type: string; enum?: unknown[]; minimum?: number; maximum?: number };
}
const document: {
  paths: Record<string, Record<string, { operationId: string; parameters?: Parameter[] }>>;
} = JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8'));

const queryOf = (operationId: string) => {
  for (const item of Object.values(document.paths))
    for (const op of Object.values(item))
      if (op.operationId === operationId) return (op.parameters ?? []).filter((p) => p.in === 'query');
  throw new Error(`no operation ${operationId}`);
};

/** The other parameters a route requires (a search's words), to try one parameter at a time. */
const REQUIRED: Record<string, Record<string, string>> = {
  ticketSearch: { query: 'printer' },
  customerSearch: { query: 'ada' },
};

/** Whether the route's own query schema (as the server runs it) takes `query`. */
const serverTakes = (operationId: string, query: Record<string, string>): boolean => {
  const route = routes.find((r) => r.operationId === operationId);
  const schema = route?.request.query;
  if (!route || !schema) throw new Error(`${operationId} has no query`);
  return schema.safeParse(compatFor(route, DEFAULT_COMPAT).query({ ...REQUIRED[operationId], ...query }))
    .success;
};

describe('query parameter types in the document', () => {
  it('declares page an integer from 1 on every list, and the server takes any such page', () => {
    const lists = routes.filter((r) => queryOf(r.operationId).some((p) => p.name === 'page'));
    expect(lists.length).toBeGreaterThan(15);
    for (const route of lists) {
      const page = queryOf(route.operationId).find((p) => p.name === 'page') as Parameter;
      expect(page.schema).toEqual({ type: 'integer', minimum: 1, maximum: 9_999_999, default: 1 });
      for (const value of ['1', '2', '9999999'])
        expect(serverTakes(route.operationId, { page: value })).toBe(true);
      for (const value of ['0', '10000000', 'two'])
        expect(serverTakes(route.operationId, { page: value })).toBe(false);
    }
  });

  it('declares status and priority of the ticket list as enums, each value one the server takes', () => {
    const query = queryOf('ticketList');
    const status = query.find((p) => p.name === 'status') as Parameter;
    const priority = query.find((p) => p.name === 'priority') as Parameter;
    expect(status.schema.enum).toEqual(['opened', 'on hold', 'solved', 'closed']);
    expect(priority.schema).toEqual({ type: 'integer', enum: [0, 1] });
    for (const value of status.schema.enum ?? [])
      expect(serverTakes('ticketList', { status: String(value) })).toBe(true);
    for (const value of priority.schema.enum ?? [])
      expect(serverTakes('ticketList', { priority: String(value) })).toBe(true);
    expect(serverTakes('ticketList', { status: 'bogus' })).toBe(false);
    expect(serverTakes('ticketList', { priority: '2' })).toBe(false);
    const managedDate = query.find((p) => p.name === 'managedDate') as Parameter;
    expect(managedDate.schema.type).toBe('integer');
    expect(serverTakes('ticketList', { managedDate: '-1000' })).toBe(true);
  });

  it('declares grant_type required, client_credentials only', () => {
    const [grant] = queryOf('oauthToken');
    expect(grant).toMatchObject({
      name: 'grant_type',
      required: true,
      schema: { enum: ['client_credentials'] },
    });
  });

  it('declares only parameters some route has', () => {
    const names = new Set(
      Object.values(document.paths).flatMap((item) =>
        Object.values(item).flatMap((op) => (op.parameters ?? []).map((p) => p.name)),
      ),
    );
    for (const name of Object.keys(DECLARED_QUERY)) expect(names.has(name)).toBe(true);
  });

  it('lets the typed client send what the server takes and refuse what it does not (tsc checks it)', () => {
    const client = createHelpdeskClient({ baseUrl: 'http://127.0.0.1:9', apiToken: btoa('c:s') });
    const calls = () => {
      client.tickets.list({ page: 2, status: 'on hold', priority: 1, managedDate: 1_700_000_000_000 });
      // @ts-expect-error status is one of the four statuses
      client.tickets.list({ status: 'bogus' });
      // @ts-expect-error priority is 0 or 1
      client.tickets.list({ priority: 2 });
      // @ts-expect-error page is a number
      client.customers.list({ page: '2' });
    };
    expect(typeof calls).toBe('function');
  });
});
