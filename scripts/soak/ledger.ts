import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './server.ts';

/** `npm run ledger:verify` (scripts/ledger-verify.ts) against the soak's database; exit code and output. */
export function ledgerVerify(pgUrl: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/ledger-verify.ts')], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: pgUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code: code ?? 2, output }));
  });
}
