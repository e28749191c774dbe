// @vitest-environment happy-dom
import { catalogs, keyPaths, lookup } from '@bourse/i18n';
import { type AgreementKind, LANGS, type Lang } from '@bourse/protocol';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi } from '../../../shared/testing/api.ts';
import { agreement, pending, status } from '../test/fixtures.ts';
import { renderAgreement, type Viewport, watchMissingKeys } from '../test/render.tsx';

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

function api(lang: Lang) {
  return mockApi({
    getAgreement: (call) => agreement(call.params.kind as AgreementKind, lang),
    agreementStatus: () =>
      status({ pending: [pending('risk', lang)], accepted: [{ kind: 'user', version: 2, accepted_at: 0 }] }),
  });
}

/** English sentences of the agreements catalog that the language says differently (no params). */
function englishOnly(lang: Lang): string[] {
  const en = catalogs.en.agreements;
  return keyPaths(en)
    .map((path) => ({ path, text: lookup(en, path) ?? '' }))
    .filter(
      ({ path, text }) =>
        !text.includes('{{') && text.length > 4 && lookup(catalogs[lang].agreements, path) !== text,
    )
    .map(({ text }) => text);
}

const SCREENS: Array<[string, string, string]> = [
  ['/userAgreement', 'agreement-page', 'page.versions'],
  ['/agrt?kind=privacy&version=1', 'agreement-page', 'page.others'],
  ['/bps', 'bps-document', 'documents.title'],
  ['/shell', 'agreement-notice', 'notice.title'],
];

describe.each(LANGS.filter((l) => l !== 'en'))('the agreement screens in %s', (lang) => {
  const text = (path: string) => lookup(catalogs[lang].agreements, path) ?? `missing ${path}`;
  for (const viewport of ['desktop', 'phone'] as Viewport[]) {
    it.each(SCREENS)(
      `${viewport}: %s has its own words, no missing key, no English left`,
      async (route, testId, key) => {
        const mocked = api(lang);
        watch = watchMissingKeys();
        await renderAgreement({ route, lang, viewport });
        await screen.findAllByTestId(testId);
        expect(await screen.findByText(text(key), { exact: false })).toBeInTheDocument();
        expect(mocked.calls.map((c) => c.params.lang).filter((l) => l !== lang)).toEqual([]);
        expect(watch.missing).toEqual([]);
        const body = document.body.textContent ?? '';
        expect(englishOnly(lang).filter((sentence) => body.includes(sentence))).toEqual([]);
      },
    );
  }
});

describe('the agreement screens in en', () => {
  it.each(SCREENS)('%s renders with no missing key', async (route, testId, key) => {
    api('en');
    watch = watchMissingKeys();
    await renderAgreement({ route, lang: 'en' });
    await screen.findAllByTestId(testId);
    expect(
      await screen.findByText(lookup(catalogs.en.agreements, key) ?? key, { exact: false }),
    ).toBeInTheDocument();
    expect(watch.missing).toEqual([]);
  });
});
