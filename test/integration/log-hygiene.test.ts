import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../../shared/http/logger';
import { db } from '../../shared/store/dynamo';
import { invoke, newTenant } from '../helpers/api';
import { clientFor } from '../helpers/tenant-client';

/**
 * Everything the service logs during a session full of secrets: no token, secret, password,
 * Authorization header or attachment byte may appear in it.
 */
// Every level, on every invocation: the logger's Lambda-context middleware puts the logger back to
// its initial level at each invocation (Powertools' debug sampling), so a level set at run time
// (`logger.setLogLevel`) would hold for one invocation only. Set before the logger is created.
vi.hoisted(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
});

const captured: string[] = [];
const originals = { out: process.stdout.write, err: process.stderr.write };

beforeAll(() => {
  expect(logger.getLevelName()).toBe('DEBUG');
  const capture =
    (original: typeof process.stdout.write) =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      captured.push(String(chunk));
      return (original as (...a: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
    };
  process.stdout.write = capture(originals.out) as typeof process.stdout.write;
  process.stderr.write = capture(originals.err) as typeof process.stderr.write;
});

afterAll(() => {
  process.stdout.write = originals.out;
  process.stderr.write = originals.err;
});

describe('logs', () => {
  it('never contain credentials, passwords or attachment bytes', async () => {
    const tenant = await newTenant();
    const api = clientFor(tenant);
    const secret = Buffer.from(tenant.apiToken, 'base64').toString().split(':')[1] as string;
    const marker = Buffer.from('TOP-SECRET-ATTACHMENT-CONTENT');
    const customer = await api.create('/customer/insert', {
      name: 'Ada',
      email: 'ada@example.com',
      account: { username: 'ada', password: 'hunter2-hunter2' },
    });
    await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
      attachedDocuments: [
        {
          documentName: 'a.bin',
          documentType: 'application/octet-stream',
          documentBlob: marker.toString('hex'),
        },
        {
          documentName: 'b.bin',
          documentType: 'application/octet-stream',
          documentBase64: marker.toString('base64'),
        },
      ],
    });
    // failures log too: a wrong token, a wrong secret, a bad body
    await invoke('GET', '/customer/list', {
      headers: { authorization: `Bearer ${'x'.repeat(43)}`, clientid: tenant.clientId },
    });
    await invoke('GET', '/oauth/token?grant_type=client_credentials', {
      headers: {
        authorization: `Basic ${Buffer.from(`${tenant.clientId}:${'y'.repeat(43)}`).toString('base64')}`,
      },
    });
    await api.post('/customer/insert', {
      name: 'x',
      email: 'not-an-email',
      account: { password: 'hunter2-hunter2' },
    });

    const log = captured.join('');
    expect(log).toContain('"routeKey":"POST /ticket/insert"'); // the access log did run
    for (const forbidden of [
      tenant.accessToken,
      tenant.apiToken,
      secret,
      'x'.repeat(43),
      'hunter2',
      marker.toString('hex'),
      marker.toString('base64'),
      marker.toString(),
    ]) {
      expect(log, `log contains ${forbidden.slice(0, 8)}…`).not.toContain(forbidden);
    }
    expect(log.toLowerCase()).not.toMatch(/authorization|bearer |basic /);
  });

  it('carry an unhandled error by name, code, message and stack only, never the payload it carries', async () => {
    const tenant = await newTenant();
    const api = clientFor(tenant);
    const customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
    const marker = 'CUSTOMER-DATA-IN-THE-RAW-RESPONSE';
    // What the SDK throws when it cannot parse a response: the raw HTTP packet rides along.
    const parseError = () =>
      Object.assign(new SyntaxError('Unexpected token in JSON at position 7'), {
        code: 'DeserializationError',
        $fault: 'client',
        $metadata: { httpStatusCode: 200, requestId: 'r-1', attempts: 1 },
        $response: {
          statusCode: 200,
          headers: { 'x-amzn-requestid': 'r-1' },
          body: `{"Item":{"email":{"S":"${marker}@example.com"}`,
        },
        $responseBodyText: `{"Item":{"name":{"S":"${marker}"}`,
        cause: Object.assign(new Error('socket hang-up while reading'), { $response: { body: marker } }),
      });
    const inject =
      (next: (a: unknown) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: unknown) => {
        if (context.commandName === 'GetItemCommand') throw parseError();
        return next(args);
      };
    const from = captured.length;
    db().middlewareStack.add(inject as never, { step: 'deserialize', name: 'inject-parse-error' });
    let requestId = '';
    try {
      const res = await api.get(`/customer/${customer}`);
      expect(res.status).toBe(500);
      expect(res.body.type).toBe('urn:helpdesk:problem:internal-error');
      expect(JSON.stringify(res.body)).not.toContain(marker);
      requestId = res.headers['x-request-id'] as string;
    } finally {
      db().middlewareStack.remove('inject-parse-error');
    }
    const log = captured.slice(from).join('');
    const line = log.split('\n').find((l) => l.includes('unhandled error'));
    expect(line, log).toBeDefined();
    expect(line).toContain('SyntaxError');
    expect(line).toContain('DeserializationError');
    expect(line).toContain('Unexpected token in JSON at position 7');
    expect(line).toContain('log-hygiene.test.ts'); // the stack
    expect(line).toContain('socket hang-up while reading'); // the cause, by the same fields
    expect(log).not.toContain(marker);
    // The line names its request by the id its client got, its route and its tenant.
    expect(JSON.parse(line as string)).toMatchObject({
      requestId,
      routeKey: 'GET /customer/{id}',
      tenantId: tenant.clientId,
      function_name: 'customer-detail',
    });
  });
});
