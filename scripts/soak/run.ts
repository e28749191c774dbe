/**
 * `npm run soak` — the soak test of the real server (default), or with `--crash` the crash battery.
 *   npm run soak -- --minutes 3
 *   npm run soak -- --crash --cycles 10
 * Options: --keep (leave the data dir under .tmp/). Ends with `N passed, N failed`; exit 1 on a failure.
 */
import { parseArgs } from 'node:util';
import { runCrash } from './crash.ts';
import { runSoak } from './soak.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '3' },
    crash: { type: 'boolean', default: false },
    cycles: { type: 'string', default: '100' },
    keep: { type: 'boolean', default: false },
    seed: { type: 'string' },
  },
  strict: true,
});

function positive(name: string, raw: string): number {
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) <= 0) {
    process.stderr.write(`soak: --${name} must be a positive number, got "${raw}"\n`);
    process.exit(2);
  }
  return Number(raw);
}

const code = values.crash
  ? await runCrash({ cycles: Math.floor(positive('cycles', values.cycles)), keep: values.keep })
  : await runSoak({ minutes: positive('minutes', values.minutes), keep: values.keep });
process.exit(code);
