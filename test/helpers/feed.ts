import { expect } from 'vitest';
import type { TenantClient } from './tenant-client';

/** Reading the change feed (`GET /event/list`) in tests: one page, or every page from a place on. */
export interface FeedEvent {
  id: string;
  type: string;
  occurredAt: number;
  resourceId: string;
  resource: Record<string, unknown> | null;
}
export interface FeedPage {
  nextQuery: string;
  previousQuery: null;
  records: FeedEvent[];
}

export const page = async (api: TenantClient, url: string): Promise<FeedPage> => {
  const res = await api.get(url);
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.event;
};

/** Waits past the feed's lag (100 ms in tests): events committed before are all readable then. */
export const settle = () => new Promise((r) => setTimeout(r, 150));

/** Every event from `url` on, following nextQuery until a page comes back empty; and where to poll. */
export const drain = async (api: TenantClient, url = '/event/list') => {
  const events: FeedEvent[] = [];
  let next = url;
  for (;;) {
    const p = await page(api, next);
    events.push(...p.records);
    expect(p.nextQuery).toMatch(/^https?:\/\/[^/]+\/event\/list\?/);
    if (p.records.length === 0) return { events, poll: p.nextQuery };
    next = p.nextQuery;
  }
};
