import { describe, expect, it } from 'vitest';
import { type Route, routeOf } from '../../shared/routes';
import { contractValidator } from '../helpers/contract';

/**
 * The check every integration test's responses go through (test/helpers/env.ts): a response
 * that drifts from the OpenAPI document, by status, header, field or type, is refused.
 */
const { check } = contractValidator();
const ID = '0123456789abcdef01234567';
const agent = {
  id: ID,
  name: 'Grace',
  email: 'g@example.com',
  phoneNumber: null,
  language: 'en',
  signature: null,
};
const common = {
  'content-type': 'application/json; charset=utf-8',
  'x-request-id': 'req-1',
  'ratelimit-limit': '1200',
  'ratelimit-remaining': '1199',
  'ratelimit-reset': '42',
};
const detail = (body: unknown, headers: Record<string, string> = {}) => ({
  statusCode: 200,
  headers: { ...common, etag: '"3"', ...headers },
  body: JSON.stringify(body),
});
const agentDetail = routeOf('agentDetail') as Route;

describe('the contract check', () => {
  it('accepts a response as documented', () => {
    expect(check(agentDetail, detail(agent))).toEqual([]);
    const notFound = {
      statusCode: 404,
      headers: { 'content-type': 'application/problem+json', 'x-request-id': 'r', 'ratelimit-limit': '5' },
      body: JSON.stringify({
        type: 'urn:helpdesk:problem:not-found',
        title: 'Not Found',
        status: 404,
        detail: `Agent ${ID} does not exist.`,
        instance: `/agent/${ID}`,
      }),
    };
    expect(check(agentDetail, notFound)).toEqual([]);
  });

  it('refuses an undocumented field of a closed schema', () => {
    expect(check(agentDetail, detail({ ...agent, password: 'x' }))).toEqual([
      'body: must NOT have additional properties ("password")',
    ]);
  });

  it('refuses a missing field and a wrong type', () => {
    const { signature: _, ...missing } = agent;
    expect(check(agentDetail, detail(missing))).toEqual(["body: must have required property 'signature'"]);
    expect(check(agentDetail, detail({ ...agent, phoneNumber: 42 }))).toEqual([
      'body/phoneNumber: must be string,null',
    ]);
    expect(check(agentDetail, detail({ ...agent, language: 'de' }))[0]).toMatch(
      /^body\/language: must be equal to one of the allowed values/,
    );
  });

  it('refuses an undocumented status', () => {
    expect(check(agentDetail, { ...detail(agent), statusCode: 202, body: '' })).toEqual([
      'status 202 is not documented (documented: 200, 204, 400, 401, 404, 429, 500, 503)',
    ]);
  });

  it('refuses a missing required header, an undocumented one and a malformed one', () => {
    const { etag: _, ...withoutEtag } = detail(agent).headers;
    expect(check(agentDetail, { ...detail(agent), headers: withoutEtag })).toEqual([
      'header etag is required but missing',
    ]);
    expect(check(agentDetail, detail(agent, { 'x-powered-by': 'express' }))).toEqual([
      'header x-powered-by is not documented',
    ]);
    expect(check(agentDetail, detail(agent, { 'ratelimit-reset': 'soon' }))).toEqual([
      'header ratelimit-reset: "soon" is not an integer',
    ]);
  });

  it('refuses a problem whose type belongs to another status, and an undocumented media type', () => {
    const problem = {
      statusCode: 404,
      headers: { 'content-type': 'application/problem+json', 'x-request-id': 'r' },
      body: JSON.stringify({
        type: 'urn:helpdesk:problem:unauthorized',
        title: 'Not Found',
        status: 404,
        detail: 'x',
        instance: '/agent/x',
      }),
    };
    expect(check(agentDetail, problem)[0]).toMatch(/^body\/type: must be equal to one of the allowed values/);
    expect(check(agentDetail, detail(agent, { 'content-type': 'text/html' }))).toEqual([
      'content-type "text/html" is not one of application/json',
    ]);
  });

  it('requires Retry-After on 429, 503 and 504 and WWW-Authenticate on 401', () => {
    const problem = (status: number, type: string) => ({
      statusCode: status,
      headers: { 'content-type': 'application/problem+json', 'x-request-id': 'r' },
      body: JSON.stringify({
        type: `urn:helpdesk:problem:${type}`,
        title: 't',
        status,
        detail: 'd',
        instance: '/',
      }),
    });
    const insert = routeOf('agentInsert') as Route;
    expect(check(insert, problem(503, 'unavailable'))).toEqual([
      'header retry-after is required but missing',
    ]);
    expect(check(insert, problem(504, 'outcome-unknown'))).toEqual([
      'header retry-after is required but missing',
    ]);
    expect(check(insert, problem(401, 'unauthorized'))).toEqual([
      'header www-authenticate is required but missing',
    ]);
  });
});
