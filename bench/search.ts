import { performance } from 'node:perf_hooks';
import type { TicketDocument } from '../shared/search/documents';
import type { SqlEngine } from '../shared/search/sql-engine';
import { RECORDS_PER_PAGE } from '../shared/store/pages';
import { log, round } from './stats';

/**
 * Section 6 (issue 23): the search index. Three parts, on two engines:
 *
 * - **Scale** (native PostgreSQL 15, the AWS-like figures): a corpus of `total` tickets (subject,
 *   description, five replies: ~170 words each, drawn from a 5 000-word vocabulary with a skewed
 *   distribution, English configuration) in 100 tenants, one of them holding `big`; then five
 *   query shapes through the real search code (search/search-reads.ts `runSearch`) in the big
 *   tenant and in a small one: p50 / p95; the index's size per ticket.
 * - **Indexing throughput**: ticket rows written through the indexer's own statement
 *   (search/index-writes.ts `upsertTicket`), 4 at a time, on native PostgreSQL and on PGlite.
 * - **Freshness** (bench/run.ts, with DynamoDB Local): commit → searchable under a steady write
 *   load, through the local pipeline (stream poller → functions/search-indexer.ts).
 */
export interface QueryShape {
  shape: string;
  tenant: 'big' | 'small';
  matches: number;
  p50Ms: number;
  p95Ms: number;
}

export interface SearchScaleResult {
  engine: string;
  tickets: number;
  tenants: number;
  bigTenant: number;
  loadSeconds: number;
  bytesPerTicket: number;
  queries: QueryShape[];
}

export interface IndexingResult {
  engine: string;
  tickets: number;
  perSecond: number;
}

export interface FreshnessResult {
  engine: string;
  writes: number;
  writesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface SearchBench {
  scale?: SearchScaleResult;
  indexing: IndexingResult[];
  freshness: FreshnessResult[];
  /** ACU-hours per million searches and per million ticket writes, from the measured CPU time. */
  cost?: { acuHoursPerMillionSearches: number; acuHoursPerMillionWrites: number; assumptions: string };
}

const VOCABULARY = 5000;
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  're',
  'tu',
  'sa',
  'ne',
  'vo',
  'pi',
  'da',
  'go',
  'fe',
  'zu',
  'bri',
  'tan',
  'mor',
];

/** The i-th word of the vocabulary: three or four syllables, unique, not an English stem's prefix of another. */
export const vocabularyWord = (i: number): string => {
  const s = SYLLABLES.length;
  return `${SYLLABLES[i % s]}${SYLLABLES[Math.floor(i / s) % s]}${SYLLABLES[Math.floor(i / s / s) % s]}${i >= s * s * s ? SYLLABLES[Math.floor(i / s / s / s) % s] : ''}x`;
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/**
 * The corpus, written by PostgreSQL itself (one INSERT … SELECT per chunk): words drawn as
 * `vocabulary[1 + floor(random()^2.5 × 5000)]`, so a few words are very common and most rare.
 */
export const loadCorpus = async (
  engine: SqlEngine,
  plan: { total: number; tenants: number; big: number },
): Promise<{ seconds: number; tenantIds: string[] }> => {
  const started = performance.now();
  await engine.query('CREATE TABLE IF NOT EXISTS bench_vocabulary (words text[] NOT NULL)');
  await engine.query('TRUNCATE bench_vocabulary');
  await engine.query(
    'INSERT INTO bench_vocabulary SELECT ARRAY(SELECT jsonb_array_elements_text($1::jsonb))',
    [JSON.stringify(Array.from({ length: VOCABULARY }, (_, i) => vocabularyWord(i)))],
  );
  const tenantIds = Array.from(
    { length: plan.tenants },
    (_, i) => `bench-tenant-${String(i).padStart(3, '0')}`,
  );
  const rest = Math.floor((plan.total - plan.big) / (plan.tenants - 1));
  const chunk = 25_000;
  const words = (n: number) =>
    // Each aggregate reads its own row (`k`): one of the outer query's alone would make it the outer level's.
    `(SELECT string_agg(v.words[1 + floor(pow(random(), 2.5) * ${VOCABULARY})::int + 0 * k], ' ') FROM generate_series(1, ${n} + 0 * g) AS k)`;
  const replies = `(SELECT string_agg(${words(20)} || left('', r), E'\\n') FROM generate_series(1, 5 + 0 * g) AS r)`;
  const jobs: { tenant: string; from: number; to: number }[] = [];
  tenantIds.forEach((tenant, i) => {
    const count = i === 0 ? plan.big : rest;
    for (let from = 1; from <= count; from += chunk)
      jobs.push({ tenant, from, to: Math.min(count, from + chunk - 1) });
  });
  // Loaded without its indexes, which are then built whole (the schema's own definitions): faster
  // than growing a GIN index a row at a time.
  const indexes = await engine.query<{ name: string; definition: string }>(
    "SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 'search_tickets' AND indexname <> 'search_tickets_pkey'",
  );
  for (const index of indexes) await engine.query(`DROP INDEX ${index.name}`);
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++] as (typeof jobs)[number];
      await engine.query(
        `INSERT INTO search_tickets (tenant_id, id, version, config, status, priority, tags, opened_by,
           assigned_to, created_at, updated_at, has_attachment, subject, description, replies, notes,
           documents, customer)
         SELECT $1, lpad(g::text, 24, '0'), 1, 'english',
           (ARRAY['opened', 'on hold', 'solved', 'closed'])[1 + g % 4], g % 2,
           CASE WHEN g % 10 = 0 THEN ARRAY['vip'] ELSE ARRAY[]::text[] END,
           'c' || (g % 1000), 'a' || (g % 20), 1700000000000 + g * 1000, 1700000000000 + g * 1000 + 500,
           g % 7 = 0, ${words(6)}, ${words(30)}, ${replies}, NULL, NULL,
           'Customer ' || (g % 1000) || ' c' || (g % 1000) || '@example.com'
         FROM generate_series($2::int, $3::int) AS g, bench_vocabulary AS v`,
        [job.tenant, job.from, job.to],
      );
      done += job.to - job.from + 1;
      log(`  corpus: ${done} / ${plan.total} tickets`);
    }
  };
  await Promise.all([worker(), worker()]);
  // What the indexer's writes record beside each row (search/index-writes.ts): the configuration.
  await engine.query(
    `INSERT INTO search_configs (tenant_id, config)
     SELECT t, 'english' FROM jsonb_array_elements_text($1::jsonb) AS t ON CONFLICT DO NOTHING`,
    [JSON.stringify(tenantIds)],
  );
  log('  corpus: building its indexes');
  await Promise.all(indexes.map((index) => engine.query(index.definition)));
  // As autovacuum leaves a table in steady state: statistics, and the visibility map, which lets
  // a count of matches skip the heap pages that hold no recent change.
  log('  corpus: VACUUM ANALYZE');
  await engine.query('VACUUM ANALYZE search_tickets');
  return { seconds: (performance.now() - started) / 1000, tenantIds };
};

/** The five shapes, each with queries varied over the vocabulary so that no answer is a cached one. */
const shapes = (
  n: number,
): {
  shape: string;
  queries: { query: string; sort?: 'created'; page?: number; changed?: boolean }[];
}[] => {
  const top = (k: number) => vocabularyWord(k % 10);
  const common = (k: number) => vocabularyWord(10 + (k % 40));
  const mid = (k: number) => vocabularyWord(200 + ((k * 37) % 400));
  const rare = (k: number) => vocabularyWord(1500 + ((k * 53) % 2000));
  const list = <T>(make: (k: number) => T) => Array.from({ length: n }, (_, k) => make(k));
  return [
    { shape: 'one word', queries: list((k) => ({ query: mid(k) })) },
    { shape: 'phrase', queries: list((k) => ({ query: `"${top(k)} ${top(k + 3)}"` })) },
    {
      shape: 'words + filters',
      queries: list((k) => ({ query: `${common(k)} status:closed priority:1` })),
    },
    { shape: 'prefix', queries: list((k) => ({ query: `${rare(k).slice(0, 5)}*` })) },
    {
      shape: 'deep page (40, or the last) of a common word, by date',
      queries: list((k) => ({ query: top(k), sort: 'created', page: 40 })),
    },
    {
      // The same, the tenant's index changed since the page before (a write: its generation
      // moved), so the page counts every match again instead of carrying the total.
      shape: 'deep page, the index changed since the page before',
      queries: list((k) => ({ query: top(k), sort: 'created', page: 40, changed: true })),
    },
  ];
};

/** p50 / p95 of each shape through `runSearch`, in the big tenant and in a small one. */
export const measureQueries = async (
  engine: SqlEngine,
  big: string,
  small: string,
  runs: number,
): Promise<QueryShape[]> => {
  const { runSearch } = await import('../shared/search/search-reads');
  const { TICKETS } = await import('../shared/search/searches');
  const out: QueryShape[] = [];
  const tenants = [
    ['big', big],
    ['small', small],
  ] as const;
  const firstPage = (q: { query: string; sort?: 'created' }) => ({
    query: q.query,
    page: 1,
    ...(q.sort ? { sort: q.sort } : {}),
  });
  // One untimed pass first, as a searched tenant's index is held in the cache: the corpus was
  // just loaded, indexed and vacuumed through PostgreSQL's ring buffers, which leave it cold.
  for (const [, tenantId] of tenants)
    for (const { queries } of shapes(runs))
      for (const q of queries) await runSearch(engine, TICKETS, tenantId, firstPage(q));
  for (const [tenant, tenantId] of tenants) {
    for (const { shape, queries } of shapes(runs)) {
      const times: number[] = [];
      let matches = 0;
      for (const q of queries) {
        const request = firstPage(q);
        // A deep page: its cursor, as the pages before it hand it on (not timed).
        let cursor: { page: number; cursor?: string } = { page: 1 };
        if (q.page) {
          // Page 40, or the last page of a smaller tenant's matches.
          const first = await runSearch(engine, TICKETS, tenantId, request);
          const deepest = Math.min(q.page, Math.ceil(first.totalRecords / RECORDS_PER_PAGE));
          if (deepest < 2) throw new Error(`${q.query}: one page only in the ${tenant} tenant`);
          const skip = await runSearch(engine, TICKETS, tenantId, { ...request, page: deepest - 1 });
          cursor = (await skip.links(skip.hits.length)).next ?? cursor;
        }
        if (q.changed)
          await engine.query(
            `INSERT INTO search_changes AS g (tenant_id, generation) VALUES ($1, 1)
             ON CONFLICT (tenant_id) DO UPDATE SET generation = g.generation + 1`,
            [tenantId],
          );
        const t0 = performance.now();
        const page = await runSearch(engine, TICKETS, tenantId, { ...request, ...cursor });
        times.push(performance.now() - t0);
        matches += page.totalRecords;
      }
      out.push({
        shape,
        tenant,
        matches: Math.round(matches / Math.max(1, times.length)),
        p50Ms: round(percentile(times, 50), 1),
        p95Ms: round(percentile(times, 95), 1),
      });
      log(
        `  ${tenant} tenant, ${shape}: p50 ${round(percentile(times, 50), 1)} ms, p95 ${round(percentile(times, 95), 1)} ms`,
      );
    }
  }
  return out;
};

/** A realistic ticket row: the words of a ticket with five replies. */
const benchDocument = (i: number): TicketDocument => {
  const words = (n: number, seed: number) =>
    Array.from({ length: n }, (_, k) =>
      vocabularyWord(Math.floor(((seed * 7919 + k * 104729) % 1000) ** 2 / 200)),
    ).join(' ');
  return {
    id: `w${String(i).padStart(23, '0')}`,
    version: 1,
    status: 'opened',
    priority: i % 2,
    tags: i % 10 === 0 ? ['vip'] : [],
    openedBy: `c${i % 100}`,
    assignedTo: null,
    type: null,
    area: null,
    group: null,
    createdAt: 1_700_000_000_000 + i,
    updatedAt: 1_700_000_000_000 + i,
    hasAttachment: false,
    subject: words(6, i),
    description: words(30, i + 1),
    replies: Array.from({ length: 5 }, (_, r) => words(20, i + 2 + r)).join('\n'),
    notes: null,
    documents: null,
  };
};

/** Ticket rows written through the indexer's statement, `concurrency` at a time. */
export const measureIndexing = async (
  engine: SqlEngine,
  name: string,
  count: number,
  concurrency: number,
): Promise<IndexingResult> => {
  const { upsertTicket } = await import('../shared/search/index-writes');
  const docs = Array.from({ length: count }, (_, i) => benchDocument(i));
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < docs.length) await upsertTicket(engine, 'bench-indexing', docs[next++] as TicketDocument);
    }),
  );
  const perSecond = count / ((performance.now() - t0) / 1000);
  log(`  indexing on ${name}: ${round(perSecond, 0)} tickets/s`);
  return { engine: name, tickets: count, perSecond: round(perSecond, 0) };
};

/** The index's bytes per ticket row (table, TOAST and indexes). */
export const bytesPerTicket = async (engine: SqlEngine): Promise<number> => {
  const [row] = await engine.query<{ bytes: string; rows: string }>(
    "SELECT pg_total_relation_size('search_tickets')::text AS bytes, (SELECT count(*) FROM search_tickets)::text AS rows",
  );
  return Math.round(Number(row?.bytes) / Math.max(1, Number(row?.rows)));
};

/**
 * Commit → searchable under a steady write load: `perSecond` ticket inserts for `seconds`
 * through the API (in process), each one's `Helpdesk-Position` then polled every 10 ms until the
 * index has applied it (search/positions.ts `hasApplied`).
 */
export const measureFreshness = async (
  name: string,
  write: () => Promise<string>,
  applied: (position: string) => Promise<boolean>,
  perSecond: number,
  seconds: number,
): Promise<FreshnessResult> => {
  const lags: number[] = [];
  const waits: Promise<void>[] = [];
  const interval = 1000 / perSecond;
  const start = performance.now();
  for (let i = 0; i < perSecond * seconds; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    waits.push(
      (async () => {
        const position = await write();
        const committed = performance.now();
        while (!(await applied(position))) await new Promise((resolve) => setTimeout(resolve, 10));
        lags.push(performance.now() - committed);
      })(),
    );
  }
  await Promise.all(waits);
  const result = {
    engine: name,
    writes: lags.length,
    writesPerSecond: perSecond,
    p50Ms: round(percentile(lags, 50), 0),
    p99Ms: round(percentile(lags, 99), 0),
    maxMs: round(Math.max(...lags), 0),
  };
  log(`  freshness on ${name}: p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms (max ${result.maxMs})`);
  return result;
};
