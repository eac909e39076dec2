import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TicketDocument } from '../../shared/search/documents';
import { removeTicket, upsertTicket } from '../../shared/search/index-writes';
import { openPglite } from '../../shared/search/pglite-engine';
import { MIGRATIONS, migrate } from '../../shared/search/schema';
import { runSearch } from '../../shared/search/search-reads';
import { TICKETS } from '../../shared/search/searches';
import type { SqlEngine } from '../../shared/search/sql-engine';

/**
 * The index's schema on the real engine (PGlite): a later migration applied over rows an earlier
 * one holds, and what the indexer's writes record beside a row for the searches to read it by.
 */
let engine: SqlEngine;
beforeEach(async () => {
  engine = await openPglite();
});
afterEach(async () => {
  await engine.close();
});

const ids = async (tenant: string, query: string) =>
  (await runSearch(engine, TICKETS, tenant, { query, page: 1 })).hits.map((h) => h.id);

const ticket = (id: string, subject: string): TicketDocument => ({
  id,
  version: 1,
  status: 'opened',
  priority: 0,
  tags: [],
  openedBy: 'nobody',
  assignedTo: null,
  type: null,
  area: null,
  group: null,
  createdAt: 1,
  updatedAt: 1,
  hasAttachment: false,
  subject,
  description: null,
  replies: null,
  notes: null,
  documents: null,
});

describe('search schema', () => {
  it('migration 2 finds the rows migration 1 left in every configuration they are in', async () => {
    expect(await migrate(engine, MIGRATIONS.slice(0, 1))).toEqual([1]);
    for (const [tenant, id, config, subject] of [
      ['t-en', 'a', 'english', 'Running shoes'],
      ['t-it', 'b', 'italian', 'Pagamenti doppi'],
      ['t-it', 'c', 'simple', 'pagamenti'],
    ])
      await engine.query(
        `INSERT INTO search_tickets (tenant_id, id, version, config, status, priority, tags,
           created_at, updated_at, has_attachment, subject)
         VALUES ($1, $2, 1, $3::regconfig, 'opened', 0, '{}', 1, 1, false, $4)`,
        [tenant as string, id as string, config as string, subject as string],
      );
    expect(await migrate(engine)).toEqual([2]);
    expect(await migrate(engine)).toEqual([]);
    expect(await ids('t-en', 'run')).toEqual(['a']);
    // Stemmed in Italian for the Italian row, word for word for the other.
    expect(await ids('t-it', 'pagamento')).toEqual(['b']);
    expect(new Set(await ids('t-it', 'pagamenti'))).toEqual(new Set(['b', 'c']));
    expect(await ids('t-en', 'pagamenti')).toEqual([]);
  });

  it('a ticket whose customer is not indexed is found in the configuration it is stored in (simple)', async () => {
    await migrate(engine);
    await upsertTicket(engine, 't', ticket('x', 'Printers jammed'));
    expect(await ids('t', 'printers')).toEqual(['x']);
    expect(await ids('t', 'printer')).toEqual([]);
  });

  it("a page after the first carries its total while the tenant's index is unchanged, and counts again once it changed", async () => {
    await migrate(engine);
    for (let i = 0; i < 30; i++)
      await upsertTicket(engine, 't', { ...ticket(`r${i}`, 'Router down'), createdAt: i });
    const request = { query: 'router', sort: 'created' as const, page: 1 };
    const first = await runSearch(engine, TICKETS, 't', request);
    expect(first.totalRecords).toBe(30);
    const next = (await first.links(25)).next;
    const second = async () => runSearch(engine, TICKETS, 't', { ...request, ...next });
    expect((await second()).totalRecords).toBe(30);
    // Written by the indexer: the generation moved, the total is counted again.
    await upsertTicket(engine, 't', { ...ticket('new', 'Router again'), createdAt: 100 });
    expect((await second()).totalRecords).toBe(31);
    await removeTicket(engine, 't', 'new');
    expect((await second()).totalRecords).toBe(30);
    // A row taken away behind the writers' backs (which never happens) shows the total is carried,
    // not counted; the page itself is read as the index is.
    const fresh = (await (await runSearch(engine, TICKETS, 't', request)).links(25)).next;
    await engine.query("DELETE FROM search_tickets WHERE tenant_id = 't' AND id = 'r0'");
    const carried = await runSearch(engine, TICKETS, 't', { ...request, ...fresh });
    expect(carried.totalRecords).toBe(30);
    expect(carried.hits.map((h) => h.id)).toEqual(['r4', 'r3', 'r2', 'r1']);
  });
});
