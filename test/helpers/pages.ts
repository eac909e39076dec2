import { expect } from 'vitest';
import type { TenantClient } from './tenant-client';

/**
 * Every record of a paged list, following its nextQuery links from `url` (the client takes their
 * absolute URLs), and every `totalRecords` its pages said (one value when the count held).
 */
export const everyRecord = async <T = Record<string, unknown>>(api: TenantClient, url: string) => {
  const records: T[] = [];
  const totals = new Set<number>();
  let next: string | null = url;
  while (next) {
    const res = await api.get(next);
    expect(res.status, `${next}: ${JSON.stringify(res.body)}`).toBe(200);
    const [list] = Object.values(res.body) as {
      totalRecords: number;
      records: T[];
      nextQuery: string | null;
    }[];
    records.push(...(list?.records ?? []));
    totals.add(list?.totalRecords ?? -1);
    next = list?.nextQuery ?? null;
  }
  return { records, totals: [...totals] };
};
