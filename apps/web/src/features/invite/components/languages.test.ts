// @vitest-environment happy-dom
import { catalogs, lookup } from '@bourse/i18n';
import { LANGS } from '@bourse/protocol';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi } from '../../../shared/testing/api.ts';
import { incomeLine, invitee, paged, promotion } from '../test/fixtures.ts';
import { renderInvite, type Viewport, watchMissingKeys } from '../test/render.tsx';

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

describe.each(LANGS.filter((l) => l !== 'en'))('/invite in %s', (lang) => {
  for (const viewport of ['desktop', 'phone'] as Viewport[]) {
    it(`${viewport}: no missing key, asked in the language`, async () => {
      const mocked = mockApi({
        getMyPromotion: () => promotion(),
        getPromotionInvitees: () => paged([invitee()]),
        getPromotionIncome: () => paged([incomeLine()]),
      });
      watch = watchMissingKeys();
      await renderInvite({ lang, viewport });
      await screen.findAllByTestId('invite-income-line');
      await screen.findAllByTestId('invite-invitee');
      expect(mocked.calls.map((c) => c.params.lang).filter((l) => l !== lang)).toEqual([]);
      for (const key of ['title', 'rules.title', 'rules.exclusions', 'levels.title', 'income.title'])
        expect(document.body).toHaveTextContent(lookup(catalogs[lang].invite, key) ?? `missing ${key}`);
      expect(watch.missing).toEqual([]);
    });
  }
});
