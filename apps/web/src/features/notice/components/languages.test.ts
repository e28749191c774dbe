// @vitest-environment happy-dom
import { catalogs, keyPaths, lookup } from '@bourse/i18n';
import { LANGS, type Lang } from '@bourse/protocol';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { noticeApi, renderNotice, type Viewport, watchMissingKeys } from '../test/fixtures.tsx';

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

/** English sentences of the notice catalog that the language translates differently (no params). */
function englishOnly(lang: Lang): string[] {
  const en = catalogs.en.notice;
  return keyPaths(en)
    .map((path) => ({ path, text: lookup(en, path) ?? '' }))
    .filter(
      ({ path, text }) =>
        !text.includes('{{') && text.length > 4 && lookup(catalogs[lang].notice, path) !== text,
    )
    .map(({ text }) => text);
}

describe.each(LANGS.filter((l) => l !== 'en'))('/notice in %s', (lang) => {
  for (const viewport of ['desktop', 'phone'] as Viewport[]) {
    it(`${viewport}: its own words, no missing key and no English UI`, async () => {
      const mocked = noticeApi();
      watch = watchMissingKeys();
      const { user } = await renderNotice({ lang, viewport });
      const [first] = await screen.findAllByTestId('notice-item');
      await screen.findByTestId('notice-pref-loan');
      await user.click(within(first as HTMLElement).getByTestId('notice-open'));
      const page = screen.getByTestId('notice-page');
      expect(page).toHaveTextContent(lookup(catalogs[lang].notice, 'title') ?? 'missing');
      expect(page).toHaveTextContent(lookup(catalogs[lang].notice, 'prefs.locked') ?? 'missing');
      expect(screen.getByTestId('notice-bell')).toHaveAccessibleName(
        (lookup(catalogs[lang].notice, 'bellUnread') ?? '').replace('{{count}}', '1'),
      );
      expect(watch.missing).toEqual([]);
      // The notices' own texts come from the server (in the customer's language); the UI around them must not be English.
      const ui = (document.body.textContent ?? '')
        .replace('Withdrawal approved', '')
        .replace('Your withdrawal of 10 USDT was approved.', '')
        .replace('Maintenance tonight', '');
      for (const english of englishOnly(lang)) expect(ui, english).not.toContain(english);
      expect(mocked.unhandled).toEqual([]);
    });
  }
});
