import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { invoke } from '../helpers/api';

/**
 * `GET /openapi.json`: the committed document, public and outside the rate limit (that its
 * function has no table access is test/infra/stack.test.ts's business).
 */
describe('GET /openapi.json', () => {
  const committed = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));

  it('serves docs/openapi.json without credentials, cacheable, with a request id', async () => {
    const res = await invoke('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    expect(res.body).toEqual(committed);
  });

  it('ignores credentials, good or bad, and is not rate limited', async () => {
    const res = await invoke('GET', '/openapi.json', {
      headers: { authorization: 'Bearer nonsense', clientid: 'nobody' },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('ratelimit-'))).toEqual([]);
  });
});
