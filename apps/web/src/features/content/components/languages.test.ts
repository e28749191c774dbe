// @vitest-environment happy-dom
import { catalogs, keyPaths, lookup } from '@bourse/i18n';
import { LANGS, type Lang } from '@bourse/protocol';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi } from '../../../shared/testing/api.ts';
import { contentHandlers } from '../test/fixtures.ts';
import { renderContent, type Viewport, watchMissingKeys } from '../test/render.tsx';

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

/** English sentences of the content catalog that the language translates differently (no params). */
function englishOnly(lang: Lang): string[] {
  const en = catalogs.en.content;
  return keyPaths(en)
    .map((path) => ({ path, text: lookup(en, path) ?? '' }))
    .filter(
      ({ path, text }) =>
        !text.includes('{{') && text.length > 4 && lookup(catalogs[lang].content, path) !== text,
    )
    .map(({ text }) => text);
}

const SCREENS: Array<[string, string, string]> = [
  ['/settingNew', 'news-flash-page', 'news.title'],
  ['/setting-newdetail?id=cnt_1', 'article-body', 'back.news'],
  ['/settingHelp', 'help-category', 'help.title'],
  ['/help?q=x', 'help-results', 'help.title'],
  ['/settingHelpdetail?id=cnt_1', 'article-body', 'back.help'],
  ['/helpDetail?id=cnt_1', 'article-body', 'back.help'],
  ['/settingAbout', 'article-body', 'about.title'],
  ['/about', 'article-body', 'about.title'],
  ['/security', 'security-advice', 'security.neverTitle'],
  ['/benefits', 'content-item', 'benefits.title'],
  ['/benefitsDetail?id=cnt_1', 'article-body', 'back.benefits'],
  ['/text', 'content-item', 'text.title'],
  ['/text?id=cnt_1', 'article-body', 'back.text'],
];

describe.each(LANGS.filter((l) => l !== 'en'))('the content screens in %s', (lang) => {
  const text = (path: string) => lookup(catalogs[lang].content, path) ?? `missing ${path}`;
  for (const viewport of ['desktop', 'phone'] as Viewport[]) {
    it.each(SCREENS)(
      `${viewport}: %s has its own words, no missing key and no English left`,
      async (route, testId, heading) => {
        const mocked = mockApi(contentHandlers());
        watch = watchMissingKeys();
        await renderContent({ route, lang, viewport });
        await screen.findAllByTestId(testId);
        expect(mocked.calls.map((c) => c.params.lang).filter((l) => l !== lang)).toEqual([]);
        expect(document.body).toHaveTextContent(text(heading));
        expect(watch.missing).toEqual([]);
        // The hidden location probe holds the address (`/settingAbout`), not words of the screen.
        const address = screen.getByTestId('location').textContent ?? '';
        const body = (document.body.textContent ?? '').replace(address, '');
        expect(englishOnly(lang).filter((sentence) => body.includes(sentence))).toEqual([]);
        // The fixtures' English titles never show in a Chinese screen.
        expect(body).not.toMatch(/How long does a withdrawal take|Markets open|Risk warning/);
      },
    );
  }
});

describe('the content screens in en', () => {
  it.each(SCREENS)('%s renders with no missing key', async (route, testId, heading) => {
    mockApi(contentHandlers());
    watch = watchMissingKeys();
    await renderContent({ route, lang: 'en' });
    await screen.findAllByTestId(testId);
    expect(document.body).toHaveTextContent(lookup(catalogs.en.content, heading) ?? heading);
    expect(watch.missing).toEqual([]);
  });
});
