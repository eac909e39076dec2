import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { esbuildOptions, functionBundling } from '../infra/bundling';
import { median, nowMs, progress } from './stats';

/**
 * Section 3: cold start. Every functions/*.ts is bundled the way the stack deploys it, next to a
 * baseline bundle that only creates a DynamoDB DocumentClient and a few single-library bundles.
 * Each bundle is imported by a fresh `node` process; the process's wall time (spawn to exit) and
 * the import time measured inside it are recorded. Rounds visit the bundles in a new random
 * order, with the baseline every few bundles, so machine drift hits all of them alike.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
/** What the largest function would cost started with `--enable-source-maps` (infra/bundling.ts says why it is not). */
const SOURCE_MAPS_FLAG = '--enable-source-maps';
export const OUT_DIR = join(root, 'bench', '.out');

export interface BundleTiming {
  name: string;
  /** `variant`: a function built or started otherwise than deployed by default (for comparison, no goal). */
  kind: 'function' | 'baseline' | 'library' | 'variant';
  bytes: number;
  /** Median wall time of `node -e "import(bundle)"`, spawn to exit. */
  processMedianMs: number;
  /** Median time of the dynamic import itself, measured inside the process. */
  importMedianMs: number;
  /** processMedianMs / baseline processMedianMs (goal <= COLD_START_RATIO, bench/report.ts). */
  ratio: number;
  /** importMedianMs / baseline importMedianMs. */
  importRatio: number;
  /** Largest contributors to the bundle, by npm package (`(project)` for our own code). */
  heaviest: { name: string; bytes: number }[];
  nodeFlags: string[];
}

export interface ColdStartResult {
  runs: number;
  node: string;
  nodeFlags: string[];
  bundles: BundleTiming[];
}

const BASELINE = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => ({ statusCode: 200, body: String(Boolean(client)) });
`;

/** One typical use of each library alone, so its import cost shows on its own. */
const LIBRARIES: Record<string, { needs: string; source: string }> = {
  zod: {
    needs: 'node_modules/zod',
    source: `import * as z from 'zod';
const schema = z.object({ name: z.string().min(1), email: z.email() });
export const handler = async (event) => schema.parse(event);`,
  },
  'zod/mini': {
    needs: 'node_modules/zod/mini',
    source: `import * as z from 'zod/mini';
const schema = z.object({ name: z.string().check(z.minLength(1)), email: z.email() });
export const handler = async (event) => schema.parse(event);`,
  },
  'powertools-logger': {
    needs: 'node_modules/@aws-lambda-powertools/logger',
    source: `import { Logger } from '@aws-lambda-powertools/logger';
const logger = new Logger({ serviceName: 'bench' });
export const handler = async () => logger.info('hello');`,
  },
  'middy-core': {
    needs: 'node_modules/@middy/core',
    source: `import middy from '@middy/core';
export const handler = middy().handler(async () => ({ statusCode: 200 }));`,
  },
  'client-secrets-manager': {
    needs: 'node_modules/@aws-sdk/client-secrets-manager',
    source: `import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
const client = new SecretsManagerClient({});
export const handler = async () => String(Boolean(client));`,
  },
  'client-s3': {
    needs: 'node_modules/@aws-sdk/client-s3',
    source: `import { S3Client } from '@aws-sdk/client-s3';
const client = new S3Client({});
export const handler = async () => String(Boolean(client));`,
  },
  // zod plus every schema our modules build at import time (config, the route table with every
  // resource's request schemas).
  'zod + our schemas': {
    needs: 'shared/routes.ts',
    source: ['shared/config.ts', 'shared/routes.ts']
      .filter((file) => existsSync(join(root, file)))
      .map((file, i) => `export * as m${i} from ${JSON.stringify(join(root, file))};`)
      .join('\n'),
  },
};

const dirOf = (name: string): string => name.replace(/[^\w-]+/g, '-');

const packageOf = (input: string): string =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? '(project)';

/** The largest packages in the bundle written to `file` (an absolute path) by the build of `meta`. */
const heaviest = (meta: Metafile, file: string): { name: string; bytes: number }[] => {
  const output = Object.keys(meta.outputs).find((o) => join(root, o) === file) ?? '';
  const byPackage = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(meta.outputs[output]?.inputs ?? {})) {
    const name = packageOf(input);
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  return [...byPackage.entries()]
    .map(([name, bytes]) => ({ name, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 8);
};

interface Target {
  name: string;
  kind: BundleTiming['kind'];
  file: string;
  bytes: number;
  heaviest: BundleTiming['heaviest'];
  flags: string[];
  wall: number[];
  imports: number[];
}

/** Bundles every function, the baseline and the libraries into bench/.out/<name>/index.mjs. */
const bundleAll = async (): Promise<Target[]> => {
  rmSync(OUT_DIR, { recursive: true, force: true });
  const srcDir = join(OUT_DIR, 'src');
  mkdirSync(srcDir, { recursive: true });
  const functionsDir = join(root, 'functions');
  const entries: { name: string; kind: BundleTiming['kind']; in: string }[] = readdirSync(functionsDir)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => ({ name: basename(f, '.ts'), kind: 'function', in: join(functionsDir, f) }));
  writeFileSync(join(srcDir, 'baseline.mjs'), BASELINE);
  entries.push({ name: 'baseline', kind: 'baseline', in: join(srcDir, 'baseline.mjs') });
  for (const [name, { needs, source }] of Object.entries(LIBRARIES)) {
    if (!existsSync(join(root, needs))) continue;
    const file = join(srcDir, `${dirOf(name)}.mjs`);
    writeFileSync(file, source);
    entries.push({ name, kind: 'library', in: file });
  }
  // One build with many entry points and no code splitting writes the same files as one build each.
  const result = await build({
    ...esbuildOptions(),
    entryPoints: entries.map((e) => ({ in: e.in, out: `${dirOf(e.name)}/index` })),
    outdir: OUT_DIR,
    metafile: true,
    absWorkingDir: root,
  });
  return entries.map((e) => {
    const file = join(OUT_DIR, dirOf(e.name), 'index.mjs');
    return {
      name: e.name,
      kind: e.kind,
      file,
      bytes: statSync(file).size,
      heaviest: heaviest(result.metafile, file),
      flags: [],
      wall: [],
      imports: [],
    };
  });
};

/** A function bundled as `-c tracing=true` deploys it (infra/bundling.ts `functionBundling`). */
const bundleTraced = async (fn: Target): Promise<Target> => {
  const name = `${fn.name} (tracing)`;
  const file = join(OUT_DIR, dirOf(name), 'index.mjs');
  const result = await build({
    ...esbuildOptions(functionBundling({ tracing: true })),
    entryPoints: [join(root, 'functions', `${fn.name}.ts`)],
    outfile: file,
    metafile: true,
    absWorkingDir: root,
  });
  return {
    ...fn,
    name,
    kind: 'variant',
    file,
    bytes: statSync(file).size,
    heaviest: heaviest(result.metafile, file),
    wall: [],
    imports: [],
  };
};

const IMPORT_SCRIPT =
  'const t = performance.now(); await import(process.argv[1]); ' +
  'process.stdout.write(String(performance.now() - t));';

/** Starts node on the bundle; resolves with wall time (spawn to exit) and in-process import time. */
const startOnce = (target: Target): Promise<{ wall: number; imported: number }> =>
  new Promise((resolve, reject) => {
    const started = nowMs();
    const child = spawn(
      process.execPath,
      [...target.flags, '--input-type=module', '-e', IMPORT_SCRIPT, pathToFileURL(target.file).href],
      {
        // What Lambda sets; no NODE_OPTIONS from our own process (tsx).
        env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', TABLE_NAME: 'helpdesk', LOG_LEVEL: 'INFO' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const wall = nowMs() - started;
      if (code !== 0) reject(new Error(`${target.name} exited with ${code}: ${err.slice(-2000)}`));
      else resolve({ wall, imported: Number(out) });
    });
  });

const shuffle = <T>(list: T[]): T[] => {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
};

export const runColdStart = async (runs: number): Promise<ColdStartResult> => {
  const building = progress('bundling');
  const targets = await bundleAll();
  building.done(`${targets.length} bundles in bench/.out/`);
  // The heaviest function twice more: started with source maps enabled, and built with X-Ray
  // tracing (`-c tracing=true`): what each would cost.
  const largest = targets.filter((t) => t.kind === 'function').reduce((a, b) => (b.bytes > a.bytes ? b : a));
  targets.push(
    {
      ...largest,
      kind: 'variant',
      name: `${largest.name} (${SOURCE_MAPS_FLAG})`,
      flags: [SOURCE_MAPS_FLAG],
      wall: [],
      imports: [],
    },
    await bundleTraced(largest),
  );

  const baseline = targets.find((t) => t.kind === 'baseline') as Target;
  const others = targets.filter((t) => t !== baseline);
  const baselineEvery = 8;
  const bar = progress('cold starts');
  const total = runs * (others.length + Math.ceil(others.length / baselineEvery));
  let done = 0;
  const sample = async (t: Target) => {
    const { wall, imported } = await startOnce(t);
    t.wall.push(wall);
    t.imports.push(imported);
    bar.update(++done, total);
  };
  await sample(baseline); // warm the file cache
  baseline.wall.length = 0;
  baseline.imports.length = 0;
  done = 0;
  for (let r = 0; r < runs; r++) {
    for (const [i, t] of shuffle(others).entries()) {
      if (i % baselineEvery === 0) await sample(baseline);
      await sample(t);
    }
  }
  bar.done(`${done} process starts`);

  const baseWall = median(baseline.wall);
  const baseImport = median(baseline.imports);
  return {
    runs,
    node: process.version,
    nodeFlags: [],
    bundles: targets.map((t) => ({
      name: t.name,
      kind: t.kind,
      bytes: t.bytes,
      processMedianMs: median(t.wall),
      importMedianMs: median(t.imports),
      ratio: median(t.wall) / baseWall,
      importRatio: median(t.imports) / baseImport,
      heaviest: t.heaviest,
      nodeFlags: t.flags,
    })),
  };
};
