import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE } from '../../local/openapi';
import { invoke } from '../helpers/api';

/**
 * `GET /openapi.json`: the committed document, public and outside the rate limit (that its
 * function has no table access is test/infra/stack.test.ts's business).
 */
describe('GET /openapi.json', () => {
  const text = readFileSync(OPENAPI_FILE, 'utf8');

  it('serves docs/openapi.json without credentials, cacheable, with a request id', async () => {
    const res = await invoke('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString('utf8')).toBe(text);
  });

  it('is gzip-compressed for a client that accepts it, and revalidated with its ETag (304)', async () => {
    const res = await invoke('GET', '/openapi.json', { headers: { 'accept-encoding': 'gzip, br' } });
    expect([res.status, res.headers['content-encoding'], res.headers.vary]).toEqual([
      200,
      'gzip',
      'accept-encoding',
    ]);
    expect(gunzipSync(res.body).toString('utf8')).toBe(text);
    // A fraction of the document crosses the network.
    expect(res.body.length).toBeLessThan(Buffer.byteLength(text) / 5);
    const again = await invoke('GET', '/openapi.json', {
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect([again.status, again.headers.etag]).toEqual([304, res.headers.etag]);
  });

  it('ignores credentials, good or bad, and is not rate limited', async () => {
    const res = await invoke('GET', '/openapi.json', {
      headers: { authorization: 'Bearer nonsense', clientid: 'nobody' },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('ratelimit-'))).toEqual([]);
  });
});
