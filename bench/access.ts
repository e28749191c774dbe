import { formatUnits, parseDecimal } from '@bourse/money';
import { hash, verify } from '@node-rs/argon2';
import { ARGON2 } from '../apps/server/src/modules/accounts/service.ts';
import type { BenchResult } from './run.ts';

/** Costs of the foundation's hot spots: password hashing (deliberately slow) and money formatting. */
export async function run(): Promise<BenchResult[]> {
  const rounds = 20;
  let started = performance.now();
  const stored = await hash('correct horse', ARGON2);
  for (let i = 0; i < rounds; i++) await verify(stored, 'correct horse');
  const verifyMs = (performance.now() - started) / rounds;

  const n = 200_000;
  started = performance.now();
  let sink = 0n;
  for (let i = 0; i < n; i++) {
    const parsed = parseDecimal(`${i}.12345678`, { scale: 8 });
    if (parsed.ok) sink += parsed.units;
  }
  const parseS = (performance.now() - started) / 1000;
  started = performance.now();
  let chars = 0;
  for (let i = 0; i < n; i++)
    chars += formatUnits(BigInt(i) * 123_456_789n, { scale: 8, group: true }).length;
  const formatS = (performance.now() - started) / 1000;
  if (sink < 0n || chars < 0) throw new Error('unreachable');
  return [
    {
      name: 'argon2id verify (OWASP parameters)',
      figures: { ms_per_verify: verifyMs.toFixed(1), logins_per_s_per_core: Math.round(1000 / verifyMs) },
    },
    { name: 'money parseDecimal', figures: { ops_per_s: Math.round(n / parseS) } },
    { name: 'money formatUnits (grouped)', figures: { ops_per_s: Math.round(n / formatS) } },
  ];
}
