import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config';
import { db, resetDb } from '../../shared/store/dynamo';
import { invoke, type Tenant } from '../helpers/api';
import { interceptS3 } from '../helpers/bucket';
import { png } from '../helpers/images';
import { type TenantClient, tenantWithCustomer } from '../helpers/tenant-client';

/**
 * The store failing under us: the SDK retries, then the client gets a 503 problem with
 * Retry-After, and nothing is half-written. Faults are injected into the real SDK clients.
 */
let tenant: Tenant;
let api: TenantClient;
let customer: string;

beforeEach(async () => {
  ({ tenant, api, customer } = await tenantWithCustomer());
});

afterEach(() => {
  db().middlewareStack.remove('inject-fault');
});

/** Fails every `command` sent after the SDK's retry step, so the SDK's own retries run first. */
const failEvery = (
  client: { middlewareStack: { add: (...a: never[]) => void } },
  command: string,
  name: string,
) => {
  const attempts = { n: 0 };
  const middleware =
    (next: (a: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
      if (context.commandName !== command) return next(args);
      attempts.n++;
      throw Object.assign(new Error(`injected ${name}`), {
        name,
        $fault: 'server',
        $metadata: { httpStatusCode: 503 },
      });
    };
  client.middlewareStack.add(...([middleware, { step: 'deserialize', name: 'inject-fault' }] as never[]));
  return attempts;
};

const expectUnavailable = (res: Awaited<ReturnType<typeof invoke>>) => {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('1');
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body.type).toBe('urn:helpdesk:problem:unavailable');
  expect(JSON.stringify(res.body)).not.toContain('injected');
};

describe('DynamoDB faults', () => {
  it('retries a failing read with the SDK, then answers 503 with Retry-After', async () => {
    const attempts = failEvery(db(), 'GetItemCommand', 'InternalServerError');
    expectUnavailable(await api.get(`/customer/${customer}`));
    expect(attempts.n).toBe(4); // maxAttempts of the shared client
  });

  it('answers 503 and writes nothing when the transaction keeps failing', async () => {
    failEvery(db(), 'TransactWriteItemsCommand', 'InternalServerError');
    expectUnavailable(
      await api.post('/ticket/insert', { subject: 's', description: 'd', openedBy: { id: customer } }),
    );
    db().middlewareStack.remove('inject-fault');
    expect((await api.get('/ticket/list')).body.ticket.totalRecords).toBe(0);
  });

  it('answers 503 when the store cannot be reached at all', async () => {
    const endpoint = process.env.DYNAMODB_ENDPOINT;
    try {
      process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:9'; // nothing listens on the discard port
      resetConfig();
      resetDb();
      // the token was verified and cached on an earlier request; the read itself fails
      expectUnavailable(await invoke('GET', '/agent/list', { headers: tenant.headers }));
    } finally {
      process.env.DYNAMODB_ENDPOINT = endpoint;
      resetConfig();
      resetDb();
    }
    expect((await api.get('/agent/list')).status).toBe(200);
  }, 30_000);
});

/** S3 answers `status` with error `code` to every `method` request (after the client's own retries). */
const s3Fails = (method: string, status: number, code: string) => {
  const attempts = { n: 0 };
  const restore = interceptS3((m) => {
    if (m !== method) return undefined;
    attempts.n++;
    return new Response(`<?xml version="1.0"?><Error><Code>${code}</Code></Error>`, { status });
  });
  return { attempts, restore };
};

describe('S3 faults', () => {
  it('answers 503 and records nothing when an attachment cannot be stored', async () => {
    const { attempts, restore } = s3Fails('PUT', 503, 'SlowDown');
    try {
      const res = await api.post('/ticket/insert', {
        subject: 's',
        description: 'd',
        openedBy: { id: customer },
        attachedDocuments: [{ documentName: 'a.txt', documentType: 'text/plain', documentBlob: '00' }],
      });
      expectUnavailable(res);
      expect(attempts.n).toBe(4); // the first try and three retries
    } finally {
      restore();
    }
    expect((await api.get('/ticket/list')).body.ticket.totalRecords).toBe(0);
  });

  it('answers 503 when a photo cannot be read', async () => {
    const id = await api.create('/customer/insert', {
      name: 'P',
      email: 'p@example.com',
      profilePhotoBlob: png(1, 1).toString('hex'),
    });
    const { restore } = s3Fails('GET', 500, 'InternalError');
    try {
      expectUnavailable(await api.get(`/customer/photo/${id}`));
    } finally {
      restore();
    }
    expect((await api.get(`/customer/photo/${id}`)).status).toBe(200);
  });
});
