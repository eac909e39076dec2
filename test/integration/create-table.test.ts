import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { localDynamoClient } from '../../local/dynamodb-local';
import { resetConfig } from '../../shared/config';
import { ensureTable, tableDefinition } from '../../shared/store/create-table';
import { ALL_INDEXES } from '../../shared/store/table-schema';
import { newTenant } from '../helpers/api';
import { clientFor } from '../helpers/tenant-client';

/**
 * A local table (`.helpdesk/`) created by an earlier version lacks the indexes of search slots
 * added since (`search9`, for `externalId1`): `ensureTable`, which `npm start` and the CLI run
 * on every start, adds them, so old local data keeps working.
 */
const client = localDynamoClient(inject('dynamodbEndpoint'));
const created: string[] = [];

afterEach(async () => {
  vi.unstubAllEnvs();
  resetConfig();
  for (const name of created.splice(0)) await client.send(new DeleteTableCommand({ TableName: name }));
});

const indexesOf = async (name: string) =>
  ((await client.send(new DescribeTableCommand({ TableName: name }))).Table?.GlobalSecondaryIndexes ?? [])
    .map((i) => [i.IndexName, i.IndexStatus])
    .sort();

describe('ensureTable on a table of an earlier version', () => {
  it('adds the missing index to a table holding data, and the API then serves the new search', async () => {
    const name = `helpdesk-old-${randomUUID().slice(0, 8)}`;
    const before = ALL_INDEXES.filter((index) => index.name !== 'search9v2');
    await client.send(new CreateTableCommand(tableDefinition(name, before)));
    created.push(name);
    expect(await indexesOf(name)).toHaveLength(ALL_INDEXES.length - 1);

    // Data written before the upgrade, through the API, into that table.
    vi.stubEnv('TABLE_NAME', name);
    resetConfig();
    const api = clientFor(await newTenant());
    const shopper = await api.create('/customer/insert', { name: 'Old', email: 'old@example.com' });
    const old = await api.create('/ticket/insert', {
      subject: 'old',
      description: 'd',
      openedBy: { id: shopper },
    });

    await ensureTable(client, name);
    expect(await indexesOf(name)).toEqual(ALL_INDEXES.map((index) => [index.name, 'ACTIVE']).sort());

    const ticket = await api.create('/ticket/insert', {
      subject: 'new',
      description: 'd',
      openedBy: { id: shopper },
      externalId1: 'ORD-1',
    });
    const found = await api.get('/ticket/list?externalId1=ORD-1');
    expect(found.status).toBe(200);
    expect(found.body.ticket).toMatchObject({ totalRecords: 1, records: [{ id: ticket }] });
    expect((await api.get(`/ticket/${old}`)).body).toMatchObject({ subject: 'old', externalId1: null });
    expect((await api.get('/customer/list?email=old@example.com')).body.customer.totalRecords).toBe(1);
  });

  it('leaves a current table alone', async () => {
    const name = `helpdesk-new-${randomUUID().slice(0, 8)}`;
    await ensureTable(client, name);
    created.push(name);
    const sent: string[] = [];
    client.middlewareStack.add(
      (next, context) => async (args) => {
        sent.push(context.commandName ?? '?');
        return next(args);
      },
      { step: 'initialize', name: 'watch-table-calls' },
    );
    try {
      await ensureTable(client, name);
    } finally {
      client.middlewareStack.remove('watch-table-calls');
    }
    expect(sent).not.toContain('UpdateTableCommand');
    expect(sent).not.toContain('CreateTableCommand');
    expect(await indexesOf(name)).toEqual(ALL_INDEXES.map((index) => [index.name, 'ACTIVE']).sort());
  });
});
