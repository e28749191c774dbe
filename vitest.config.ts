import { defineConfig } from 'vitest/config';

/** Unit and integration tests. Integration tests run against a real PostgreSQL: DATABASE_URL's, or an embedded one. */
export default defineConfig({
  test: {
    include: [
      'packages/**/src/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      'apps/web/src/**/*.test.ts',
      'apps/admin/src/**/*.test.ts',
      // Component tests: each selects `// @vitest-environment happy-dom` itself; the rest stay on node.
      'apps/admin/src/**/*.test.tsx',
      'scripts/**/*.test.ts',
    ],
    globalSetup: ['apps/server/test/global-setup.ts'],
    // Fails a test on an error line it did not declare (apps/server/test/logwatch.ts).
    setupFiles: ['apps/server/test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
