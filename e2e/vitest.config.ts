import { defineConfig } from 'vitest/config';

/** End-to-end tests: the real server on a fresh data directory, driven through Debian's Chromium. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    // Fails a test after which the server logged an undeclared error line (e2e/logwatch.ts).
    setupFiles: ['e2e/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // `expect.poll` waits for its condition up to 15 s (vitest's default, 1 s, fails a loaded machine).
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
  },
});
