import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../local/dynamodb-local';
import { db } from '../../shared/store/dynamo';
import { type NpmStart, npmStart } from '../helpers/npm-start';
import { tenantWithCustomer } from '../helpers/tenant-client';

/**
 * A hot ticket, the way a user meets it: a hundred writers at once through `npm start` (its own
 * process and its own DynamoDB Local on disk, as a developer runs it; the Lambda deadline of
 * every request as deployed). Every answer is the truth about what happened: 200 and the write
 * landed, or 503 `contended` with Retry-After and nothing written; never a 504 for a
 * transaction the server refused or never sent. The ticket then holds exactly the writes that
 * were answered 200: no phantoms, none lost.
 */
let api: NpmStart;
let headers: Record<string, string>;

const startApi = async () => {
  api = await npmStart({
    PORT: String(await freePort()),
    // Its own store on disk (started by `npm start`), as a developer's is.
    DYNAMODB_ENDPOINT: undefined,
    TABLE_NAME: 'helpdesk-hot-ticket',
    HELPDESK_TIMEOUT_MS: undefined,
    POWERTOOLS_LOG_LEVEL: 'ERROR',
  });
  const clientId = /clientId: (\S+)/.exec(api.output())?.[1];
  const apiToken = /apiToken: (\S+)/.exec(api.output())?.[1];
  const token = await fetch(`${api.url}/oauth/token?grant_type=client_credentials`, {
    headers: { authorization: `Basic ${apiToken}` },
  });
  expect(token.status).toBe(200);
  const { access_token } = (await token.json()) as { access_token: string };
  headers = {
    authorization: `Bearer ${access_token}`,
    clientid: String(clientId),
    'content-type': 'application/json',
  };
};

const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${api.url}${path}`, {
    method,
    // A careful client's key: a 504 could be retried without a second copy.
    headers: { ...headers, 'idempotency-key': randomUUID() },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the test reads the answer's fields freely
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as any };
};

const hotTicket = async (): Promise<string> => {
  const customer = await call('POST', '/customer/insert', {
    name: 'Ada',
    email: `${randomUUID()}@example.com`,
  });
  expect(customer.status).toBe(201);
  const ticket = await call('POST', '/ticket/insert', {
    subject: 'hot',
    description: 'd',
    openedBy: { id: customer.body.id },
  });
  expect(ticket.status).toBe(201);
  return ticket.body.id;
};

interface Answer {
  kind: 'reply' | 'note';
  text: string;
  status: number;
  type?: string;
  retryAfter: string | null;
}

const write = async (ticket: string, kind: Answer['kind'], text: string): Promise<Answer> => {
  const res =
    kind === 'reply'
      ? await call('PUT', `/ticket/reply/${ticket}`, { text })
      : await call('PUT', `/ticket/addNote/${ticket}`, { note: text });
  return { kind, text, status: res.status, type: res.body.type, retryAfter: res.retryAfter };
};

/** Every answer a 200, or a 503 `contended` with Retry-After; the ticket holds exactly the 200s. */
const expectTruthful = async (ticket: string, answers: Answer[]): Promise<Record<string, number>> => {
  const summary: Record<string, number> = {};
  for (const a of answers) {
    const key = [a.status, a.type?.replace('urn:helpdesk:problem:', '')].filter(Boolean).join(' ');
    summary[key] = (summary[key] ?? 0) + 1;
  }
  for (const a of answers) {
    expect([200, 503], JSON.stringify(summary)).toContain(a.status);
    if (a.status === 503) {
      expect(a.type).toBe('urn:helpdesk:problem:contended');
      expect(a.retryAfter).toMatch(/^[1-9]\d*$/);
    }
  }
  const landed = (kind: Answer['kind']) =>
    answers
      .filter((a) => a.kind === kind && a.status === 200)
      .map((a) => a.text)
      .sort();
  const detail = await call('GET', `/ticket/${ticket}`);
  expect(detail.status).toBe(200);
  expect(detail.body.numberOfReplies).toBe(landed('reply').length);
  expect(detail.body.replies.map((r: { text: string }) => r.text).sort()).toEqual(landed('reply'));
  expect(detail.body.ticketNotes.map((n: { note: string }) => n.note).sort()).toEqual(landed('note'));
  return summary;
};

describe('a hot ticket through npm start', () => {
  beforeAll(startApi, 120_000);
  afterAll(() => api?.stop(), 60_000);

  it('answers 100 concurrent replies to one ticket with 200 or 503 contended, never 504, and keeps exactly the 200s', async () => {
    const ticket = await hotTicket();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => write(ticket, 'reply', `reply ${i}`)),
    );
    console.info('100 concurrent replies:', await expectTruthful(ticket, answers));
  }, 60_000);

  it('answers 100 concurrent replies and notes on one ticket the same way', async () => {
    const ticket = await hotTicket();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        i % 2 === 0 ? write(ticket, 'reply', `reply ${i}`) : write(ticket, 'note', `note ${i}`),
      ),
    );
    console.info('100 concurrent replies and notes:', await expectTruthful(ticket, answers));
  }, 60_000);
});

/**
 * Why a hundred land: the writers of one ticket in one process take turns (store/feed-turns.ts),
 * so none is overtaken on the ticket's feed clock and sent again. A store a few milliseconds
 * away (as DynamoDB is from Lambda) makes overtaking likely without them.
 */
describe('a hot ticket in one process', () => {
  it('sends one transaction per reply when replies to one ticket come at once', async () => {
    const { api: local, customer } = await tenantWithCustomer();
    const ticket = await local.create('/ticket/insert', {
      subject: 'hot',
      description: 'd',
      openedBy: { id: customer },
    });
    const sent = { transactions: 0 };
    db().middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand') sent.transactions++;
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 10));
        return next(args);
      },
      { step: 'finalizeRequest', name: 'network-latency' },
    );
    try {
      const statuses = await Promise.all(
        Array.from({ length: 30 }, (_, i) => local.put(`/ticket/reply/${ticket}`, { text: `r${i}` })),
      );
      expect(statuses.map((r) => r.status)).toEqual(Array(30).fill(200));
    } finally {
      db().middlewareStack.remove('network-latency');
    }
    expect(sent.transactions).toBe(30);
    expect((await local.get(`/ticket/${ticket}`)).body.numberOfReplies).toBe(30);
  }, 60_000);
});
