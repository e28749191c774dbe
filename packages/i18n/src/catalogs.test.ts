import { LANGS } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import { catalogs, interpolate, keyPaths, NAMESPACES } from './index.ts';

describe('catalogs', () => {
  for (const ns of NAMESPACES) {
    const english = keyPaths(catalogs.en[ns]).sort();
    for (const lang of LANGS) {
      it(`${lang}/${ns} has exactly the English keys, none empty`, () => {
        const tree = catalogs[lang][ns];
        expect(keyPaths(tree).sort()).toEqual(english);
        for (const path of english) {
          const text = path.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], tree);
          expect(typeof text === 'string' && text.trim().length > 0, `${lang}/${ns}:${path}`).toBe(true);
        }
      });
      it(`${lang}/${ns} uses the same {{params}} as English`, () => {
        for (const path of english) {
          const get = (t: unknown) =>
            String(path.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], t));
          const names = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
          expect(names(get(catalogs[lang][ns])), `${lang}/${ns}:${path}`).toEqual(
            names(get(catalogs.en[ns])),
          );
        }
      });
    }
  }

  it('interpolates named parameters and leaves unknown ones visible', () => {
    expect(interpolate('wait {{seconds}} s {{x}}', { seconds: 60 })).toBe('wait 60 s {{x}}');
  });
});
