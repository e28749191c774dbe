// @vitest-environment happy-dom
import { catalogs, keyPaths, lookup } from '@bourse/i18n';
import { LANGS, type Lang } from '@bourse/protocol';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi } from '../../../shared/testing/api.ts';
import { info, me } from '../test/fixtures.ts';
import { renderSignRule, type Viewport, watchMissingKeys } from '../test/render.tsx';

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

/** English sentences of the signin catalog that the language translates differently (no params). */
function englishOnly(lang: Lang): string[] {
  const en = catalogs.en.signin;
  return keyPaths(en)
    .map((path) => ({ path, text: lookup(en, path) ?? '' }))
    .filter(
      ({ path, text }) =>
        !text.includes('{{') && text.length > 4 && lookup(catalogs[lang].signin, path) !== text,
    )
    .map(({ text }) => text);
}

describe.each(LANGS.filter((l) => l !== 'en'))('/signRule in %s', (lang) => {
  for (const viewport of ['desktop', 'phone'] as Viewport[]) {
    for (const signedIn of [false, true]) {
      it(`${viewport}, ${signedIn ? 'signed in' : 'anonymous'}: no missing key and no English left`, async () => {
        const mocked = mockApi({ signin: () => info(signedIn ? { me: me() } : {}) });
        watch = watchMissingKeys();
        await renderSignRule({ lang, viewport, signedIn });
        await screen.findAllByTestId('signin-day');
        expect(mocked.calls.map((c) => c.params.lang).filter((l) => l !== lang)).toEqual([]);
        expect(document.body).toHaveTextContent(lookup(catalogs[lang].signin, 'rules.title') ?? 'missing');
        expect(document.body).toHaveTextContent(lookup(catalogs[lang].signin, 'rules.missed') ?? 'missing');
        expect(watch.missing).toEqual([]);
        const body = document.body.textContent ?? '';
        expect(englishOnly(lang).filter((sentence) => body.includes(sentence))).toEqual([]);
        // The condition beside the amount, in the page's language.
        expect(screen.getByTestId('signin-condition')).toHaveTextContent(
          lang === 'zh' ? '推广赠金' : '推廣贈金',
        );
      });
    }
  }
});
