import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { listClientItems } from '../store/client-items';
import { db, tableName } from '../store/dynamo';
import type { Item } from '../store/entity';
import { queryOf } from '../store/expression';
import { inParallel } from '../store/in-parallel';
import { keys } from '../store/keys';
import { LIST_INDEX } from '../store/table-schema';
import { searchEngine } from './engine';
import { indexCustomer, indexTicket } from './indexer';
import type { SqlEngine } from './sql-engine';

/**
 * `helpdesk search reindex [--tenant <id>] [--from <position>]`: the index of a tenant rebuilt
 * from the table, the runbook's recovery for a lost or corrupt index (docs/search.md). Customers
 * first (a ticket's row reads its customer's), then tickets, each kind oldest first (its `list`
 * index, by `listsk`, which never changes), a page of PAGE records at a time, each record indexed
 * as the table holds it now (search/indexer.ts: the same writes as the stream's, version-guarded,
 * so a rebuild beside the live indexer is safe). Resumable: `onProgress` reports
 * `<tenant>/<KIND>/<listsk>` after each page, and `from` continues after it.
 */
const PAGE = 100;
const AT_ONCE = 8;
const KINDS = ['CUSTOMER', 'TICKET'] as const;

export interface RebuildReport {
  tenantId: string;
  customers: number;
  tickets: number;
  /** False when stopped by `signal` before the end. */
  complete: boolean;
}

export const parseRebuildPosition = (text: string) => {
  const [tenantId, kind, after] = text.split('/');
  return tenantId && after && KINDS.includes(kind as (typeof KINDS)[number])
    ? { tenantId, kind: kind as (typeof KINDS)[number], after }
    : undefined;
};

const idOf = (item: Item) => String(item.pk).slice(String(item.pk).lastIndexOf('#') + 1);

export const rebuildTenant = async (
  engine: SqlEngine,
  tenantId: string,
  options: { from?: string; signal?: AbortSignal; onProgress?: (position: string) => void } = {},
): Promise<RebuildReport> => {
  const report: RebuildReport = { tenantId, customers: 0, tickets: 0, complete: false };
  const from = options.from ? parseRebuildPosition(options.from) : undefined;
  for (const kind of KINDS) {
    if (from && KINDS.indexOf(kind) < KINDS.indexOf(from.kind)) continue;
    // Resuming: the index's key of the record reported last (its list order ends with its id).
    let start: Item | undefined =
      from?.kind === kind
        ? {
            ...keys.record(tenantId, kind, from.after.slice(from.after.lastIndexOf('#') + 1)),
            listpk: keys.list(tenantId, kind),
            listsk: from.after,
          }
        : undefined;
    do {
      if (options.signal?.aborted) return report;
      const out = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: LIST_INDEX.name,
          ...queryOf(
            { partition: [LIST_INDEX.partition, keys.list(tenantId, kind)] },
            { project: ['pk', 'sk', 'listsk'] },
          ),
          ScanIndexForward: true,
          Limit: PAGE,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      const items = out.Items ?? [];
      await inParallel(items, AT_ONCE, (item) =>
        kind === 'CUSTOMER'
          ? indexCustomer(engine, tenantId, idOf(item))
          : indexTicket(engine, tenantId, idOf(item)),
      );
      if (kind === 'CUSTOMER') report.customers += items.length;
      else report.tickets += items.length;
      start = out.LastEvaluatedKey;
      const last = items.at(-1);
      if (last) options.onProgress?.(`${tenantId}/${kind}/${String(last.listsk)}`);
    } while (start);
  }
  report.complete = true;
  return report;
};

/**
 * `npm start` on an index with nothing in it (a first start, or its files lost) over a store that
 * has accounts: every account rebuilt. Answers what it indexed (nothing for an index in use).
 */
export const rebuildEmptyIndex = async (): Promise<RebuildReport[]> => {
  const engine = await searchEngine();
  const [row] = await engine.query<{ used: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM search_tenants) OR EXISTS (SELECT 1 FROM search_tickets)
       OR EXISTS (SELECT 1 FROM search_customers) AS used`,
  );
  if (row?.used) return [];
  const reports: RebuildReport[] = [];
  for (const tenantId of await tenantIds()) reports.push(await rebuildTenant(engine, tenantId));
  return reports;
};

/** Every account's id (its tenant), in a stable order. */
export const tenantIds = async (): Promise<string[]> =>
  (await listClientItems()).map((item) => String(item.clientId)).sort();
