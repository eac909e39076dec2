import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildEvent } from '../../local/event';
import { lambdaContext } from '../../local/lambda-runtime';
import { commit } from '../../shared/domain/commit';
import { apiHandler } from '../../shared/http/api-handler';
import { routeOf } from '../../shared/routes';
import { newId } from '../../shared/store/ids';
import { newTenant, type Tenant } from '../helpers/api';

/**
 * An idempotent route is answered, the first time and on every replay, with the status its
 * route-table entry declares and the body its operation makes of the write's result: a new write
 * route whose answer is not `{id}` replays what it answered. The route here is a stand-in: the
 * note route as it would be if it answered 202 with `{note: {id, number}}`.
 */
vi.mock('../../shared/routes', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../shared/routes')>();
  const declared = real.routeOf('ticketAddNote');
  const fake = { ...declared, responses: { ...declared.responses, success: [202, 'view:note'] as const } };
  return { ...real, routeOf: (op: string) => (op === 'ticketAddNote' ? fake : real.routeOf(op as never)) };
});

let written = 0;
/** While set, a write's plan waits here: the race test holds its requests until all passed the early replay check. */
let gate: { arrive: () => Promise<void> } | undefined;
const handler = apiHandler('ticketAddNote', {
  write: ({ write }) =>
    commit(write, async () => {
      written += 1;
      const number = written;
      await gate?.arrive();
      return { result: { id: newId(), number }, ops: [] };
    }),
  answer: (made) => ({ note: made }),
});

/** Lets the first plan go once `n` have arrived. */
const gateOf = (n: number) => {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    arrive: () => {
      arrived += 1;
      if (arrived === n) open();
      return opened;
    },
  };
};

let tenant: Tenant;
beforeAll(async () => {
  tenant = await newTenant();
});

/** The path's id: a retry asks for the same thing (the key's fingerprint covers it). */
const id = newId();

const send = async (key: string, note = 'n') => {
  const route = routeOf('ticketAddNote');
  const event = buildEvent({
    method: route.method,
    rawUrl: `/ticket/addNote/${id}`,
    headers: { ...tenant.headers, 'content-type': 'application/json', 'idempotency-key': key },
    body: Buffer.from(JSON.stringify({ note })),
    route,
    pathParameters: { id },
  });
  const result = (await handler(
    event as never,
    lambdaContext(route.handler, event.requestContext.requestId),
  )) as APIGatewayProxyStructuredResultV2 & { headers: Record<string, string> };
  return { ...result, json: JSON.parse(result.body ?? 'null') };
};

describe('the answer of an idempotent route', () => {
  it('is its declared status and the body made of the write’s result, then replayed as such', async () => {
    expect(routeOf('ticketAddNote').responses.success).toEqual([202, 'view:note']);
    const first = await send('answer-1');
    expect(first.statusCode).toBe(202);
    expect(first.json).toEqual({ note: { id: expect.any(String), number: expect.any(Number) } });
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await send('answer-1');
    expect(retry.statusCode).toBe(202);
    expect(retry.json).toEqual(first.json);
    expect(retry.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'idempotent-replayed': 'true',
      'x-request-id': expect.any(String),
      'ratelimit-limit': expect.any(String),
    });
  });

  it('replays the same answer to concurrent duplicates that lose the race inside the transaction', async () => {
    gate = gateOf(6);
    const before = written;
    const results = await Promise.all(Array.from({ length: 6 }, () => send('answer-race'))).finally(() => {
      gate = undefined;
    });
    // Every one of them got past the early replay check and planned its write.
    expect(written - before).toBeGreaterThanOrEqual(6);
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(202));
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(5);
    const bodies = new Set(results.map((r) => JSON.stringify(r.json)));
    expect(bodies.size).toBe(1);
    expect(JSON.parse([...bodies][0] as string)).toEqual({
      note: { id: expect.any(String), number: expect.any(Number) },
    });
  });
});
