/**
 * `npm run bench [-- --quick] [-- --only=ops,pages,cold,throughput,search,import] [-- --keep-bundles] [-- --profile]
 * [-- --import-tickets=<n>]`
 *
 * Measures, on this machine, against an in-memory DynamoDB Local started here: DynamoDB requests
 * and capacity per operation, deep-page latency, cold start and bundle size, the request overhead
 * of our middleware, and memory. Prints one Markdown table to stdout (progress goes to stderr)
 * and writes everything to bench/results/latest.json. What the numbers mean: docs/performance.md.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, platform, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localDynamoClient, startDynamoDbLocal } from '../local/dynamodb-local';
import { RECORDS_PER_PAGE } from '../shared/store/pages';
import { OUT_DIR, runColdStart } from './cold-start';
import type { NativePostgres } from './postgres';
import { evaluateGoals, type Results, renderTable } from './report';
import { log } from './stats';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
/**
 * `--profile`: the product server of the throughput section runs with `--cpu-prof` (bench/profile.ts);
 * the import section profiles its timed import (bench/.profile/import.cpuprofile).
 */
const profileDir = args.includes('--profile')
  ? join(fileURLToPath(new URL('.', import.meta.url)), '.profile')
  : undefined;
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const runs = (section: 'ops' | 'pages' | 'cold' | 'throughput' | 'search' | 'import') =>
  !only || only.includes(section);
/** `--import-tickets=<n>`: the tickets of the import section's timed run (100 000; --quick 1 000). */
const importTickets = Number(
  args.find((a) => a.startsWith('--import-tickets='))?.slice('--import-tickets='.length) ?? Number.NaN,
);

/** Sizes of the full run and of --quick (a fast check that everything still works). */
const plan = quick
  ? {
      tickets: 1100,
      realTickets: 100,
      samples: 3,
      deepPage: 40,
      pagePairs: 10,
      coldRuns: 3,
      warmRounds: 2,
      rewarmRounds: 1,
      rounds: 3,
      generations: 1,
      seconds: 2,
      replayRounds: 4,
      replayRequests: 500,
      signingRounds: 4,
      memoryRequests: 2000,
      import: { tickets: 1000, metered: 1000, apiTickets: 200 },
      search: {
        total: 20_000,
        tenants: 10,
        big: 6000,
        queryRuns: 5,
        indexed: 500,
        writesPerSecond: 10,
        freshnessSeconds: 5,
      },
    }
  : {
      tickets: 10_000,
      realTickets: 300,
      samples: 5,
      deepPage: 400,
      pagePairs: 40,
      coldRuns: 15,
      warmRounds: 6,
      rewarmRounds: 2,
      // A multiple of three: each of the three servers takes each place in the order as often.
      rounds: 6,
      generations: 3,
      seconds: 5,
      replayRounds: 20,
      replayRequests: 2000,
      signingRounds: 20,
      memoryRequests: 10_000,
      import: { tickets: 100_000, metered: 1000, apiTickets: 200 },
      search: {
        total: 1_000_000,
        tenants: 100,
        big: 300_000,
        queryRuns: 30,
        indexed: 5000,
        writesPerSecond: 20,
        freshnessSeconds: 30,
      },
    };

const root = fileURLToPath(new URL('..', import.meta.url));
const started = Date.now();

const machine = (): Results['machine'] => {
  // `java -version` writes to stderr.
  const java =
    spawnSync('java', ['-version'], { encoding: 'utf8' }).stderr?.split('\n')[0]?.trim() || 'unknown';
  const simulator = createRequire(import.meta.url).resolve('amplify-dynamodb-simulator/package.json');
  const { version } = JSON.parse(readFileSync(simulator, 'utf8')) as { version: string };
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryBytes: totalmem(),
    platform: `${platform()} ${process.arch}`,
    node: process.version,
    java,
    dynamodbLocal: `amplify-dynamodb-simulator ${version} (in memory)`,
    loadAverage: { start: loadavg(), end: [] },
  };
};

/** The native PostgreSQL 15 the search section loaded (its freshness runs on it too), once started. */
let nativeSearch: NativePostgres | undefined;

/**
 * Commit → searchable under a steady write load (bench/search.ts `measureFreshness`): the local
 * event pipeline (its stream poller every 250 ms, as Lambda polls a stream about four times a
 * second) and the indexer, first on PGlite, then on native PostgreSQL holding the corpus.
 */
const runFreshness = async (
  tenant: { clientId: string; headers: Record<string, string> },
  dynamoEndpoint: string,
  native: NativePostgres | undefined,
) => {
  const { startSqsLocal } = await import('../local/sqs-local');
  const { startEventPipeline } = await import('../local/event-pipeline');
  const { invoke } = await import('../local/invoke');
  const { searchEngine, provideSearchEngine } = await import('../shared/search/engine');
  const { hasApplied } = await import('../shared/search/positions');
  const { measureFreshness } = await import('./search');
  const sqs = await startSqsLocal({ queues: [{ name: 'bench.fifo', visibilityTimeoutSeconds: 5 }] });
  const pipeline = await startEventPipeline({
    dynamoEndpoint,
    tableName: 'helpdesk-bench',
    sqsEndpoint: sqs.endpoint,
    queueUrl: sqs.queueUrl('bench.fifo'),
    pollMs: 250,
  });
  const customer = (
    await invoke('POST', '/customer/insert', {
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      body: { name: 'Fresh Customer', email: 'fresh@example.com' },
    })
  ).body.id as string;
  let n = 0;
  const write = async () => {
    const res = await invoke('POST', '/ticket/insert', {
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      body: { subject: `fresh ticket ${n++}`, description: 'measured', openedBy: { id: customer } },
    });
    return String(res.headers['helpdesk-position']);
  };
  const out = [];
  try {
    const engines: [string, () => Promise<void>][] = [['PGlite', async () => undefined]];
    if (native)
      engines.push([
        'native PostgreSQL 15 (holding the corpus)',
        async () => provideSearchEngine(native.engine(4)),
      ]);
    for (const [name, use] of engines) {
      await use();
      const engine = await searchEngine();
      out.push(
        await measureFreshness(
          name,
          write,
          (p) => hasApplied(engine, tenant.clientId, p),
          plan.search.writesPerSecond,
          plan.search.freshnessSeconds,
        ),
      );
    }
  } finally {
    await pipeline.stop();
    await sqs.stop();
  }
  return out;
};

/**
 * Section 6, at scale (bench/search.ts): the corpus in native PostgreSQL 15, the five query shapes
 * in its big tenant and a small one, the size per ticket, and indexing throughput there and on PGlite.
 */
const measureSearchScale = async (results: Omit<Results, 'goals'>): Promise<void> => {
  const { startPostgres } = await import('./postgres');
  const { migrate } = await import('../shared/search/schema');
  const search = await import('./search');
  process.env.CURSOR_SECRET ??= randomBytes(32).toString('base64url');
  log('Section 6: search at scale (native PostgreSQL 15)');
  nativeSearch = await startPostgres();
  // Migrated through a connection of its own: the sessions opened after it have the settings
  // the migrations give the role (no JIT), as the Data API's have in AWS.
  const migrating = nativeSearch.engine(1);
  await migrate(migrating);
  await migrating.close();
  const engine = nativeSearch.engine(2);
  const { total, tenants, big, queryRuns, indexed } = plan.search;
  const { seconds, tenantIds } = await search.loadCorpus(engine, { total, tenants, big });
  log(`  corpus of ${total} tickets loaded in ${Math.round(seconds)} s`);
  const queries = await search.measureQueries(
    engine,
    tenantIds[0] as string,
    tenantIds[1] as string,
    queryRuns,
  );
  const bytesPerTicket = await search.bytesPerTicket(engine);
  const indexing = [await search.measureIndexing(nativeSearch.engine(4), 'native PostgreSQL 15', indexed, 4)];
  const { openPglite } = await import('../shared/search/pglite-engine');
  const pglite = await openPglite();
  await migrate(pglite);
  indexing.push(await search.measureIndexing(pglite, 'PGlite', indexed, 4));
  await pglite.close();
  results.search = {
    scale: {
      engine: 'native PostgreSQL 15',
      tickets: total,
      tenants,
      bigTenant: big,
      loadSeconds: Math.round(seconds),
      bytesPerTicket,
      queries,
    },
    indexing,
    freshness: [],
  };
};

const measureWithDynamo = async (results: Omit<Results, 'goals'>): Promise<void> => {
  log('Starting DynamoDB Local (in memory)…');
  const dynamo = await startDynamoDbLocal();
  const cleanups: (() => void)[] = [];
  try {
    // Before any shared module is imported: config is parsed once, on first use.
    Object.assign(process.env, {
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      TABLE_NAME: 'helpdesk-bench',
      CURSOR_SECRET: randomBytes(32).toString('base64url'),
      AWS_REGION: 'us-east-1',
      LOG_LEVEL: 'ERROR',
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      // The limit is enforced (leases of 50 requests, as with the default 1200), but never reached.
      RATE_LIMIT_PER_MINUTE: '1000000',
      // No operation measured here touches S3; should one, it fails fast instead of going to AWS.
      S3_ENDPOINT: 'http://127.0.0.1:9',
      BUCKET_NAME: 'helpdesk-bench',
    });
    for (const name of ['PUBLIC_BASE_URL', 'CURSOR_SECRET_ARN']) delete process.env[name];
    // The search section may have read the configuration already: read it again, with the store.
    (await import('../shared/config')).resetConfig();
    (await import('../shared/store/dynamo')).resetDb();
    const client = localDynamoClient(dynamo.endpoint);
    const { ensureTable } = await import('../shared/store/create-table');
    await ensureTable(client, 'helpdesk-bench');
    client.destroy();

    const { db } = await import('../shared/store/dynamo');
    const { Meter } = await import('./meter');
    const { setupTenant, createDetailTicket } = await import('./fixtures');
    const { seedTickets } = await import('./seed');
    const meter = new Meter();
    meter.askCapacity = false;
    meter.install(db());
    // AWS units are computed from item images read through a client of their own, unmetered.
    const { AwsMetering } = await import('./aws-metering');
    const { indexDifferences } = await import('./index-differences');
    const raw = DynamoDBDocumentClient.from(localDynamoClient(String(process.env.DYNAMODB_ENDPOINT)), {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
    cleanups.push(() => raw.destroy());
    const metering = new AwsMetering(raw);
    meter.useAwsRules(metering);
    const { indexes } = await metering.shape('helpdesk-bench');
    results.awsRules = { indexes, differsFromSchema: indexDifferences(indexes) };
    const differences = results.awsRules.differsFromSchema;
    if (differences.length > 0)
      log(
        `  note: AWS units follow the bench table's indexes, which differ from table-schema.ts in ` +
          `${differences.length} ways (awsRules in the results), e.g. ${differences[0]}`,
      );

    const fx = await setupTenant();
    // The throughput section's list reads page 1: a full page of 25 tickets at least.
    const seedCount = runs('ops') || runs('pages') ? plan.tickets : runs('throughput') ? 30 : 0;
    if (seedCount > 0) {
      const seed = await seedTickets(fx.tenant.clientId, fx.refs, {
        from: 0,
        total: seedCount,
        realCount: plan.realTickets,
        concurrency: 8,
      });
      results.seed = { ...seed, tenantTickets: seedCount };
    }

    // Deep pages before the operations: then page 1 holds seeded tickets like page 400 does, so
    // both pages point at the same mix of customers, agents and lookups (same BatchGet).
    if (runs('pages')) {
      log(`Section 2: page ${plan.deepPage} vs page 1`);
      const { runDeepPages } = await import('./deep-pages');
      results.deepPages = await runDeepPages(
        fx.api,
        meter,
        fx.tenant.clientId,
        plan.deepPage,
        plan.pagePairs,
      );
    }
    if (runs('ops')) {
      log('Section 1: requests and capacity per operation');
      const { runLocalAccounting } = await import('./local-accounting');
      results.localAccounting = await runLocalAccounting(raw, metering);
      const { runOperations } = await import('./operations');
      meter.askCapacity = true;
      results.operations = await runOperations(fx, meter, plan.samples);
      meter.askCapacity = false;
      results.capacityReported = results.operations.some((o) => o.local.readUnits + o.local.writeUnits > 0);
    }
    if (runs('throughput')) {
      log('Sections 4 and 5: overhead and memory');
      const { runThroughput } = await import('./throughput');
      const ticketId = await createDetailTicket(fx);
      if (profileDir) rmSync(profileDir, { recursive: true, force: true });
      const { throughput, memory, served } = await runThroughput({
        tenantId: fx.tenant.clientId,
        authorization: fx.tenant.headers.authorization,
        targets: [
          { name: 'ticket detail', path: `/ticket/${ticketId}`, replayPerRound: plan.replayRequests },
          // A page is RECORDS_PER_PAGE details: a round of as much work as the detail's.
          {
            name: 'ticket list',
            path: '/ticket/list',
            replayPerRound: plan.replayRequests / RECORDS_PER_PAGE,
          },
        ],
        replayRounds: plan.replayRounds,
        concurrency: 8,
        warmRounds: plan.warmRounds,
        rewarmRounds: plan.rewarmRounds,
        rounds: plan.rounds,
        generations: plan.generations,
        secondsPerRound: plan.seconds,
        memoryRequests: plan.memoryRequests,
        ...(profileDir ? { profileDir } : {}),
      });
      results.throughput = throughput;
      if (profileDir) {
        const { compareProfiles } = await import('./profile');
        log(
          `\nCPU ms per request served (${served.product} and ${served.bare}): product server, bare server, difference (bench/profile.ts)`,
        );
        for (const r of compareProfiles(profileDir, served))
          log(
            `${[r.product, r.bare, r.product - r.bare].map((v) => v.toFixed(3).padStart(7)).join(' ')}  ${r.owner}`,
          );
      }
      results.memory = memory;
      log("  the store client's signing: our SHA-256 against the SDK's own");
      const { measureSigning } = await import('./signing');
      results.signing = await measureSigning(plan.signingRounds, 2000);
    }
    if (runs('search') && results.search) {
      log('Section 6: search freshness (commit → searchable) through the local pipeline');
      results.search.freshness = await runFreshness(fx.tenant, dynamo.endpoint, nativeSearch);
    }
    if (runs('import')) {
      log('Section 7: an import job (routes, local S3 and SQS, the worker)');
      const { runImportBench } = await import('./import');
      const tickets =
        Number.isSafeInteger(importTickets) && importTickets > 0 ? importTickets : plan.import.tickets;
      results.import = await runImportBench(meter, {
        ...plan.import,
        tickets,
        dynamoEndpoint: dynamo.endpoint,
        ...(profileDir ? { profileDir } : {}),
      });
      const profile = results.import.profile;
      if (profile) {
        log(`\nTop 15 functions by self time over the import (${profile.file}): ms, share, function, file`);
        for (const f of profile.top)
          log(
            `${String(f.selfMs).padStart(7)} ${(f.share * 100).toFixed(1).padStart(5)} %  ${f.name}  ${f.file}`,
          );
        log('\nSelf time by owner: ms, share, owner');
        for (const o of profile.owners)
          log(`${String(o.selfMs).padStart(7)} ${(o.share * 100).toFixed(1).padStart(5)} %  ${o.owner}`);
      }
    }
  } finally {
    for (const cleanup of cleanups) cleanup();
    await dynamo.stop();
  }
};

const main = async () => {
  const results: Omit<Results, 'goals'> = {
    version: 1,
    startedAt: new Date(started).toISOString(),
    durationSeconds: 0,
    quick,
    machine: machine(),
    capacityReported: false,
  };
  const load = results.machine.loadAverage.start.map((l) => l.toFixed(1)).join(' ');
  log(
    `helpdesk bench${quick ? ' (--quick)' : ''}: ${results.machine.cpus} CPUs, node ${process.version}, load ${load}`,
  );
  // Cold starts first, while nothing else (DynamoDB Local's JVM) competes for the CPUs.
  if (runs('cold')) {
    log('Section 3: cold start and bundle size');
    results.coldStart = await runColdStart(plan.coldRuns);
  }
  try {
    if (runs('search')) await measureSearchScale(results);
    if (runs('ops') || runs('pages') || runs('throughput') || runs('search') || runs('import'))
      await measureWithDynamo(results);
  } finally {
    await nativeSearch?.stop();
    // Every section's bundles (cold start's, the throughput servers'), once the last has run.
    if (!args.includes('--keep-bundles')) rmSync(OUT_DIR, { recursive: true, force: true });
  }

  results.durationSeconds = Math.round((Date.now() - started) / 1000);
  results.machine.loadAverage.end = loadavg();
  const final: Results = { ...results, goals: evaluateGoals(results) };
  const file = join(root, 'bench', 'results', 'latest.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(final, null, 2)}\n`);

  process.stdout.write(`${renderTable(final)}\n\n`);
  for (const g of final.goals) log(`${g.pass ? 'PASS' : 'FAIL'}  ${g.name}: ${g.actual} (goal ${g.target})`);
  log(`\n${final.durationSeconds} s; results in bench/results/latest.json`);
};

await main();
