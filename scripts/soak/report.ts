/** The checks of a run: one line each, then `N passed, N failed`. */
export class Checks {
  readonly results: { name: string; ok: boolean; detail: string }[] = [];

  check(name: string, ok: boolean, detail: string): void {
    this.results.push({ name, ok, detail });
  }

  /** Prints every check and the closing line; the process exit code (0 all passed, 1 otherwise). */
  print(): number {
    for (const r of this.results) process.stdout.write(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name}: ${r.detail}\n`);
    const failed = this.results.filter((r) => !r.ok).length;
    process.stdout.write(`${this.results.length - failed} passed, ${failed} failed\n`);
    return failed === 0 ? 0 : 1;
  }
}

export function say(line: string): void {
  process.stdout.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}
