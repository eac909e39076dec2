import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../shared/domain/new-client';
import { db } from '../../shared/store/dynamo';
import { invoke } from '../helpers/api';
import { drain, settle } from '../helpers/feed';
import { clientFor } from '../helpers/tenant-client';

/**
 * A new client and what it starts with (its seeded ticket types and their events) are one
 * commit: whatever happens to the transaction on the way, the client exists with all of them or
 * not at all, and never twice.
 */
afterEach(() => {
  db().middlewareStack.remove('lose-answer');
});

/** Lets the first `command` through to DynamoDB, then loses its answer (a 500): the SDK sends it again. */
const loseFirstAnswer = (command: string) => {
  const sent = { n: 0 };
  const middleware =
    (next: (a: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
      if (context.commandName !== command) return next(args);
      sent.n++;
      const answer = await next(args);
      if (sent.n > 1) return answer;
      throw Object.assign(new Error('answer lost'), {
        name: 'InternalServerError',
        $fault: 'server',
        $metadata: { httpStatusCode: 500 },
      });
    };
  const stack = db().middlewareStack as unknown as { add: (...a: unknown[]) => void };
  stack.add(middleware, { step: 'deserialize', name: 'lose-answer' });
  return sent;
};

/** The API as the new client, through its apiToken. */
const clientApi = async (clientId: string, apiToken: string) => {
  const token = await invoke('GET', '/oauth/token?grant_type=client_credentials', {
    headers: { authorization: `Basic ${apiToken}` },
  });
  expect(token.status).toBe(200);
  return clientFor({
    clientId,
    apiToken,
    accessToken: token.body.access_token,
    headers: { authorization: `Bearer ${token.body.access_token}`, clientid: clientId },
  });
};

describe('creating a client', () => {
  it('applies a creation whose answer was lost once: the resend succeeds, one set of types and events', async () => {
    const sent = loseFirstAnswer('TransactWriteItemsCommand');
    const { clientId, apiToken } = await createClient('resent');
    db().middlewareStack.remove('lose-answer');
    expect(sent.n).toBe(2);
    const api = await clientApi(clientId, apiToken);
    const types = (await api.get('/ticketType/list')).body.type;
    expect(types.totalRecords).toBe(4);
    expect(types.records).toHaveLength(4);
    await settle();
    const { events } = await drain(api, '/event/list?since=0');
    expect(events.map((e) => e.type)).toEqual(Array(4).fill('ticket_type.created'));
    expect(new Set(events.map((e) => e.resourceId))).toEqual(
      new Set(types.records.map((t: { id: string }) => t.id)),
    );
  });
});
