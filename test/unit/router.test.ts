import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../local/router';
import { routes } from '../../shared/routes';

describe('matchRoute', () => {
  it('prefers a literal segment over a {id} parameter, like API Gateway', () => {
    expect(matchRoute('GET', '/ticket/list')?.route.operationId).toBe('ticketList');
    expect(matchRoute('GET', '/customer/list')?.route.operationId).toBe('customerList');
    expect(matchRoute('GET', '/ticket/abc')?.route.operationId).toBe('ticketDetail');
  });

  it('returns URL-decoded path parameters', () => {
    const match = matchRoute('PUT', '/ticket/reply/a%20b%2Fc');
    expect(match?.route.operationId).toBe('ticketReply');
    expect(match?.pathParameters).toEqual({ id: 'a b/c' });
  });

  it('returns no parameters for literal routes', () => {
    expect(matchRoute('POST', '/ticket/insert')?.pathParameters).toEqual({});
  });

  it('matches the method too, case-insensitively', () => {
    expect(matchRoute('get', '/ticket/list')?.route.operationId).toBe('ticketList');
    expect(matchRoute('POST', '/ticket/list')).toBeUndefined();
    expect(matchRoute('DELETE', '/ticket/abc')).toBeUndefined();
  });

  it('does not match empty parameters, extra segments or unknown paths', () => {
    expect(matchRoute('GET', '/ticket/')).toBeUndefined();
    expect(matchRoute('GET', '/ticket/list/extra')).toBeUndefined();
    expect(matchRoute('GET', '/nothing')).toBeUndefined();
    expect(matchRoute('GET', '/')).toBeUndefined();
  });

  it('reaches every route in the table from its own path', () => {
    for (const route of routes) {
      const path = route.path.replaceAll('{id}', 'some-id');
      expect(matchRoute(route.method, path)?.route, `${route.method} ${route.path}`).toBe(route);
    }
  });
});
