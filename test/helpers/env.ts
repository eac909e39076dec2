import { afterAll, afterEach, expect, inject } from 'vitest';

/**
 * Runs in every integration test process before the test file is imported, so shared/config.ts
 * (parsed once, on first use) sees the test store and a fixed cursor key.
 *
 * The file's own DynamoDB Local, with the test table, leased from the run's pool
 * (global-setup.ts) and stopped when the file ends.
 */
const pool = inject('dynamoPool');
const lease = await fetch(`${pool}/lease`, { method: 'POST' });
const endpoint = await lease.text();
if (!lease.ok) throw new Error(endpoint);
afterAll(async () => {
  await fetch(`${pool}/release`, { method: 'POST', body: endpoint });
});
process.env.DYNAMODB_ENDPOINT = endpoint;
process.env.TABLE_NAME = 'helpdesk-test';
process.env.S3_ENDPOINT = inject('s3Endpoint');
process.env.BUCKET_NAME = inject('bucketName');
process.env.CURSOR_SECRET = 'test-cursor-secret-0123456789abcdefghijk';
process.env.AWS_REGION = 'us-east-1';
// Tests hammer single tenants; the rate-limit test lowers this for itself.
process.env.RATE_LIMIT_PER_MINUTE = '1000000';
// Every test process calls from 127.0.0.1 into one table: auth-throttling.test.ts lowers these for itself.
process.env.AUTH_FAILURES_PER_MINUTE_PER_CLIENT = '1000000';
process.env.AUTH_FAILURES_PER_MINUTE_PER_IP = '1000000';
process.env.TOKEN_EXCHANGES_PER_MINUTE = '1000000';
// The change feed reads this far behind the present (5 s in production): short, so tests read their events at once.
process.env.EVENT_FEED_LAG_MS = '100';
// Webhook receivers of the tests listen on 127.0.0.1 over http (off in AWS: shared/config.ts).
process.env.WEBHOOK_ALLOW_LOCAL_HTTP = 'true';
// On no port until a receiver names its own (openLocalPort, test/helpers/webhook-receiver.ts).
process.env.WEBHOOK_LOCAL_PORTS = '';
delete process.env.PUBLIC_BASE_URL;
delete process.env.CURSOR_SECRET_ARN;
// The access log is one line per request: keep test output readable unless asked for.
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

/**
 * Every response a test receives (through `invoke`, the local dispatcher or the local server)
 * is held to the OpenAPI document: an undocumented status, header or field, or a wrong type,
 * fails the test that received it (docs/openapi.json; test/helpers/contract.ts). Imported after
 * the environment above is set, as the handlers' modules read it.
 */
const { observeResponses } = await import('../../local/invoke');
const { contractValidator } = await import('./contract');
const contract = contractValidator();
const violations: string[] = [];
// `npm run examples` keeps valid exchanges for the document's examples (local/examples.ts).
const capture = process.env.CAPTURE_EXAMPLES
  ? (await import('./example-capture')).exampleCapture(
      process.env.CAPTURE_EXAMPLES,
      (route, body) => contract.requestErrors(route, body).length === 0,
    )
  : undefined;
if (capture) afterAll(() => capture.flush());
observeResponses((route, request, result) => {
  const errors = contract.check(route, result);
  if (errors.length === 0) capture?.record(route, request, result);
  if (errors.length > 0) {
    violations.push(
      `${request.method} ${request.rawUrl.slice(0, 200)} → ${result.statusCode} (${route.operationId}):\n    ${errors.join('\n    ')}`,
    );
  }
});
const assertNoViolations = () => {
  const found = violations.splice(0);
  expect(found, 'responses that break the OpenAPI document (docs/openapi.json)').toEqual([]);
};
afterEach(assertNoViolations);
afterAll(assertNoViolations);
