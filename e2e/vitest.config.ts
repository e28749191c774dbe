import { defineConfig } from 'vitest/config';

/**
 * The files that change what every other test sees — trading hours, the jurisdiction profile, the
 * withdrawal rules, the derivatives settings — or that depend on those, plus (last, to balance the two
 * parts' run times) a few files that neither change nor read such state. `E2E_PART=shared` runs only
 * these, `E2E_PART=rest` every other file, unset: all. The two parts start their own server (own
 * data directory, database and port), so CI runs them side by side (scripts/e2e.sh).
 */
export const SHARED_STATE = [
  'e2e/contracts.e2e.ts',
  'e2e/derivatives-admin.e2e.ts',
  'e2e/hours-admin.e2e.ts',
  'e2e/options.e2e.ts',
  'e2e/payouts.e2e.ts',
  'e2e/records.e2e.ts',
  'e2e/staff-queue.e2e.ts',
  'e2e/withdraw.e2e.ts',
  // Independent of that state, here for balance only: the two parts should take about as long.
  'e2e/assets.e2e.ts',
  'e2e/proof.e2e.ts',
  'e2e/earn.e2e.ts',
  'e2e/community.e2e.ts',
  'e2e/c2c.e2e.ts',
];

const part = process.env.E2E_PART ?? '';
if (!['', 'shared', 'rest'].includes(part))
  throw new Error(`E2E_PART is "shared", "rest" or unset, not "${part}"`);

/** End-to-end tests: the real server on a fresh data directory, driven through Debian's Chromium. */
export default defineConfig({
  test: {
    include: part === 'shared' ? SHARED_STATE : ['e2e/**/*.e2e.ts'],
    exclude: part === 'rest' ? ['**/node_modules/**', ...SHARED_STATE] : ['**/node_modules/**'],
    globalSetup: ['e2e/global-setup.ts'],
    // Fails a test after which the server logged an undeclared error line (e2e/logwatch.ts).
    setupFiles: ['e2e/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Within a part one file at a time: the files of a part share one server and its state.
    fileParallelism: false,
    // `expect.poll` waits for its condition up to 15 s (vitest's default, 1 s, fails a loaded machine).
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
  },
});
