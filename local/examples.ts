import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Examples } from '../shared/http/openapi-examples';

/**
 * The document's examples (issue 25): real exchanges the integration tests make, never written
 * by hand. `npm run examples` runs the integration tests with `CAPTURE_EXAMPLES` set (each test
 * process keeps its best exchange per operation, status and problem type:
 * test/helpers/example-capture.ts), reduces what they kept to docs/examples.json and rewrites
 * the document, which embeds them (shared/http/openapi.ts). test/unit/openapi-examples.test.ts
 * fails when an operation lacks one or one no longer matches its schema.
 */
const EXAMPLES_FILE = fileURLToPath(new URL('../docs/examples.json', import.meta.url));

/** One request and its answer, as a test made it. */
export interface Exchange {
  operationId: string;
  status: number;
  /** A problem's `type` (problem answers are kept per type). */
  problemType?: string;
  /** Its query parameters (a success's). */
  query?: Record<string, string>;
  /** The JSON body sent, on routes that take one (a success's). */
  request?: unknown;
  response: unknown;
}

/** A value no one reads: a blob, a token, a long run of text. */
const LONG_STRING = /"[^"]{120,}"/;
const EMPTY_LIST = /"(?:records|results|replies|notes|documents|events|errors|deliveries)":\[\]/;
/** Longer than this, an example is hard to read: the shortest of those is kept only when no shorter one exists. */
const READABLE = 1500;

/**
 * How an exchange ranks (lower first): one with something in its lists and no long blob before
 * others, a request that sends something before an empty one, then one that fits on a screen (the fullest
 * of those: the most fields shown) before a longer one (the shortest of those), then text order.
 */
const weight = (e: Exchange): [number, number, number, string] => {
  const text = JSON.stringify([e.query ?? null, e.request ?? null, e.response]);
  const emptyRequest = e.request !== undefined && JSON.stringify(e.request) === '{}';
  return [
    (EMPTY_LIST.test(text) ? 1 : 0) + (LONG_STRING.test(text) ? 1 : 0),
    emptyRequest ? 1 : 0,
    text.length <= READABLE ? -text.length : text.length,
    text,
  ];
};

const lighter = (a: ReturnType<typeof weight>, b: ReturnType<typeof weight>): boolean => {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number);
  return a[3] < b[3];
};

/** The key an exchange competes under: one success per operation and status, one answer per problem type. */
const exchangeKey = (e: Exchange): string =>
  e.problemType ? `problem ${e.problemType}` : `${e.operationId} ${e.status}`;

/**
 * The preferred exchange of each key among those offered (a test process's, then all of a run's),
 * each weighed once.
 */
export const preferredExchanges = () => {
  const best = new Map<string, { exchange: Exchange; weight: ReturnType<typeof weight> }>();
  return {
    offer(exchange: Exchange): void {
      const key = exchangeKey(exchange);
      const current = best.get(key);
      const w = weight(exchange);
      if (!current || lighter(w, current.weight)) best.set(key, { exchange, weight: w });
    },
    /** In key order, so the file is the same for the same exchanges. */
    kept: (): Exchange[] =>
      [...best.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, { exchange }]) => exchange),
  };
};

/** The examples of the captured exchanges: each key's preferred one. */
const reduceExchanges = (exchanges: Iterable<Exchange>, primary: Record<string, number>): Examples => {
  const best = preferredExchanges();
  for (const e of exchanges) best.offer(e);
  const operations: Examples['operations'] = {};
  const problems: Examples['problems'] = {};
  for (const e of best.kept()) {
    if (e.problemType) problems[e.problemType] = e.response;
    else if (primary[e.operationId] === e.status)
      operations[e.operationId] = {
        status: e.status,
        ...(e.query === undefined ? {} : { query: e.query }),
        ...(e.request === undefined ? {} : { request: e.request }),
        response: e.response,
      };
  }
  return { operations, problems };
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { routes } = await import('../shared/routes');
  const from = process.argv.indexOf('--from');
  const dir = from > 0 ? (process.argv[from + 1] as string) : mkdtempSync(join(tmpdir(), 'examples-'));
  if (from < 0) {
    const run = spawnSync('npx', ['vitest', 'run', '--project', 'integration'], {
      stdio: 'inherit',
      env: { ...process.env, CAPTURE_EXAMPLES: dir },
    });
    if (run.status !== 0) throw new Error('the integration tests failed: no examples written');
  }
  const exchanges = readdirSync(dir).flatMap(
    (file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Exchange[],
  );
  const primary = Object.fromEntries(routes.map((r) => [r.operationId, r.responses.success[0]]));
  const examples = reduceExchanges(exchanges, primary);
  writeFileSync(EXAMPLES_FILE, `${JSON.stringify(examples, null, 2)}\n`);
  console.log(
    `wrote docs/examples.json: ${Object.keys(examples.operations).length} operations, ${Object.keys(examples.problems).length} problem types, from ${exchanges.length} exchanges`,
  );
  if (from < 0) rmSync(dir, { recursive: true, force: true });
  const write = spawnSync('npx', ['tsx', 'local/openapi.ts'], { stdio: 'inherit' });
  process.exitCode = write.status ?? 1;
}
