import type { TenantClient } from '../local/tenant';
import { bareListQuery } from './bare-server';
import { describeRequests, type Meter, typicalUsage, type Usage } from './meter';
import { median, nowMs, progress, timed } from './stats';
import { totalUnits } from './unit-split';

/**
 * Section 2: a page reached by following nextQuery must cost what page 1 costs, however deep.
 * The deep page's URL is found by walking nextQuery once; then page 1 and the deep page are timed
 * in alternation (through the real handler, in process) so drift affects both alike. The same is
 * done with the bare index Query (no handler at all), to tell our share of any difference from
 * DynamoDB Local's.
 */
export interface DeepPagesResult {
  page: number;
  samples: number;
  page1MedianMs: number;
  deepMedianMs: number;
  /** deep / page 1; the goal is <= 1.3. */
  ratio: number;
  /** The index Query alone (Limit 26, from the start / from the deep page's position). */
  rawPage1MedianMs: number;
  rawDeepMedianMs: number;
  rawRatio: number;
  /** The same page by a bare `?page=n` (no cursor): O(n) key-only reads, for comparison. */
  barePageMedianMs: number;
  walkMs: number;
  /**
   * DynamoDB requests and read units of page 1 and of the deep page (they should match): as
   * DynamoDB Local reported them, and on AWS's rules (bench/aws-units.ts).
   */
  page1Cost: PageCost;
  deepCost: PageCost;
}

export interface PageCost {
  requests: string;
  readUnits: number;
  awsReadUnits: number;
}

/** Medians of `a` and `b`, timed in alternation (a b, b a, ...). */
const alternate = async (samples: number, a: () => Promise<number>, b: () => Promise<number>) => {
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < samples; i++) {
    if (i % 2 === 0) {
      as.push(await a());
      bs.push(await b());
    } else {
      bs.push(await b());
      as.push(await a());
    }
  }
  return [median(as), median(bs)] as const;
};

export const runDeepPages = async (
  api: TenantClient,
  meter: Meter,
  tenantId: string,
  page: number,
  samples: number,
): Promise<DeepPagesResult> => {
  const walk = progress(`walking nextQuery to page ${page}`);
  const started = nowMs();
  // Summary pages: what the index costs at depth (a detail page adds the same Query per ticket at any depth).
  const first = '/ticket/list?view=summary';
  let url = first;
  for (let p = 1; p < page; p++) {
    const next: string | null = (await api.get(url)).body.ticket.nextQuery;
    if (!next) throw new Error(`the list ends at page ${p}`);
    url = next;
    walk.update(p + 1, page);
  }
  const walkMs = nowMs() - started;
  walk.done(`page ${page} reached in ${(walkMs / 1000).toFixed(1)} s`);

  const time = async (path: string) => {
    const { ms, value } = await timed(() => api.get(path));
    if (value.status !== 200 || value.body.ticket.records.length !== 25) {
      throw new Error(`${path}: ${value.status}, ${value.body?.ticket?.records?.length} records`);
    }
    return ms;
  };
  // Warm both paths, and count what each costs (3 calls each: a rate-limit lease may land in one).
  const cost = async (path: string): Promise<PageCost> => {
    meter.askCapacity = true;
    meter.measureAws = true;
    const usages: Usage[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        meter.reset();
        await time(path);
        usages.push(meter.take());
      }
    } finally {
      meter.askCapacity = false;
      meter.measureAws = false;
    }
    const { usage } = typicalUsage(usages);
    const aws = usage.aws ? totalUnits(usage.aws.units).read : Number.NaN;
    return { requests: describeRequests(usage), readUnits: usage.readUnits, awsReadUnits: aws };
  };
  const page1Cost = await cost(first);
  const deepCost = await cost(url);

  const bar = progress('page 1 vs deep page');
  const [page1MedianMs, deepMedianMs] = await alternate(
    samples,
    () => time(first),
    () => time(url),
  );
  bar.done(`${samples} pairs through the handler`);

  // The bare index Query: walk to the same position with LastEvaluatedKey, then alternate.
  const query = (start?: Record<string, unknown>, limit = 26) => bareListQuery(tenantId, start, limit);
  let position: Record<string, unknown> | undefined;
  for (let p = 1; p < page; p++) position = (await query(position, 25)).LastEvaluatedKey;
  const rawTime = async (start?: Record<string, unknown>) => (await timed(() => query(start))).ms;
  const [rawPage1MedianMs, rawDeepMedianMs] = await alternate(
    samples,
    () => rawTime(),
    () => rawTime(position),
  );

  const bare: number[] = [];
  for (let i = 0; i < Math.min(5, samples); i++) bare.push(await time(`${first}&page=${page}`));

  return {
    page,
    samples,
    page1MedianMs,
    deepMedianMs,
    ratio: deepMedianMs / page1MedianMs,
    rawPage1MedianMs,
    rawDeepMedianMs,
    rawRatio: rawDeepMedianMs / rawPage1MedianMs,
    barePageMedianMs: median(bare),
    walkMs,
    page1Cost,
    deepCost,
  };
};
