import fs from 'node:fs';
import path from 'node:path';
import { catalogs, interpolate, lookup } from '@bourse/i18n';
import { LANGS, REASON_CODES, REASONS } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';

const errorsDoc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../docs/errors.md'), 'utf8');

describe('reason registry', () => {
  for (const reason of REASON_CODES) {
    it(`${reason} is documented in docs/errors.md with its code`, () => {
      const row = errorsDoc.split('\n').find((line) => line.startsWith(`| \`${reason}\` |`));
      expect(row, `docs/errors.md has no row for ${reason}`).toBeDefined();
      expect(row).toContain(`| ${REASONS[reason].code} |`);
    });
    for (const lang of LANGS) {
      it(`${reason} has a ${lang} text using exactly its params`, () => {
        const text = lookup(catalogs[lang].common, `reason.${reason}`);
        expect(text, `${lang} lacks reason.${reason}`).toBeTruthy();
        // Each param at least once (a text may repeat one, e.g. a currency after two amounts).
        const used = [...new Set([...(text ?? '').matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]))].sort();
        expect(used).toEqual([...REASONS[reason].params].sort());
        const filled = interpolate(text ?? '', Object.fromEntries(REASONS[reason].params.map((p) => [p, 1])));
        expect(filled).not.toMatch(/\{\{/);
      });
    }
  }

  it('docs/errors.md lists no reason the registry lacks', () => {
    const documented = [...errorsDoc.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual([...REASON_CODES].sort());
  });
});
