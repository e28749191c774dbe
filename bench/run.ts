import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm run bench`: runs every benchmark module in this folder (or those named on the command
 * line, e.g. `npm run bench -- ledger`). Each module exports `run(): Promise<BenchResult[]>`.
 * Each result is one line of figures; nothing here asserts a speed.
 */
export type BenchResult = { name: string; figures: Record<string, string | number> };

const here = import.meta.dirname;
const wanted = process.argv.slice(2);
const modules = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.endsWith('.test.ts'))
  .filter((f) => wanted.length === 0 || wanted.includes(path.basename(f, '.ts')))
  .sort();

let failed = false;
for (const file of modules) {
  const mod = (await import(path.join(here, file))) as { run?: () => Promise<BenchResult[]> };
  if (typeof mod.run !== 'function') continue;
  process.stdout.write(`\n## ${path.basename(file, '.ts')}\n`);
  try {
    for (const result of await mod.run()) {
      const figures = Object.entries(result.figures)
        .map(([k, v]) => `${k}=${v}`)
        .join('  ');
      process.stdout.write(`${result.name.padEnd(40)} ${figures}\n`);
    }
  } catch (error) {
    failed = true;
    process.stderr.write(`${file} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
}
process.exit(failed ? 1 : 0);
