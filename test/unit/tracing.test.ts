import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildEvent } from '../../local/event';
import { lambdaContext } from '../../local/lambda-runtime';
import { publicHandler } from '../../shared/http/public-handler';
import { json } from '../../shared/http/responses';
import { traceAwsClient, tracing, tracingBundled } from '../../shared/observability/tracing';
import { routeOf } from '../../shared/routes';

/**
 * The tracer as `-c tracing=true` bundles it in (HELPDESK_TRACING, which esbuild fixes in a
 * bundle, read from the environment here). Outside Lambda the tracer is disabled: the chain runs
 * as without it. Whether a bundle carries the tracer is test/infra/tracing-bundle.test.ts.
 */
const saved = vi.hoisted(() => {
  const before = { tracing: process.env.HELPDESK_TRACING, level: process.env.POWERTOOLS_LOG_LEVEL };
  process.env.HELPDESK_TRACING = 'true';
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN'; // no access line in the test output
  return before;
});
afterAll(() => {
  for (const [key, value] of [
    ['HELPDESK_TRACING', saved.tracing],
    ['POWERTOOLS_LOG_LEVEL', saved.level],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('tracing bundled in', () => {
  it('adds the handler subsegment and the client hook to a chain, asking for the clients at each invocation', async () => {
    expect(tracingBundled()).toBe(true);
    let asked = 0;
    const middlewares = tracing({
      awsClients: () => {
        asked += 1;
        return [];
      },
    });
    expect(middlewares).toHaveLength(2);
    const handler = middy<unknown, string, Error, Context>({ timeoutEarlyInMillis: 0 })
      .use(middlewares)
      .handler(async () => 'done');
    expect(await handler({}, lambdaContext('fn', 'lambda-1'))).toBe('done');
    expect(await handler({}, lambdaContext('fn', 'lambda-2'))).toBe('done');
    expect(asked).toBe(2);
  });

  it('leaves the house chain answering as without it outside Lambda (the tracer is disabled there)', async () => {
    const handler = publicHandler('openapi', async () => json(200, { ok: true }));
    const event = buildEvent({
      method: 'GET',
      rawUrl: '/openapi.json',
      headers: { host: 'api.example.com' },
      route: routeOf('openapi'),
      pathParameters: {},
    });
    const result = await handler(event, lambdaContext('openapi', 'lambda-3'));
    expect(result).toMatchObject({ statusCode: 200, body: '{"ok":true}' });
  });

  it('hands an AWS client back as it is (instrumented once, where the tracer is enabled)', () => {
    const client = { middlewareStack: { remove: () => true, use: () => undefined }, config: {} };
    expect(traceAwsClient(client)).toBe(client);
    expect(traceAwsClient(client)).toBe(client);
  });
});
