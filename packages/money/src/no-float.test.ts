import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// House rule: money never passes through a float. This guards the package's
// own sources against the usual ways one sneaks in.
const FORBIDDEN: readonly RegExp[] = [
  /\bparseFloat\b/,
  /\bparseInt\b/,
  /\bNumber\s*\(/,
  /\.toFixed\b/,
  /\.toPrecision\b/,
  /\bMath\.(round|floor|ceil|trunc|pow)\b/,
  /\bNumber\.parse/,
  /\bIntl\.NumberFormat\b/,
  /\btoLocaleString\b/,
];

const dir = fileURLToPath(new URL('.', import.meta.url));
const sources = readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

describe('no floats in money code', () => {
  it('finds the sources', () => {
    expect(sources).toContain('decimal.ts');
  });

  it.each(sources)('%s uses no float conversions', (name) => {
    const text = readFileSync(`${dir}${name}`, 'utf8');
    for (const pattern of FORBIDDEN) {
      expect(text, `${name} matches ${pattern}`).not.toMatch(pattern);
    }
  });
});
