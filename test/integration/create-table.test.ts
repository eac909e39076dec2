import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localDynamoClient } from '../../local/dynamodb-local';
import { resetConfig } from '../../shared/config';
import { ensureTable, moveIndexesTo, tableDefinition } from '../../shared/store/create-table';
import { INDEX_MIGRATION_STEPS, indexesAtStep } from '../../shared/store/migrations/legacy';
import { ALL_INDEXES } from '../../shared/store/table-schema';
import { newTenant } from '../helpers/api';
import { clientFor } from '../helpers/tenant-client';

/**
 * A table created by an earlier version has other indexes: in AWS the stack moves it one index
 * per deployment (`-c indexMigrationStep=<n>`, table-schema.ts `indexesAtStep`), locally
 * `ensureTable` (run by `npm start` and the CLI on every start) moves it in one go; either way
 * old data keeps working.
 */
const client = localDynamoClient(String(process.env.DYNAMODB_ENDPOINT));
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

describe('a table of an earlier version', () => {
  it('moves to the current indexes one index at a time, serving every search exactly at every step', async () => {
    const name = `helpdesk-old-${randomUUID().slice(0, 8)}`;
    await client.send(new CreateTableCommand(tableDefinition(name, indexesAtStep(0))));
    created.push(name);
    vi.stubEnv('TABLE_NAME', name);
    const atStep = (step: number) => {
      vi.stubEnv('INDEX_MIGRATION_STEP', String(step));
      resetConfig();
    };
    atStep(0);
    const api = clientFor(await newTenant());
    const shopper = await api.create('/customer/insert', { name: 'Old', email: 'old@example.com' });
    const agent = await api.create('/agent/insert', { name: 'Agent', email: 'agent@example.com' });
    const ticket = (i: number) =>
      api.create('/ticket/insert', {
        subject: `t${i}`,
        description: 'd',
        openedBy: { id: shopper },
        ...(i % 2 === 0 ? { assignedTo: { id: agent }, status: 'solved' } : {}),
        externalId1: `ORD-${i}`,
        tags: ['vip'],
      });
    const ids = [await ticket(0), await ticket(1)];
    /** Every search this table serves: its records by paging, and totalRecords equal to them. */
    const searches = async (step: number) => {
      const solved = ids.filter((_, i) => i % 2 === 0);
      const expected: [string, string[]][] = [
        ['/ticket/list', ids],
        ['/ticket/list?status=solved', solved],
        [`/ticket/list?assignedTo._id=${agent}`, solved],
        [`/ticket/list?openedBy._id=${shopper}`, ids],
        ['/ticket/list?externalId1=ORD-1', [ids[1] as string]],
        ['/ticket/list?tags=vip', ids],
        ['/ticket/list?managedDate=0', ids],
      ];
      for (const [url, want] of expected) {
        const page = (await api.get(url)).body.ticket;
        const found = page.records.map((r: { id: string }) => r.id);
        expect([...found].sort(), `step ${step}: ${url}`).toEqual([...want].sort());
        expect(page.totalRecords, `step ${step}: ${url}`).toBe(want.length);
      }
      expect((await api.get('/customer/list?email=old@example.com')).body.customer.totalRecords).toBe(1);
    };
    await searches(0);
    for (let step = 1; step <= INDEX_MIGRATION_STEPS; step++) {
      // What CloudFormation does in one deployment: one index created (DynamoDB fills it from
      // the items) or deleted; then the functions run with the step they were deployed with.
      await moveIndexesTo(client, name, indexesAtStep(step));
      atStep(step);
      ids.push(await ticket(ids.length));
      await searches(step);
    }
    expect(await indexesOf(name)).toEqual(ALL_INDEXES.map((index) => [index.name, 'ACTIVE']).sort());
    // And the table left at the last step is what ensureTable makes of an old one.
    vi.stubEnv('INDEX_MIGRATION_STEP', '');
    await ensureTable(client, name);
    expect(await indexesOf(name)).toEqual(ALL_INDEXES.map((index) => [index.name, 'ACTIVE']).sort());
  }, 120_000);

  it('is moved to the current indexes by ensureTable (npm start, the CLI), its data served', async () => {
    const name = `helpdesk-old-${randomUUID().slice(0, 8)}`;
    await client.send(new CreateTableCommand(tableDefinition(name, indexesAtStep(0))));
    created.push(name);
    vi.stubEnv('TABLE_NAME', name);
    vi.stubEnv('INDEX_MIGRATION_STEP', '0');
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
    vi.unstubAllEnvs();
    vi.stubEnv('TABLE_NAME', name);
    resetConfig();
    expect((await api.get(`/ticket/list?openedBy._id=${shopper}`)).body.ticket).toMatchObject({
      totalRecords: 1,
      records: [{ id: old, subject: 'old', externalId1: null }],
    });
    expect((await api.get('/customer/list?email=old@example.com')).body.customer.totalRecords).toBe(1);
  }, 60_000);

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
