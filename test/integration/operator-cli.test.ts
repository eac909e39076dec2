import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { localDynamoClient } from '../../local/dynamodb-local';
import { forgetVerifiedTokens } from '../../shared/auth/access-tokens';
import { importLine } from '../../shared/schemas/import';
import { openPglite } from '../../shared/search/pglite-engine';
import { runSearch } from '../../shared/search/search-reads';
import { TICKETS } from '../../shared/search/searches';
import { pendingCascades } from '../../shared/store/cascades';
import { ensureTable } from '../../shared/store/create-table';
import { db, tableName } from '../../shared/store/dynamo';
import { keys } from '../../shared/store/keys';
import { invoke } from '../helpers/api';
import { collectionItems } from '../helpers/cascades';
import { settle } from '../helpers/feed';
import { legacyFixture, storeItems } from '../helpers/legacy-tenant';
import { tenantWithCustomer } from '../helpers/tenant-client';

/** The operator CLI as an operator runs it: a separate process against the test store. */
const cli = (...args: string[]) => cliWith({}, ...args);
const cliWith = (env: Record<string, string>, ...args: string[]) => {
  const out = spawnSync(process.execPath, ['--import', 'tsx', 'local/cli.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
};

const exchange = (apiToken: string) =>
  invoke('GET', '/oauth/token?grant_type=client_credentials', {
    headers: { authorization: `Basic ${apiToken}` },
  });

describe('operator CLI', () => {
  it('creates a client printing exactly one JSON line, lists it, revokes it', async () => {
    const created = cli('client', 'create', '--name', 'acme');
    expect(created.status, created.stderr).toBe(0);
    const lines = created.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const { clientId, apiToken } = JSON.parse(lines[0] as string);
    expect(Object.keys(JSON.parse(lines[0] as string))).toEqual(['clientId', 'apiToken']);
    expect(Buffer.from(apiToken, 'base64').toString()).toMatch(new RegExp(`^${clientId}:[\\w-]{43}$`));
    const token = await exchange(apiToken);
    expect(token.status).toBe(200);
    // Its seeded ticket types are in its change feed, created with it (docs/decisions.md, "Events").
    const bearer = { authorization: `Bearer ${token.body.access_token}`, clientid: clientId };
    await settle();
    const feed = (await invoke('GET', '/event/list?since=0', { headers: bearer })).body.event.records;
    const types = (await invoke('GET', '/ticketType/list', { headers: bearer })).body.type.records;
    expect(feed.map((e: { type: string }) => e.type)).toEqual(Array(4).fill('ticket_type.created'));
    expect(feed.map((e: { resourceId: string }) => e.resourceId).sort()).toEqual(
      types.map((t: { id: string }) => t.id).sort(),
    );

    // `client list` reads the clients' index, which DynamoDB updates a moment after the write
    // (eventually consistent, locally too under load): ask again for a few seconds.
    const listOnce = () => {
      const out = cli('client', 'list');
      const found = out.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { clientId: string });
      return { out, found };
    };
    let { out: listed, found: clients } = listOnce();
    for (let i = 0; i < 10 && !clients.some((c) => c.clientId === clientId); i++) {
      await new Promise((r) => setTimeout(r, 500));
      ({ out: listed, found: clients } = listOnce());
    }
    expect(listed.status).toBe(0);
    expect(clients).toContainEqual({
      clientId,
      name: 'acme',
      compat: 'standard',
      createdAt: expect.any(Number),
      revoked: false,
      homeRegion: expect.stringMatching(/^[a-z]{2}-[a-z]+-\d$/),
      trashDays: 30,
      historyDays: 730,
    });
    expect(listed.stdout).not.toContain(apiToken);

    const revoked = cli('client', 'revoke', '--client-id', clientId);
    expect(revoked.status).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ clientId, revoked: true });
    expect((await exchange(apiToken)).status).toBe(401);
  }, 120_000);

  it('pins a client to a compatibility profile at creation, shows it, and changes it', async () => {
    const created = cli('client', 'create', '--name', 'magento', '--compat', 'deskero');
    expect(created.status, created.stderr).toBe(0);
    const lines = created.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const { clientId, apiToken } = JSON.parse(lines[0] as string);
    const listed = () =>
      cli('client', 'list')
        .stdout.split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .find((c) => c.clientId === clientId);
    // The clients' index is eventually consistent (locally too, under load): ask again a while.
    const settled = { timeout: 20_000, interval: 500 };
    await expect.poll(listed, settled).toEqual({
      clientId,
      name: 'magento',
      compat: 'deskero',
      createdAt: expect.any(Number),
      revoked: false,
      homeRegion: expect.stringMatching(/^[a-z]{2}-[a-z]+-\d$/),
      trashDays: 30,
      historyDays: 730,
    });
    const token = (await exchange(apiToken)).body.access_token;
    const lookup = () =>
      invoke('GET', '/customer/list?page=1&email=nobody@example.com', {
        headers: { authorization: `Bearer ${token}`, clientid: clientId },
      });
    expect((await lookup()).status).toBe(204);

    const updated = cli('client', 'update', '--client-id', clientId, '--compat', 'standard');
    expect(updated.status, updated.stderr).toBe(0);
    expect(updated.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(JSON.parse(updated.stdout)).toEqual({ clientId, compat: 'standard' });
    await expect.poll(listed, settled).toMatchObject({ compat: 'standard' });
    forgetVerifiedTokens(); // a warm instance keeps the former profile for up to 30 s
    const standard = await lookup();
    expect(standard.status).toBe(200);
    expect(standard.body.customer.records).toEqual([]);
    expect(cli('client', 'update', '--client-id', clientId, '--compat', 'Deskero').status).toBe(0);
    await expect.poll(listed, settled).toMatchObject({ compat: 'deskero' });

    // A client created before profiles existed has none stored: it reads as standard.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.client(clientId),
        UpdateExpression: 'REMOVE compat',
      }),
    );
    await expect.poll(listed, settled).toMatchObject({ compat: 'standard' });
    forgetVerifiedTokens();
    expect((await lookup()).status).toBe(200);

    // The trash's retention: set alone, printed, listed; out of range or not a number, refused.
    const days = cli('client', 'update', '--client-id', clientId, '--trash-days', '0');
    expect(days.status, days.stderr).toBe(0);
    expect(JSON.parse(days.stdout)).toEqual({ clientId, trashDays: 0 });
    await expect.poll(listed, settled).toMatchObject({ trashDays: 0, compat: 'standard' });
    for (const bad of ['366', '-1', '1.5', 'week', '']) {
      const refused = cli('client', 'update', '--client-id', clientId, '--trash-days', bad);
      expect(refused.status, bad).toBe(2);
      expect(refused.stdout, bad).toBe('');
    }
    // The history's retention, the same way.
    const history = cli('client', 'update', '--client-id', clientId, '--history-days', '3650');
    expect(history.status, history.stderr).toBe(0);
    expect(JSON.parse(history.stdout)).toEqual({ clientId, historyDays: 3650 });
    await expect.poll(listed, settled).toMatchObject({ historyDays: 3650, trashDays: 0 });
    for (const bad of ['0', '3651', '-1', '1.5', 'year', '']) {
      const refused = cli('client', 'update', '--client-id', clientId, '--history-days', bad);
      expect(refused.status, bad).toBe(2);
      expect(refused.stdout, bad).toBe('');
    }
    expect(cli('client', 'update', '--client-id', clientId).status).toBe(2);
  }, 120_000);

  it('homes clients only in the deployment’s regions, and says where and from when a re-homed one writes', () => {
    const here = process.env.AWS_REGION ?? 'us-east-1';
    const regions = { REGIONS: here };
    const elsewhere = here === 'eu-west-9' ? 'eu-west-8' : 'eu-west-9';
    for (const args of [
      ['client', 'create', '--name', 'x', '--home-region', elsewhere],
      ['client', 'rehome', '--client-id', 'aaaaaaaaaaaaaaaaaaaaaaaa', '--region', elsewhere],
      ['client', 'create', '--name', 'x', '--home-region', 'not-a-region'],
    ]) {
      const refused = cliWith(regions, ...args);
      expect(refused.status, args.join(' ')).toBe(2);
      expect(refused.stdout, args.join(' ')).toBe('');
    }
    expect(cliWith(regions, 'client', 'create', '--name', 'x', '--home-region', elsewhere).stderr).toContain(
      `region ${elsewhere} is not one of this deployment's`,
    );
    const created = cliWith(regions, 'client', 'create', '--name', 'homed', '--home-region', here);
    expect(created.status, created.stderr).toBe(0);
    const { clientId } = JSON.parse(created.stdout);
    const before = Date.now();
    const moved = cliWith(regions, 'client', 'rehome', '--client-id', clientId, '--region', here);
    expect(moved.status, moved.stderr).toBe(0);
    const outcome = JSON.parse(moved.stdout);
    expect(outcome).toMatchObject({ clientId, homeRegion: here, oldHome: here, oldHomeFenced: true });
    expect(Date.parse(outcome.writesFrom)).toBeGreaterThan(before);
  }, 120_000);

  it('fails clearly: unknown client exit 1, usage errors exit 2, nothing on stdout', () => {
    for (const args of [
      ['client', 'revoke', '--client-id', 'aaaaaaaaaaaaaaaaaaaaaaaa'],
      ['client', 'update', '--client-id', 'aaaaaaaaaaaaaaaaaaaaaaaa', '--compat', 'deskero'],
    ]) {
      const unknown = cli(...args);
      expect(unknown.status, args.join(' ')).toBe(1);
      expect(unknown.stdout, args.join(' ')).toBe('');
      expect(JSON.parse(unknown.stderr.trim().split('\n').at(-1) as string)).toMatchObject({
        type: 'urn:helpdesk:problem:not-found',
        status: 404,
      });
    }
    for (const args of [
      [],
      ['client'],
      ['client', 'create'],
      ['client', 'create', '--nope', 'x'],
      ['client', 'create', '--name', 'x', '--compat', 'legacy'],
      ['client', 'create', '--name', 'x', '--compat'],
      ['client', 'update', '--client-id', 'aaaaaaaaaaaaaaaaaaaaaaaa'],
      ['client', 'update', '--compat', 'deskero'],
      ['client', 'update', '--client-id', 'aaaaaaaaaaaaaaaaaaaaaaaa', '--compat', 'legacy'],
      ['client', 'update', '--client-id', 'aaaaaaaaaaaaaaaaaaaaaaaa', '--name', 'x', '--compat', 'deskero'],
      ['client', 'list', '--compat', 'deskero'],
      ['user', 'list'],
    ]) {
      const res = cli(...args);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.stdout, args.join(' ')).toBe('');
    }
  }, 120_000);
});

describe('operator CLI: reindex', () => {
  const lines = (stdout: string) =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));

  it('rewrites one tenant written before issue 12, printing one JSON line; run again, it writes nothing', async () => {
    const legacy = legacyFixture();
    await storeItems(legacy.items);
    const first = cli('reindex', '--tenant', legacy.clientId);
    expect(first.status, first.stderr).toBe(0);
    expect(lines(first.stdout)).toEqual([
      {
        tenantId: legacy.clientId,
        itemsRead: expect.any(Number),
        itemsWritten: expect.any(Number),
        countsMoved: 7,
        skipped: [],
        complete: true,
      },
    ]);
    expect(lines(first.stdout)[0].itemsWritten).toBeGreaterThan(0);
    const again = cli('reindex', '--tenant', legacy.clientId);
    expect(again.status, again.stderr).toBe(0);
    expect(lines(again.stdout)).toEqual([
      expect.objectContaining({ itemsWritten: 0, countsMoved: 0, complete: true }),
    ]);
  }, 120_000);

  it('without --tenant rewrites every client of the table, in the order of their ids; --from skips what is done', async () => {
    // A table of its own: every client of the shared test table is other tests' tenant.
    const table = `reindex-${randomUUID().slice(0, 8)}`;
    const client = localDynamoClient(String(process.env.DYNAMODB_ENDPOINT));
    try {
      await ensureTable(client, table);
      const tenants = [legacyFixture(), legacyFixture()];
      for (const tenant of tenants) await storeItems(tenant.items, table);
      const ids = tenants.map((t) => t.clientId).sort();
      const all = cliWith({ TABLE_NAME: table }, 'reindex');
      expect(all.status, all.stderr).toBe(0);
      expect(lines(all.stdout).map((r) => [r.tenantId, r.complete, r.countsMoved])).toEqual(
        ids.map((id) => [id, true, 7]),
      );
      const rest = cliWith({ TABLE_NAME: table }, 'reindex', '--from', `${ids[1]}/TICKET/`);
      expect(rest.status, rest.stderr).toBe(0);
      expect(lines(rest.stdout)).toEqual([expect.objectContaining({ tenantId: ids[1], itemsWritten: 0 })]);
    } finally {
      await client.send(new DeleteTableCommand({ TableName: table }));
      client.destroy();
    }
  }, 180_000);

  it('fails clearly: an unknown tenant exits 1, usage errors exit 2, nothing on stdout', () => {
    const unknown = cli('reindex', '--tenant', 'aaaaaaaaaaaaaaaaaaaaaaaa');
    expect(unknown.status).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(JSON.parse(unknown.stderr.trim().split('\n').at(-1) as string)).toMatchObject({ status: 404 });
    for (const args of [
      ['reindex', 'now'],
      ['reindex', '--tenant'],
      ['reindex', '--tenant', 'acme'],
      ['reindex', '--name', 'x'],
      ['reindex', '--from', 'somewhere'],
      ['reindex', '--tenant', 'aaaaaaaaaaaaaaaaaaaaaaaa', '--from', 'bbbbbbbbbbbbbbbbbbbbbbbb/TICKET/'],
    ]) {
      const res = cli(...args);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.stdout, args.join(' ')).toBe('');
    }
    // Told another index migration step than the table's: it would drop what an index serves.
    const legacyStep = cliWith(
      { INDEX_MIGRATION_STEP: '4' },
      'reindex',
      '--tenant',
      'aaaaaaaaaaaaaaaaaaaaaaaa',
    );
    expect(legacyStep.status).toBe(2);
    expect(legacyStep.stdout).toBe('');
    expect(legacyStep.stderr).toContain('set INDEX_MIGRATION_STEP as the deployed functions have it');
  }, 120_000);
});

describe('operator CLI: cascades drain', () => {
  it('finishes the pending cascades of a tenant, printing one JSON line; usage errors exit 2', async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const ticket = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
    });
    await api.put(`/ticket/reply/${ticket}`, { text: 'r' });
    expect((await api.del(`/ticket/delete/${ticket}`)).status).toBe(200);
    expect((await api.del(`/ticket/purge/${ticket}`)).status).toBe(200);
    expect(await pendingCascades(tenant.clientId)).toHaveLength(1);
    const run = cli('cascades', 'drain', '--tenant', tenant.clientId);
    expect(run.status, run.stderr).toBe(0);
    expect(
      run.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    ).toEqual([{ finished: 1, failed: [] }]);
    expect(await pendingCascades(tenant.clientId)).toEqual([]);
    expect(await collectionItems(tenant.clientId, ticket)).toEqual([]);
    // Again: nothing left to do.
    expect(JSON.parse(cli('cascades', 'drain', '--tenant', tenant.clientId).stdout)).toEqual({
      finished: 0,
      failed: [],
    });
    for (const args of [
      ['cascades'],
      ['cascades', 'drain', 'now'],
      ['cascades', 'drain', '--tenant', 'acme'],
      ['cascades', 'drain', '--name', 'x'],
    ]) {
      const res = cli(...args);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.stdout, args.join(' ')).toBe('');
    }
  }, 120_000);
});

describe('operator CLI: search reindex', () => {
  it('rebuilds a tenant’s search index from the table, resumably; refuses the index of a running server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'helpdesk-search-cli-'));
    try {
      const { tenant, api, customer } = await tenantWithCustomer();
      for (const subject of ['Lamp flickers', 'Lamp dead', 'Door squeaks'])
        await api.create('/ticket/insert', { subject, description: 'd', openedBy: { id: customer } });
      const env = { HELPDESK_DATA_DIR: dir };
      const run = cliWith(env, 'search', 'reindex', '--tenant', tenant.clientId);
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout.trim())).toEqual({
        tenantId: tenant.clientId,
        customers: 1,
        tickets: 3,
        complete: true,
      });
      // The index it left in the data dir answers the searches.
      const index = await openPglite(join(dir, 'search'));
      try {
        const page = await runSearch(index, TICKETS, tenant.clientId, { query: 'lamp', page: 1 });
        expect(page.totalRecords).toBe(2);
        const other = await runSearch(index, TICKETS, tenant.clientId, { query: 'ada', page: 1 });
        expect(other.totalRecords).toBe(3);
      } finally {
        await index.close();
      }
      expect(cliWith(env, 'search', 'reindex', '--from', 'nonsense').status).toBe(2);
      // While a server holds the data dir's index, another process may not open it.
      writeFileSync(
        join(dir, 'endpoint.json'),
        JSON.stringify({ endpoint: 'http://127.0.0.1:9', pid: process.pid }),
      );
      const refused = cliWith(env, 'search', 'reindex', '--tenant', tenant.clientId);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(/belongs to the running server/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('operator CLI: import convert', () => {
  it('writes a Zendesk export as import lines on stdout, one JSON line each, and the rest on stderr', () => {
    const out = cli('import', 'convert', 'zendesk', 'test/fixtures/zendesk');
    expect(out.status, out.stderr).toBe(0);
    const lines = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // Each as the format reads it: reading it again changes nothing.
    for (const line of lines) expect(importLine.parse(line)).toEqual(line);
    expect(lines.map((l) => l.kind)).toEqual([
      'customer',
      'agent',
      'agent',
      'customer',
      'ticketGroup',
      'ticketType',
      'ticketType',
      'ticket',
      'ticket',
    ]);
    expect(out.stderr).toContain('warning: user 555001: no e-mail address');
    expect(out.stderr).toContain(
      '{"lines":{"customer":2,"agent":2,"ticketGroup":1,"ticketType":2,"ticket":2},"warnings":2,"refused":0}',
    );
  });

  it('reads a directory as the source named: Zendesk files hold no Deskero pages, so nothing converts (exit 1)', () => {
    const out = cli('import', 'convert', 'deskero', 'test/fixtures/zendesk');
    expect([out.status, out.stdout]).toEqual([1, '']);
    expect(out.stderr).toContain('{"lines":{},"warnings":0,"refused":0}');
  });

  it('fails clearly: a missing directory exits 1, an unknown source or stray option 2, nothing on stdout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'broken-export-'));
    writeFileSync(join(dir, 'users.json'), '{"users": [');
    const broken = cli('import', 'convert', 'zendesk', dir);
    expect([broken.status, broken.stdout]).toEqual([1, '']);
    expect(broken.stderr).toContain(`${join(dir, 'users.json')} is neither JSON nor NDJSON`);
    const missing = cli('import', 'convert', 'zendesk', 'test/fixtures/no-such-export');
    expect([missing.status, missing.stdout]).toEqual([1, '']);
    expect(missing.stderr).toContain('is not a directory');
    for (const args of [
      ['import', 'convert', 'freshdesk', 'test/fixtures/zendesk'],
      ['import', 'convert', 'zendesk'],
      ['import', 'convert', 'zendesk', 'test/fixtures/zendesk', '--tenant', 'x'],
    ]) {
      const out = cli(...args);
      expect([out.status, out.stdout], args.join(' ')).toEqual([2, '']);
    }
  });
});
