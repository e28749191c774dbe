// @vitest-environment happy-dom
import { catalogs, keyPaths, lookup } from '@bourse/i18n';
import { LANGS, type Lang } from '@bourse/protocol';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi } from '../../../shared/testing/api.ts';
import { CLOSED, conversation, message } from '../test/fixtures.ts';
import { renderService, type Viewport, watchMissingKeys } from '../test/render.tsx';

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

function api() {
  return mockApi({
    supportInfo: () => CLOSED,
    supportConversations: () => [conversation(), conversation({ id: 'sup_2', status: 'resolved' })],
    supportMessages: () => [message(1, { out_of_hours: true }), message(2)],
  });
}

/** English sentences of the support catalog that the language translates differently (no params). */
function englishOnly(lang: Lang): string[] {
  const en = catalogs.en.support;
  return keyPaths(en)
    .map((path) => ({ path, text: lookup(en, path) ?? '' }))
    .filter(
      ({ path, text }) =>
        !text.includes('{{') && text.length > 4 && lookup(catalogs[lang].support, path) !== text,
    )
    .map(({ text }) => text);
}

const SCREENS: Array<[string, string, string]> = [
  ['/service', 'support-start', 'start.title'],
  ['/service?id=sup_1', 'support-message', 'chat.back'],
];

describe.each(LANGS.filter((l) => l !== 'en'))('/service in %s', (lang) => {
  for (const viewport of ['desktop', 'phone'] as Viewport[]) {
    it.each(SCREENS)(`${viewport}: %s has no missing key and no English left`, async (route, testId, key) => {
      const mocked = api();
      watch = watchMissingKeys();
      await renderService({ route, lang, viewport });
      await screen.findAllByTestId(testId);
      expect(mocked.calls.map((c) => c.params.lang).filter((l) => l !== lang)).toEqual([]);
      expect(document.body).toHaveTextContent(lookup(catalogs[lang].support, key) ?? `missing ${key}`);
      expect(document.body).toHaveTextContent(lookup(catalogs[lang].support, 'safety.title') ?? 'missing');
      expect(watch.missing).toEqual([]);
      const body = document.body.textContent ?? '';
      expect(englishOnly(lang).filter((sentence) => body.includes(sentence))).toEqual([]);
    });
  }
});
