import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildEvent } from '../../local/event';
import { lambdaContext } from '../../local/lambda-runtime';
import { apiHandler } from '../../shared/http/api-handler';
import { logger } from '../../shared/http/logger';
import { publicHandler } from '../../shared/http/public-handler';
import { json } from '../../shared/http/responses';
import { metrics, problemDimension, publishMetrics, recordRequest } from '../../shared/observability/metrics';
import { tracing, tracingBundled } from '../../shared/observability/tracing';
import { type OperationId, routeOf } from '../../shared/routes';
import { Unauthorized } from '../../shared/store/errors';
import { id } from './fixtures';

/**
 * What the handlers write for operations: the log lines of a request (Lambda context, request id,
 * route, tenant; nothing of one invocation on the next) and the EMF blobs of its metrics. The
 * store-touching middlewares are replaced: authentication by a header naming the tenant, the
 * rate limit by nothing.
 */
const saved = vi.hoisted(() => {
  const keys = [
    'AWS_LAMBDA_INITIALIZATION_TYPE',
    'POWERTOOLS_METRICS_DISABLED',
    'POWERTOOLS_LOG_LEVEL',
    'HELPDESK_TRACING',
  ] as const;
  const before = Object.fromEntries(keys.map((k) => [k, process.env[k]]));
  // What Lambda sets on an on-demand instance (cold_start, the ColdStart metric); EMF on. The
  // level is the logger's initial one: its Lambda-context middleware restores that at every
  // invocation, so it cannot be set at run time (and another test file may have set WARN).
  process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  delete process.env.HELPDESK_TRACING;
  return before;
});

vi.mock('../../shared/http/bearer-auth', async () => {
  const { requestState } = await import('../../shared/http/request-state');
  return {
    bearerAuth: () => ({
      before: ({ event }: { event: { headers: Record<string, string> } }) => {
        const tenantId = event.headers['x-test-tenant'];
        if (!tenantId) throw new Unauthorized();
        requestState(event).client = { tenantId };
      },
    }),
  };
});
vi.mock('../../shared/http/rate-limit', () => ({ rateLimit: () => ({ before: () => undefined }) }));

afterAll(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

/** Every line written to stdout and stderr meanwhile, parsed where it is JSON. */
let out: string[] = [];
let err: string[] = [];
beforeEach(() => {
  out = [];
  err = [];
  const keep = (into: () => string[]) => (chunk: unknown) => {
    into().push(...String(chunk).split('\n').filter(Boolean));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(keep(() => out) as never);
  vi.spyOn(process.stderr, 'write').mockImplementation(keep(() => err) as never);
});
afterEach(() => {
  vi.restoreAllMocks();
});

type Line = Record<string, unknown>;
const parsed = (lines: string[]): Line[] =>
  lines.flatMap((l) => {
    try {
      return [JSON.parse(l) as Line];
    } catch {
      return [];
    }
  });
/** Log lines: INFO on stdout, WARN and ERROR on stderr (Powertools' console methods). */
const logLines = () => parsed([...out, ...err]).filter((l) => !('_aws' in l));

interface Emf {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: {
      Namespace: string;
      Dimensions: string[][];
      Metrics: { Name: string; Unit: string }[];
    }[];
  };
  [key: string]: unknown;
}
const blobs = () => parsed(out).filter((l): l is Emf => '_aws' in l);
const onlyOne = (found: Emf[]): Emf => {
  expect(found).toHaveLength(1);
  return found[0] as Emf;
};
/** The request's blob by route, and a problem answer's blob by route and problem type. */
const requestBlob = () => onlyOne(blobs().filter((b) => 'Requests' in b && !('problemType' in b)));
const problemBlob = () => onlyOne(blobs().filter((b) => 'problemType' in b));
const definitionsOf = (b: Emf) => b._aws.CloudWatchMetrics[0]?.Metrics ?? [];
const dimensionsOf = (b: Emf) => b._aws.CloudWatchMetrics[0]?.Dimensions ?? [];

let invocation = 0;
const call = async (
  handler: (event: never, context: never) => Promise<unknown>,
  operationId: OperationId,
  options: {
    path?: string;
    pathParameters?: Record<string, string>;
    headers?: Record<string, string>;
    body?: unknown;
  } = {},
) => {
  const route = routeOf(operationId);
  const event = buildEvent({
    method: route.method,
    rawUrl: options.path ?? route.path,
    headers: {
      host: 'api.example.com',
      ...(options.body ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body ? { body: Buffer.from(JSON.stringify(options.body)) } : {}),
    route,
    pathParameters: options.pathParameters ?? {},
  });
  invocation += 1;
  const context = lambdaContext(route.handler, `lambda-request-${invocation}`);
  const result = (await handler(event as never, context as never)) as APIGatewayProxyStructuredResultV2;
  return { event, result, requestId: event.requestContext.requestId };
};

const TICKET = id(7);
const FAILING = id(8);
const detail = apiHandler('ticketDetail', async ({ params }) => {
  logger.info('reading the ticket');
  if (params.id === FAILING) throw new Error('the store fell over');
  return json(200, { id: params.id });
});
const insert = apiHandler('ticketInsert', { write: async () => TICKET, answer: (id) => ({ id }) });

describe('log lines', () => {
  it('carry the Lambda context, cold_start once, and the request id, route and tenant on every line', async () => {
    const first = await call(detail, 'ticketDetail', {
      path: `/ticket/${TICKET}`,
      pathParameters: { id: TICKET },
      headers: { 'x-test-tenant': 'tenant-a' },
    });
    expect(first.result.statusCode).toBe(200);
    expect(first.result.headers?.['x-request-id']).toBe(first.requestId);
    const lines = logLines();
    expect(lines.map((l) => l.message)).toEqual(['reading the ticket', 'request']);
    for (const line of lines) {
      expect(line).toMatchObject({
        service: 'helpdesk',
        cold_start: true,
        function_name: 'ticket-detail',
        function_request_id: 'lambda-request-1',
        requestId: first.requestId,
        routeKey: 'GET /ticket/{id}',
        tenantId: 'tenant-a',
      });
    }
    expect(lines[1]).toMatchObject({ status: 200, durationMs: expect.any(Number) });
    // The instance's first invocation also publishes Powertools' cold-start metric.
    const cold = blobs().filter((b) => 'ColdStart' in b);
    expect(cold).toHaveLength(1);
    expect(dimensionsOf(cold[0] as Emf)).toEqual([['service', 'function_name']]);
    expect(cold[0]).toMatchObject({ service: 'helpdesk', function_name: 'ticket-detail', ColdStart: 1 });

    out = [];
    await call(detail, 'ticketDetail', {
      path: `/ticket/${TICKET}`,
      pathParameters: { id: TICKET },
      headers: { 'x-test-tenant': 'tenant-b' },
    });
    expect(logLines().map((l) => [l.cold_start, l.tenantId])).toEqual([
      [false, 'tenant-b'],
      [false, 'tenant-b'],
    ]);
  });

  it('clear the last invocation’s keys: an unauthenticated request after an authenticated one names no tenant', async () => {
    await call(detail, 'ticketDetail', {
      path: `/ticket/${TICKET}`,
      pathParameters: { id: TICKET },
      headers: { 'x-test-tenant': 'tenant-a' },
    });
    out = [];
    const anonymous = await call(detail, 'ticketDetail', {
      path: `/ticket/${TICKET}`,
      pathParameters: { id: TICKET },
    });
    expect(anonymous.result.statusCode).toBe(401);
    const [line, ...rest] = logLines();
    expect(rest).toEqual([]);
    expect(line).toMatchObject({ message: 'request', status: 401, requestId: anonymous.requestId });
    expect(line).not.toHaveProperty('tenantId');

    // A line written after the invocation (outside any request) carries none of its keys.
    out = [];
    logger.info('between invocations');
    expect(logLines()[0]).not.toHaveProperty('requestId');
    expect(logLines()[0]).not.toHaveProperty('routeKey');
    expect(logLines()[0]).not.toHaveProperty('tenantId');
  });

  it('keep error lines to errorFields, with the request’s keys', async () => {
    const failed = await call(detail, 'ticketDetail', {
      path: `/ticket/${FAILING}`,
      pathParameters: { id: FAILING },
      headers: { 'x-test-tenant': 'tenant-a' },
    });
    expect(failed.result.statusCode).toBe(500);
    const line = logLines().find((l) => l.message === 'unhandled error');
    expect(line).toMatchObject({
      level: 'ERROR',
      requestId: failed.requestId,
      tenantId: 'tenant-a',
      routeKey: 'GET /ticket/{id}',
      error: {
        name: 'Error',
        message: 'the store fell over',
        stack: expect.stringContaining('observability.test.ts'),
      },
    });
    expect(Object.keys(line?.error as object).sort()).toEqual(['message', 'name', 'stack']);
  });

  it('of a public route carry its request id and route', async () => {
    const openapi = publicHandler('openapi', async () => json(200, {}));
    const { requestId } = await call(openapi, 'openapi');
    expect(logLines()).toEqual([
      expect.objectContaining({ message: 'request', requestId, routeKey: 'GET /openapi.json', status: 200 }),
    ]);
  });
});

describe('metrics (EMF on stdout)', () => {
  it('publish Requests, Latency and Errors of a success by route, once per invocation', async () => {
    await call(detail, 'ticketDetail', {
      path: `/ticket/${TICKET}`,
      pathParameters: { id: TICKET },
      headers: { 'x-test-tenant': 'tenant-a' },
    });
    const blob = requestBlob();
    expect(blob._aws.CloudWatchMetrics).toHaveLength(1);
    expect(blob._aws.CloudWatchMetrics[0]?.Namespace).toBe('Helpdesk');
    expect(definitionsOf(blob)).toEqual([
      { Name: 'Requests', Unit: 'Count' },
      { Name: 'Latency', Unit: 'Milliseconds' },
      { Name: 'Errors', Unit: 'Count' },
    ]);
    expect(dimensionsOf(blob)).toEqual([['service', 'route'], ['service']]);
    expect(blob).toMatchObject({ service: 'helpdesk', route: 'ticketDetail', Requests: 1, Errors: 0 });
    expect(blob.Latency).toEqual(expect.any(Number));
    // Chosen values only: nothing of the request (its path, id or tenant) is a dimension or a field.
    expect(JSON.stringify(blob)).not.toMatch(/tenant-a|\/ticket\//);
    expect(blob).not.toHaveProperty('problemType');
    expect(err).toEqual([]);
  });

  it('publish a 4xx answer by route, and again by route and problem type', async () => {
    await call(detail, 'ticketDetail', { path: `/ticket/${TICKET}`, pathParameters: { id: TICKET } });
    expect(blobs()).toHaveLength(2);
    expect(requestBlob()).toMatchObject({ route: 'ticketDetail', Requests: 1, Errors: 0 });
    expect(dimensionsOf(requestBlob())).toEqual([['service', 'route'], ['service']]);
    const blob = problemBlob();
    expect(blob._aws.CloudWatchMetrics[0]?.Namespace).toBe('Helpdesk');
    expect(definitionsOf(blob)).toEqual([
      { Name: 'Requests', Unit: 'Count' },
      { Name: 'Latency', Unit: 'Milliseconds' },
      { Name: 'Errors', Unit: 'Count' },
    ]);
    expect(dimensionsOf(blob)).toEqual([['service', 'route', 'problemType']]);
    expect(blob).toMatchObject({
      route: 'ticketDetail',
      problemType: 'unauthorized',
      Requests: 1,
      Errors: 0,
    });
    expect(err).toEqual([]); // no warning of Powertools (a dimension twice, an empty flush)
  });

  it('count a 5xx answer in Errors, with its problem type', async () => {
    await call(detail, 'ticketDetail', {
      path: `/ticket/${FAILING}`,
      pathParameters: { id: FAILING },
      headers: { 'x-test-tenant': 'tenant-a' },
    });
    expect(requestBlob()).toMatchObject({ route: 'ticketDetail', Requests: 1, Errors: 1 });
    expect(problemBlob()).toMatchObject({
      route: 'ticketDetail',
      problemType: 'internal-error',
      Requests: 1,
      Errors: 1,
    });
  });

  it('count a created ticket and the replies it carried; a refused insert counts nothing', async () => {
    const body = {
      subject: 'Printer on fire',
      description: 'It is on fire.',
      openedBy: { id: id(1) },
      replies: [{ text: 'On my way.' }, { text: 'Put it out.' }],
    };
    const created = await call(insert, 'ticketInsert', { body, headers: { 'x-test-tenant': 'tenant-a' } });
    expect(created.result.statusCode).toBe(201);
    const blob = requestBlob();
    expect(definitionsOf(blob)).toEqual(
      expect.arrayContaining([
        { Name: 'TicketsCreated', Unit: 'Count' },
        { Name: 'Replies', Unit: 'Count' },
      ]),
    );
    expect(blob).toMatchObject({
      route: 'ticketInsert',
      TicketsCreated: 1,
      Replies: 2,
      Requests: 1,
      Errors: 0,
    });
    expect(dimensionsOf(blob)).toEqual([['service', 'route'], ['service']]);

    out = [];
    const refused = await call(insert, 'ticketInsert', {
      body: { ...body, subject: '' },
      headers: { 'x-test-tenant': 'tenant-a' },
    });
    expect(refused.result.statusCode).toBe(400);
    for (const blob of blobs()) {
      expect(blob).not.toHaveProperty('TicketsCreated');
      expect(blob).not.toHaveProperty('Replies');
    }
    expect(problemBlob()).toMatchObject({ route: 'ticketInsert', problemType: 'validation-error' });
  });

  it('publish the cold start once per instance (the first invocation, in the first test)', async () => {
    await call(detail, 'ticketDetail', {
      path: `/ticket/${TICKET}`,
      pathParameters: { id: TICKET },
      headers: { 'x-test-tenant': 'tenant-a' },
    });
    expect(blobs().filter((b) => 'ColdStart' in b)).toEqual([]);
  });

  it('never throw on an empty flush, and keep dimensions to our own values', () => {
    expect(() => metrics.publishStoredMetrics()).not.toThrow();
    expect(blobs()).toEqual([]);
    expect(problemDimension('not-found')).toBe('not-found');
    expect(problemDimension('../../etc/passwd')).toBe('other');
    recordRequest('ticketList', 418, 3, 'no-such-problem');
    for (const flush of publishMetrics()) flush.after?.({} as never);
    expect(requestBlob()).toMatchObject({ route: 'ticketList', Requests: 1 });
    expect(problemBlob()).toMatchObject({ route: 'ticketList', problemType: 'other', Requests: 1 });
    expect(err).toEqual([]);
  });
});

describe('worker log lines', () => {
  it('carry the Lambda context and nothing of an API request', async () => {
    const { handler } = await import('../../functions/webhook-deliver');
    const record = { messageId: 'm-1', body: 'not a delivery', attributes: {}, receiptHandle: 'r' };
    const result = await handler(
      { Records: [record] } as never,
      lambdaContext('webhook-deliver', 'lambda-deliver-1'),
    );
    expect(result).toEqual({ batchItemFailures: [] });
    const [line, ...rest] = logLines();
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      level: 'ERROR',
      message: 'dropped a delivery message that is not ours',
      messageId: 'm-1',
      function_name: 'webhook-deliver',
      function_request_id: 'lambda-deliver-1',
    });
    expect(line).not.toHaveProperty('requestId');
    expect(line).not.toHaveProperty('tenantId');
  });
});

describe('tracing', () => {
  it('is not bundled in here (HELPDESK_TRACING unset): no middleware at all', () => {
    expect(tracingBundled()).toBe(false);
    expect(tracing({ awsClients: () => [] })).toEqual([]);
  });
});
