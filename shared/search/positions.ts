import { config } from '../config';
import { IndexBehind } from '../store/errors';
import { sortableTime, timeOf } from '../store/keys';
import type { SqlEngine } from './sql-engine';

/**
 * Positions: where a change is in its tenant's change feed (the sort key of its event:
 * `<sortable instant>#<event id>`, store/keys.ts `eventOrder`), answered by every write as
 * `Helpdesk-Position` and carried by its events in the feed. The indexer (search/indexer.ts)
 * applies a tenant's events in the order they committed; what it has applied is known two ways:
 *
 * - exactly, for the last EVENT_FEED_LAG_MS of positions (`search_applied`);
 * - by the watermark, the newest position applied (`search_tenants`): a change is stamped before it
 *   commits and commits at most EVENT_FEED_LAG_MS later (the feed's own frontier, domain/feed.ts),
 *   and one tenant's events reach the indexer in commit order (one partition of the stream), so
 *   once a change stamped LAG later than `p` is applied, so is `p`.
 *
 * Entries the watermark vouches for are dropped as it passes them, so `search_applied` holds a few
 * seconds of each tenant's writes.
 */
const POSITION = /^\d{17}#[0-9A-Za-z]{1,64}$/;

export const isPosition = (value: string): boolean => POSITION.test(value);

/** The position `ms` later than `position`'s instant, before any event then. */
const later = (position: string, ms: number): string => sortableTime(timeOf(position) + ms);

/** Records what a batch applied of a tenant's feed: the positions themselves, the watermark, and drops what it vouches for. */
export const recordApplied = async (engine: SqlEngine, tenantId: string, positions: readonly string[]) => {
  if (positions.length === 0) return;
  const newest = [...positions].sort().at(-1) as string;
  await engine.query(
    `WITH applied AS (
       INSERT INTO search_applied (tenant_id, position)
       SELECT $1, p FROM jsonb_array_elements_text($2::jsonb) AS p
       ON CONFLICT DO NOTHING
     ), mark AS (
       INSERT INTO search_tenants AS s (tenant_id, position, applied_at) VALUES ($1, $3, now())
       ON CONFLICT (tenant_id) DO UPDATE
       SET position = GREATEST(s.position, EXCLUDED.position), applied_at = now()
     )
     DELETE FROM search_applied WHERE tenant_id = $1 AND position < $4`,
    [tenantId, JSON.stringify(positions), newest, later(newest, -config().EVENT_FEED_LAG_MS)],
  );
};

/** Whether the index has applied the change at `position` (and so every change the tenant committed before it). */
export const hasApplied = async (engine: SqlEngine, tenantId: string, position: string): Promise<boolean> => {
  const [row] = await engine.query<{ applied: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM search_applied WHERE tenant_id = $1 AND position = $2)
       OR coalesce((SELECT position >= $3 FROM search_tenants WHERE tenant_id = $1), false) AS applied`,
    [tenantId, position, later(position, config().EVENT_FEED_LAG_MS)],
  );
  return row?.applied === true;
};

/** The tenant's watermark: the newest position applied, and when (undefined: nothing applied yet). */
export const watermark = async (engine: SqlEngine, tenantId: string) => {
  const [row] = await engine.query<{ position: string; applied_at: string }>(
    'SELECT position, applied_at::text AS applied_at FROM search_tenants WHERE tenant_id = $1',
    [tenantId],
  );
  return row ? { position: row.position, appliedAt: row.applied_at } : undefined;
};

/** How often a waiting search looks again. */
const POLL_MS = 100;

/**
 * A search's `Helpdesk-Min-Position`: returns once the index has applied `position`, or throws
 * IndexBehind after `waitMs` (a 503 with Retry-After: the search is not answered from an index that
 * does not have the change yet).
 */
export const awaitPosition = async (
  engine: SqlEngine,
  tenantId: string,
  position: string,
  waitMs: number,
): Promise<void> => {
  const until = Date.now() + waitMs;
  for (;;) {
    if (await hasApplied(engine, tenantId, position)) return;
    if (Date.now() >= until) throw new IndexBehind(position, waitMs);
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, until - Date.now()))));
  }
};
