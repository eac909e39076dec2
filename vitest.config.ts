import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Handlers keep per-process caches (config, clients, tokens): one process per test file.
    pool: 'forks',
    projects: [
      {
        // Pure modules: no store, no network, no Java; `npx vitest run test/unit` takes seconds.
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/infra/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One DynamoDB Local for the whole run (started only when this project has files to
          // run); setupFiles points each test process at it.
          globalSetup: ['test/helpers/global-setup.ts'],
          setupFiles: ['test/helpers/env.ts'],
        },
      },
    ],
  },
});
