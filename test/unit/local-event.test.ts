import { describe, expect, it } from 'vitest';
import { buildEvent } from '../../local/event';
import { routes } from '../../shared/routes';

const route = (operationId: string) => {
  const found = routes.find((r) => r.operationId === operationId);
  if (!found) throw new Error(operationId);
  return found;
};

describe('buildEvent (HTTP API payload 2.0)', () => {
  it('builds the payload 2.0 shape from a raw request', () => {
    const event = buildEvent({
      method: 'GET',
      rawUrl: '/ticket/list?status=opened&page=2',
      headers: ['Host', 'localhost:3000', 'ClientId', 'abc', 'User-Agent', 'curl/8'],
      route: route('ticketList'),
      pathParameters: {},
      remoteAddress: '::ffff:127.0.0.1',
      localPort: 3000,
    });
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /ticket/list',
      rawPath: '/ticket/list',
      rawQueryString: 'status=opened&page=2',
      queryStringParameters: { status: 'opened', page: '2' },
      isBase64Encoded: false,
      requestContext: {
        accountId: 'local',
        apiId: 'local',
        domainName: 'localhost:3000',
        domainPrefix: 'localhost',
        http: {
          method: 'GET',
          path: '/ticket/list',
          protocol: 'HTTP/1.1',
          sourceIp: '127.0.0.1',
          userAgent: 'curl/8',
        },
        routeKey: 'GET /ticket/list',
        stage: '$default',
      },
    });
    expect(event.headers).toMatchObject({
      host: 'localhost:3000',
      clientid: 'abc',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-port': '3000',
    });
    expect(event.pathParameters).toBeUndefined();
    expect(event.body).toBeUndefined();
    expect(event.cookies).toBeUndefined();
    expect(event.requestContext.requestId).toMatch(/^[\w+/]{15}=$/);
    expect(event.requestContext.time).toMatch(/^\d\d\/\w{3}\/\d{4}:\d\d:\d\d:\d\d \+0000$/);
    expect(Math.abs(event.requestContext.timeEpoch - Date.now())).toBeLessThan(5000);
  });

  it('joins duplicate headers and query parameters with commas and decodes values', () => {
    const event = buildEvent({
      method: 'GET',
      rawUrl: '/customer/list?tag=a&tag=b&email=x%2By%40z.io&name=J+Doe&flag',
      headers: ['X-Thing', '1', 'x-thing', '2', 'Cookie', 'a=1; b=2', 'cookie', 'c=3'],
      route: route('customerList'),
      pathParameters: {},
    });
    expect(event.headers['x-thing']).toBe('1,2');
    expect(event.headers.cookie).toBeUndefined();
    expect(event.cookies).toEqual(['a=1', 'b=2', 'c=3']);
    expect(event.queryStringParameters).toEqual({ tag: 'a,b', email: 'x+y@z.io', name: 'J Doe', flag: '' });
    expect(event.rawQueryString).toBe('tag=a&tag=b&email=x%2By%40z.io&name=J+Doe&flag');
  });

  it('accepts a header object and passes path parameters through', () => {
    const event = buildEvent({
      method: 'put',
      rawUrl: '/ticket/reply/t%201',
      headers: { 'Content-Type': 'application/json; charset=utf-8', Authorization: 'Bearer x' },
      body: Buffer.from('{"a":"é"}'),
      route: route('ticketReply'),
      pathParameters: { id: 't 1' },
    });
    expect(event.routeKey).toBe('PUT /ticket/reply/{id}');
    expect(event.rawPath).toBe('/ticket/reply/t%201');
    expect(event.pathParameters).toEqual({ id: 't 1' });
    expect(event.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      authorization: 'Bearer x',
    });
    expect(event.body).toBe('{"a":"é"}');
    expect(event.isBase64Encoded).toBe(false);
    expect(event.queryStringParameters).toBeUndefined();
  });

  it.each([
    ['application/problem+json', false],
    ['text/plain', false],
    ['application/xml', false],
    ['application/x-www-form-urlencoded', false],
    ['image/png', true],
    ['application/octet-stream', true],
    [undefined, true],
  ])('encodes a %s body as base64: %s', (contentType, base64) => {
    const bytes = Buffer.from([0x7b, 0xff, 0x00, 0x7d]);
    const event = buildEvent({
      method: 'POST',
      rawUrl: '/customer/insert',
      headers: contentType ? { 'content-type': contentType } : {},
      body: bytes,
      route: route('customerInsert'),
      pathParameters: {},
    });
    expect(event.isBase64Encoded).toBe(base64);
    expect(event.body).toBe(base64 ? bytes.toString('base64') : bytes.toString('utf8'));
  });

  it('leaves an empty body undefined (DELETE with a content type, as Deskero clients send)', () => {
    const event = buildEvent({
      method: 'DELETE',
      rawUrl: '/customer/delete/c1',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(0),
      route: route('customerDelete'),
      pathParameters: { id: 'c1' },
    });
    expect(event.body).toBeUndefined();
    expect(event.isBase64Encoded).toBe(false);
  });
});
