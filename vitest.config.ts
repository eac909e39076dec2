import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Handlers keep per-process caches (config, clients, tokens): one process per test file.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One DynamoDB Local for the whole run; setupFiles points each test process at it.
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/env.ts'],
  },
});
