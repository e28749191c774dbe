import fs from 'node:fs';
import { inject } from 'vitest';

/**
 * Zero unexpected error lines, end to end (issue 12). The global setup writes the server's whole
 * output to `inject('serverLog')` (`.tmp/e2e-server-<pid>.log`, kept after the run). `e2e/setup.ts`
 * (vitest `setupFiles`, every e2e file): after each test it waits until the server has logged a
 * marker request — so every line the test caused is in the file — and fails the test when a line at
 * pino level ≥ 50 (error, fatal) appeared that the test did not declare:
 *
 *     expectServerLog(/sweep failed/);                      // must appear in this test
 *     expectServerLog(/sweep failed/, { optional: true });  // may appear
 *
 * A pattern is matched against the line's `msg`, `err.message`, `err.type` and the whole JSON line.
 * Declared inside a test it lasts until that test ends; in a `beforeAll` or at the top of a file,
 * until the file ends. Lines logged between tests are checked with the next test or after the file.
 */

type Line = { level: number; msg: string; text: string; err?: { type?: string; message?: string } };
type Expectation = { pattern: RegExp | string; optional: boolean; hits: number; scope: 'test' | 'file' };

type State = { offset: number; markers: number; inTest: boolean; expectations: Expectation[] };
/** Kept on globalThis so the setup file and the test file share it whatever the module graph. */
const KEY = Symbol.for('bourse.e2e.logwatch');
function state(): State {
  const g = globalThis as unknown as Record<symbol, State | undefined>;
  g[KEY] ??= { offset: 0, markers: 0, inTest: false, expectations: [] };
  return g[KEY];
}

export function expectServerLog(pattern: RegExp | string, options: { optional?: boolean } = {}): void {
  const s = state();
  s.expectations.push({
    pattern,
    optional: options.optional ?? false,
    hits: 0,
    scope: s.inTest ? 'test' : 'file',
  });
}

function logSize(): number {
  return fs.statSync(inject('serverLog')).size;
}

/** Sends a request with a unique id and waits until the server's log shows it: everything before is flushed. */
async function flushServerLog(): Promise<void> {
  const s = state();
  s.markers += 1;
  const id = `logwatch-${process.pid}-${s.markers}`;
  await fetch(`${inject('baseUrl')}/healthz`, { headers: { 'x-request-id': id } });
  const deadline = Date.now() + 15_000;
  const file = inject('serverLog');
  let from = s.offset;
  for (;;) {
    const size = fs.statSync(file).size;
    if (size > from) {
      const fd = fs.openSync(file, 'r');
      const buffer = Buffer.alloc(size - from);
      fs.readSync(fd, buffer, 0, buffer.length, from);
      fs.closeSync(fd);
      if (buffer.toString('utf8').includes(id)) return;
      // Keep some overlap: the id may straddle two reads.
      from = Math.max(s.offset, size - id.length);
    }
    if (Date.now() > deadline) throw new Error(`the server did not log the marker request ${id} within 15 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function newLines(): Line[] {
  const s = state();
  const file = inject('serverLog');
  const size = fs.statSync(file).size;
  if (size <= s.offset) return [];
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.alloc(size - s.offset);
  fs.readSync(fd, buffer, 0, buffer.length, s.offset);
  fs.closeSync(fd);
  const text = buffer.toString('utf8');
  // Only whole lines; a partial last line waits for the next check.
  const end = text.lastIndexOf('\n') + 1;
  s.offset += Buffer.byteLength(text.slice(0, end));
  const lines: Line[] = [];
  for (const raw of text.slice(0, end).split('\n')) {
    if (!raw.trim()) continue;
    try {
      const parsed = JSON.parse(raw) as { level?: number; msg?: string; err?: Line['err'] };
      const level = typeof parsed.level === 'number' ? parsed.level : 0;
      if (level >= 50) lines.push({ level, msg: String(parsed.msg ?? ''), text: raw, err: parsed.err });
    } catch {
      // Not pino JSON (a stack trace printed by Node itself, the embedded PostgreSQL): an error.
      if (/\b(Error|FATAL|PANIC)\b/.test(raw)) lines.push({ level: 50, msg: raw, text: raw });
    }
  }
  return lines;
}

function matches(pattern: RegExp | string, line: Line): boolean {
  const fields = [line.msg, line.err?.message ?? '', line.err?.type ?? '', line.text];
  return fields.some((f) => (typeof pattern === 'string' ? f.includes(pattern) : pattern.test(f)));
}

/** Called by e2e/setup.ts before each test. */
export function startTest(): void {
  state().inTest = true;
}

/** Called by e2e/setup.ts before a file: what the server logged earlier is not this file's. */
export function startFile(): void {
  state().offset = logSize();
}

/** Called by e2e/setup.ts after each test and each file; throws on an undeclared error line. */
export async function checkServerLog(end: 'test' | 'file'): Promise<void> {
  const s = state();
  await flushServerLog();
  const unexpected: Line[] = [];
  for (const line of newLines()) {
    const hits = s.expectations.filter((e) => matches(e.pattern, line));
    for (const e of hits) e.hits += 1;
    if (hits.length === 0) unexpected.push(line);
  }
  const ending = s.expectations.filter((e) => end === 'file' || e.scope === 'test');
  const missing = ending.filter((e) => !e.optional && e.hits === 0);
  s.expectations = s.expectations.filter((e) => !ending.includes(e));
  s.inTest = false;
  const problems: string[] = [];
  if (unexpected.length > 0)
    problems.push(
      `the server logged ${unexpected.length} unexpected line(s) at level ≥ error (declare a deliberate one with expectServerLog; full log: ${inject('serverLog')}):\n${unexpected
        .slice(0, 10)
        .map(
          (l) =>
            `  [${l.level}] ${l.msg}${l.err ? ` — ${l.err.type ?? 'Error'}: ${l.err.message ?? ''}` : ''}`,
        )
        .join('\n')}`,
    );
  if (missing.length > 0)
    problems.push(
      `expected server line(s) never logged: ${missing.map((e) => String(e.pattern)).join(', ')}`,
    );
  if (problems.length > 0) throw new Error(problems.join('\n'));
}
