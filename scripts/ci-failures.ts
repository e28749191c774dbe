// Names what failed in a CI run, for the end of its output (the part a reader sees first): every
// failed test of the vitest JSON reports under the given folders (file, then the test's full name
// and, indented below, the start of its failure message; a file that failed without running a test,
// by its message) and every `FAIL` line of the given logs.
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
    assertionResults: { status: string; fullName: string; failureMessages?: string[] }[];
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
/** Failures named (the indented message lines are not counted). */
let count = 0;
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
      for (const t of failed) {
        lines.push(`${where} › ${t.fullName}`);
        count += 1;
        // Its first failure's first lines: the CI output a reader has is often only this tail.
        const message = (t.failureMessages?.[0] ?? '').split('\n').slice(0, 3).join(' | ');
        if (message) lines.push(`      ${message.slice(0, 400)}`);
      }
      if (f.status === 'failed' && failed.length === 0) {
        count += 1;
        lines.push(`${where} (no test ran: ${(f.message ?? '').split('\n')[0]?.slice(0, 200)})`);
      }
    }
  }
}
for (const log of logs) {
  if (!existsSync(log)) continue;
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    if (line.startsWith('FAIL ')) {
      lines.push(`${log}: ${line.slice(0, 300)}`);
      count += 1;
    }
  }
}
if (lines.length > 0) {
  process.stdout.write(`what failed (${count}):\n`);
  for (const l of lines) process.stdout.write(`  ${l}\n`);
}
