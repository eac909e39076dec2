import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App } from 'aws-cdk-lib';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHelpdeskStack } from '../../infra/app';
import { buildEvent } from '../../local/event';
import type { HttpHandler } from '../../local/lambda-runtime';
import { lambdaContext } from '../../local/lambda-runtime';
import { type Route, routes } from '../../shared/routes';

/**
 * The packages `cdk synth` builds: the whole stack synthesized with bundling on (esbuild, then the
 * functions' afterBundling hooks), into a temporary cloud assembly. About 40 s: every function
 * is bundled once, and all of them are checked.
 */
const BUNDLE_LIMIT_BYTES = 500_000;
const repoFile = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url));

let outdir: string;
/** Asset directory of each route's function, by operationId. */
const packages = new Map<string, string>();
/** Asset directory of each function outside the route table (the workers'), by construct id. */
const otherPackages = new Map<string, string>();

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'helpdesk-synth-'));
  const app = new App({
    outdir,
    context: { removalPolicy: 'destroy', deletionProtection: 'false', 'aws:cdk:enable-asset-metadata': true },
  });
  const stack = buildHelpdeskStack(app);
  app.synth();
  const template = JSON.parse(readFileSync(join(outdir, `${stack.stackName}.template.json`), 'utf8'));
  const packageOfFunction = (fn: { node: { defaultChild?: unknown } }): string => {
    const id = stack.getLogicalId(fn.node.defaultChild as never);
    return join(outdir, template.Resources[id].Metadata['aws:asset:path']);
  };
  for (const route of routes) {
    const fn = stack.functions.get(route.operationId);
    if (!fn) throw new Error(`No function for ${route.operationId}`);
    packages.set(route.operationId, packageOfFunction(fn));
  }
  for (const fn of [stack.webhooks.fanout, stack.webhooks.deliver, stack.imports.worker])
    otherPackages.set(fn.node.id, packageOfFunction(fn));
  // The search index's functions, in its nested stack's template.
  const { search } = stack;
  const nested = JSON.parse(readFileSync(join(outdir, search.stack.templateFile), 'utf8'));
  for (const fn of [search.indexer, search.migrator]) {
    const id = search.stack.getLogicalId(fn.node.defaultChild as never);
    otherPackages.set(fn.node.id, join(outdir, nested.Resources[id].Metadata['aws:asset:path']));
  }
}, 300_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

const packageOf = (r: Route): string => packages.get(r.operationId) as string;

describe('function packages', () => {
  it(`keeps every bundle under ${BUNDLE_LIMIT_BYTES / 1000} KB of JavaScript`, () => {
    const dirs = [...routes.map((r) => [r.operationId, packageOf(r)] as const), ...otherPackages];
    const sizes = dirs.map(([name, dir]) => [name, statSync(join(dir, 'index.mjs')).size] as const);
    expect(sizes).toHaveLength(routes.length + 5);
    expect(sizes.filter(([, bytes]) => bytes > BUNDLE_LIMIT_BYTES)).toEqual([]);
  });

  it("ships each route's files next to its bundle, byte for byte, and nothing else (the webhook functions: none)", () => {
    const withFiles = routes.filter((r) => r.files?.length);
    expect(withFiles.map((r) => r.operationId)).toContain('docsRenderer');
    for (const r of routes) {
      const files = (r.files ?? []).map((f) => f.split('/').at(-1) as string);
      expect(readdirSync(packageOf(r)).sort(), r.operationId).toEqual(
        ['index.mjs', 'index.mjs.map', ...files].sort(),
      );
      for (const file of r.files ?? []) {
        const shipped = readFileSync(join(packageOf(r), file.split('/').at(-1) as string));
        expect(shipped.equals(repoFile(file)), `${r.operationId}: ${file}`).toBe(true);
      }
    }
    for (const [name, dir] of otherPackages)
      expect(readdirSync(dir).sort(), name).toEqual(['index.mjs', 'index.mjs.map']);
  });

  it("keeps the search code out of every function but the searches and the index's own, and PGlite out of all", () => {
    const sourcesOf = (dir: string) =>
      (JSON.parse(readFileSync(join(dir, 'index.mjs.map'), 'utf8')) as { sources: string[] }).sources;
    const searchCode = [/shared\/search\//, /@aws-sdk\/client-rds-data\//];
    for (const r of routes) {
      const sources = sourcesOf(packageOf(r));
      expect(
        sources.filter((f) => /@electric-sql\/pglite/.test(f)),
        r.operationId,
      ).toEqual([]);
      const found = sources.filter((f) => searchCode.some((pattern) => pattern.test(f)));
      if (r.search) expect(found.length, r.operationId).toBeGreaterThan(0);
      else expect(found, r.operationId).toEqual([]);
    }
    for (const [name, dir] of otherPackages)
      expect(
        sourcesOf(dir).filter((f) => /@electric-sql\/pglite/.test(f)),
        name,
      ).toEqual([]);
  });

  it("keeps the read path's code out of every write function: no page, cursor or list code, no Secrets Manager client, no views", () => {
    // What a bundle holds: the sources its map names (a module tree-shaken away is not named).
    const readPath = [
      /shared\/store\/(page-read|page-count|page-links|page-source|cursor|cursor-key|record-pages|ticket-pages)\.ts$/,
      /@aws-sdk\/client-secrets-manager\//,
      /shared\/http\/views\//,
    ];
    const writes = routes.filter((r) => r.method !== 'GET');
    expect(writes.map((r) => r.operationId)).toEqual(
      expect.arrayContaining(['ticketReply', 'customerInsert']),
    );
    for (const r of writes) {
      const { sources } = JSON.parse(readFileSync(join(packageOf(r), 'index.mjs.map'), 'utf8')) as {
        sources: string[];
      };
      expect(sources.length, r.operationId).toBeGreaterThan(100);
      expect(
        sources.filter((source) => readPath.some((pattern) => pattern.test(source))),
        r.operationId,
      ).toEqual([]);
    }
  });

  it('serves the renderer from its package: the bundle finds the file next to itself', async () => {
    const route = routes.find((r) => r.operationId === 'docsRenderer') as Route;
    const dir = packageOf(route);
    // Outside the repository: the only copy the bundle can find is the shipped one.
    expect(existsSync(join(dir, '..', 'vendor'))).toBe(false);
    // The bundle's own logger would print the access line.
    process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
    const { handler } = (await import(pathToFileURL(join(dir, 'index.mjs')).href)) as {
      handler: HttpHandler;
    };
    const event = buildEvent({
      method: 'GET',
      rawUrl: '/docs/redoc.standalone.js?v=1',
      headers: { host: 'api.example.com', 'accept-encoding': 'br, gzip' },
      route,
      pathParameters: {},
    });
    const result = (await handler(
      event,
      lambdaContext(route.handler, 'req-1'),
    )) as APIGatewayProxyStructuredResultV2;
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['content-encoding']).toBe('gzip');
    // A Lambda response is at most 6 MB: the renderer, gzip-compressed and base64-encoded, is far below.
    expect(result.body?.length).toBeLessThan(1_000_000);
  });
});
