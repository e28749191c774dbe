// Names what failed in a CI run, for the end of its output (the part a reader sees first): every
// failed test of the vitest JSON reports under the given folders (file, then the test's full name;
// a file that failed without running a test, by its message) and every `FAIL` line of the given logs.
// Prints nothing when nothing failed.
//
//   node scripts/ci-failures.ts --reports .tmp/ci .tmp/e2e .tmp/time-matrix --logs .tmp/ci/soak.log …
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

interface Report {
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { status: string; fullName: string }[];
  }[];
}

const args = process.argv.slice(2);
const reports: string[] = [];
const logs: string[] = [];
let into = reports;
for (const a of args) {
  if (a === '--reports') into = reports;
  else if (a === '--logs') into = logs;
  else into.push(a);
}

const lines: string[] = [];
for (const dir of reports) {
  if (!existsSync(dir)) continue;
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    let report: Report;
    try {
      report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Report;
    } catch {
      continue;
    }
    for (const f of report.testResults ?? []) {
      const where = `${join(dir, file)}: ${relative(process.cwd(), f.name)}`;
      const failed = f.assertionResults.filter((t) => t.status === 'failed');
      for (const t of failed) lines.push(`${where} › ${t.fullName}`);
      if (f.status === 'failed' && failed.length === 0) {
        lines.push(`${where} (no test ran: ${(f.message ?? '').split('\n')[0]?.slice(0, 200)})`);
      }
    }
  }
}
for (const log of logs) {
  if (!existsSync(log)) continue;
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    if (line.startsWith('FAIL ')) lines.push(`${log}: ${line.slice(0, 300)}`);
  }
}
if (lines.length > 0) {
  process.stdout.write(`what failed (${lines.length}):\n`);
  for (const l of lines) process.stdout.write(`  ${l}\n`);
}
