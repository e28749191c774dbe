import pino, { type Logger } from 'pino';

/**
 * Zero unexpected error lines (issue 12). Every integration test logs through `testLogger()`: a
 * pino logger at level `error` writing into memory. `apps/server/test/setup.ts` (vitest
 * `setupFiles`, so every test file gets it) calls `checkLogLines()` after each test and after each
 * file: a line at level ≥ 50 (error, fatal) that no expectation matches fails that test, with the
 * line in the message.
 *
 * A test that provokes an error line on purpose says so, before or after provoking it:
 *
 *     expectLogLine(/sweep failed/);                       // must appear at least once in this test
 *     expectLogLine(/sweep failed/, { optional: true });   // may appear (a background job's timing)
 *
 * A pattern is matched against the line's `msg`, its `err.message` / `err.type` and the whole JSON
 * line. An expectation lasts until the end of the current test (or, declared in a `beforeAll`,
 * until the end of the file); a non-optional one that matched nothing fails the test too.
 * Lines logged between tests (background jobs, `beforeAll`, `afterAll`) are checked with the
 * next test, or after the file. A test spawning a server process pipes its output through
 * `watchOutput()` to have its lines checked the same way.
 */

export type LogLine = { level: number; msg: string; text: string; err?: { type?: string; message?: string } };

type Expectation = { pattern: RegExp | string; optional: boolean; hits: number; scope: 'test' | 'file' };

type State = {
  lines: LogLine[];
  expectations: Expectation[];
  /** True while a test body runs (between beforeEach and afterEach). */
  inTest: boolean;
};

/** One state per worker module graph, kept on globalThis so the setup file and the tests share it. */
const KEY = Symbol.for('bourse.test.logwatch');
function state(): State {
  const g = globalThis as unknown as Record<symbol, State | undefined>;
  let s = g[KEY];
  if (!s) {
    s = { lines: [], expectations: [], inTest: false };
    g[KEY] = s;
  }
  return s;
}

export const ERROR_LEVEL = 50;

/** A pino logger capturing every line at level ≥ error into this test file's watch. */
export function testLogger(): Logger {
  return pino(
    { level: 'error' },
    {
      write(line: string) {
        record(line);
      },
    },
  );
}

/**
 * For a server process a test spawns: returns a sink for its stdout/stderr chunks that feeds every
 * pino line at level ≥ error into the same watch (lines split across chunks are joined).
 */
export function watchOutput(): (chunk: Buffer | string) => void {
  let partial = '';
  return (chunk) => {
    const text = partial + chunk.toString();
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        const level = (JSON.parse(line) as { level?: unknown }).level;
        if (typeof level === 'number' && level >= ERROR_LEVEL) record(line);
      } catch {
        // not a pino line
      }
    }
  };
}

function record(line: string): void {
  let parsed: { level?: number; msg?: string; err?: { type?: string; message?: string } } = {};
  try {
    parsed = JSON.parse(line);
  } catch {
    parsed = { level: ERROR_LEVEL, msg: line };
  }
  const level = typeof parsed.level === 'number' ? parsed.level : ERROR_LEVEL;
  if (level < ERROR_LEVEL) return;
  state().lines.push({ level, msg: String(parsed.msg ?? ''), text: line.trim(), err: parsed.err });
}

/** Declares an error line this test (or, from a `beforeAll`, this file) expects; see the module comment. */
export function expectLogLine(pattern: RegExp | string, options: { optional?: boolean } = {}): void {
  const s = state();
  s.expectations.push({
    pattern,
    optional: options.optional ?? false,
    hits: 0,
    scope: s.inTest ? 'test' : 'file',
  });
}

function matches(pattern: RegExp | string, line: LogLine): boolean {
  const fields = [line.msg, line.err?.message ?? '', line.err?.type ?? '', line.text];
  return fields.some((f) => (typeof pattern === 'string' ? f.includes(pattern) : pattern.test(f)));
}

function describeLine(line: LogLine): string {
  const err = line.err ? ` — ${line.err.type ?? 'Error'}: ${line.err.message ?? ''}` : '';
  return `  [${line.level}] ${line.msg}${err}`;
}

/** Called by the setup file when a test starts. */
export function startTest(): void {
  state().inTest = true;
}

/**
 * Consumes the lines logged so far: throws when one matches no expectation, or (at the end of a
 * test or file) when a required expectation of that scope matched nothing.
 */
export function checkLogLines(end: 'test' | 'file'): void {
  const s = state();
  const lines = s.lines.splice(0);
  const unexpected: LogLine[] = [];
  for (const line of lines) {
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
      `${unexpected.length} unexpected log line(s) at level ≥ error (declare a deliberate one with expectLogLine):\n${unexpected
        .slice(0, 10)
        .map(describeLine)
        .join('\n')}`,
    );
  if (missing.length > 0)
    problems.push(`expected log line(s) never logged: ${missing.map((e) => String(e.pattern)).join(', ')}`);
  if (problems.length > 0) throw new Error(problems.join('\n'));
}
