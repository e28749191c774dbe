import { LANGS } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import { catalogs, interpolate, keyPaths, NAMESPACES } from './index.ts';

/** `records.total_one` and `records.total_other` are one key, `records.total`, in zh and ft. */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const baseOf = (path: string) => path.replace(PLURAL, '');
const textAt = (tree: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown> | undefined)?.[k], tree);

/**
 * English strings that carry `{{count}}` but need no plural form: unit symbols ("5 s", "1 min") and
 * positions or tallies ("Leaf 3 of 9", "Addresses: 1 of 20") do not change with the number.
 */
const COUNT_WITHOUT_PLURAL = new Set([
  'options:duration.s',
  'options:duration.min',
  'options:duration.h',
  'options:duration.d',
  'proof:mine.position',
  'withdraw:address.count',
]);

describe('catalogs', () => {
  for (const ns of NAMESPACES) {
    const englishPaths = keyPaths(catalogs.en[ns]);
    const english = [...new Set(englishPaths.map(baseOf))].sort();
    /** The English text a zh/ft key stands for: the key itself, or its `_other` form. */
    const englishText = (path: string) =>
      String(textAt(catalogs.en[ns], path) ?? textAt(catalogs.en[ns], `${path}_other`));
    for (const lang of LANGS.filter((l) => l !== 'en')) {
      it(`${lang}/${ns} has exactly the English keys (a plural pair as one), none empty`, () => {
        const tree = catalogs[lang][ns];
        expect(keyPaths(tree).sort()).toEqual(english);
        for (const path of english) {
          const text = textAt(tree, path);
          expect(typeof text === 'string' && text.trim().length > 0, `${lang}/${ns}:${path}`).toBe(true);
        }
      });
      it(`${lang}/${ns} uses the same {{params}} as English`, () => {
        const names = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
        for (const path of english) {
          expect(names(String(textAt(catalogs[lang][ns], path))), `${lang}/${ns}:${path}`).toEqual(
            names(englishText(path)),
          );
        }
      });
    }
    it(`en/${ns} has no empty strings and every plural key comes as _one and _other`, () => {
      for (const path of englishPaths) {
        const text = textAt(catalogs.en[ns], path);
        expect(typeof text === 'string' && text.trim().length > 0, `en/${ns}:${path}`).toBe(true);
        if (PLURAL.test(path)) {
          const base = baseOf(path);
          expect(englishPaths, `en/${ns}:${base}`).toContain(`${base}_one`);
          expect(englishPaths, `en/${ns}:${base}`).toContain(`${base}_other`);
          expect(englishPaths, `en/${ns}:${base} is also a plain key`).not.toContain(base);
        }
      }
    });
    it(`en/${ns}: a string with {{count}} has plural forms ("1 records" cannot happen)`, () => {
      for (const path of englishPaths) {
        const text = String(textAt(catalogs.en[ns], path));
        if (!/\{\{\s*count\s*\}\}/.test(text) || COUNT_WITHOUT_PLURAL.has(`${ns}:${path}`)) continue;
        expect(path, `en/${ns}:${path} "${text}" needs _one/_other`).toMatch(/_(one|other)$/);
      }
    });
  }

  it('the counted English strings read right for one and for many', () => {
    expect(textAt(catalogs.en.assets, 'records.totalRows_one')).toBe('{{count}} record');
    expect(textAt(catalogs.en.assets, 'records.totalRows_other')).toBe('{{count}} records');
  });

  it('interpolates named parameters and leaves unknown ones visible', () => {
    expect(interpolate('wait {{seconds}} s {{x}}', { seconds: 60 })).toBe('wait 60 s {{x}}');
  });
});
