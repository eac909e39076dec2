import { defineConfig } from 'vitest/config';

/**
 * Five projects, cheapest first (`npm run test:<name>`; `npm test` runs the first four with
 * coverage, then regions on its own):
 * - unit: pure code (router, event builder, route table). No store, no Java, no network,
 *   the configuration's defaults only.
 * - integration: the handlers against a DynamoDB Local (Java) of each test file's own, leased
 *   from the global setup's pool, and one local S3 server started once by the global setup.
 * - infra: the CDK stack, synthesized without bundling (bundles.test.ts bundles it once).
 * - regions: two local regions (a DynamoDB Local, an API server each) kept in step by a replicator
 *   that behaves like DynamoDB global tables; tenant-homed writes must keep every guarantee.
 * - browser: the docs page in headless Chromium (Debian's /usr/bin/chromium) against the local
 *   server; no store.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Handlers keep per-process caches (config, clients, tokens): one process per test file.
          pool: 'forks',
          // The pool of DynamoDB Locals and the S3 server; setupFiles leases each test process its store.
          globalSetup: ['test/helpers/global-setup.ts'],
          setupFiles: ['test/helpers/env.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'infra', include: ['test/infra/**/*.test.ts'] },
      },
      {
        extends: true,
        // Two local regions under a global-tables replicator (docs/regions.md): its own stores and servers.
        // Their own JVMs and servers: one file at a time, and `npm test` runs them after the rest.
        test: {
          name: 'regions',
          include: ['test/regions/**/*.test.ts'],
          pool: 'forks',
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // One access-log line per request otherwise.
          env: { POWERTOOLS_LOG_LEVEL: 'WARN' },
        },
      },
    ],
    // Enabled by `--coverage` (npm test); the per-project scripts run without it.
    coverage: {
      provider: 'v8',
      include: ['shared/**/*.ts', 'functions/**/*.ts', 'local/**/*.ts', 'client/src/**/*.ts'],
      reportsDirectory: 'coverage',
      reporter: ['text-summary', 'html', 'json-summary'],
      thresholds: {
        // The handlers' building blocks: a drop below this fails `npm test`.
        'shared/**': { lines: 90 },
      },
    },
  },
});
