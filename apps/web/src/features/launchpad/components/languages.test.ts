// @vitest-environment happy-dom
import { catalogs, keyPaths, lookup } from '@bourse/i18n';
import { LANGS, type Lang } from '@bourse/protocol';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n.ts';
import { mockApi } from '../../../shared/testing/api.ts';
import {
  eligibility,
  FAILED,
  FIRST_COME_SOLD_OUT,
  PRO_RATA_ALLOCATED,
  PROOF,
  project,
  record,
} from '../test/fixtures.ts';
import { renderLaunchpad, type Viewport, watchMissingKeys } from '../test/render.tsx';

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

const OPEN = project();

describe('the missing-key watch', () => {
  it('sees a key the language lacks even when English has it', async () => {
    i18n.addResource('en', 'launchpad', 'onlyInEnglish', 'Only in English');
    await i18n.changeLanguage('zh');
    watch = watchMissingKeys();
    i18n.t('launchpad:onlyInEnglish' as never);
    expect(watch.missing).toEqual(['zh:launchpad:onlyInEnglish']);
    i18n.removeResourceBundle('en', 'launchpad');
    i18n.addResourceBundle('en', 'launchpad', catalogs.en.launchpad);
  });
});

function api() {
  return mockApi({
    getSubscriptionList: () => ({ items: [OPEN, FIRST_COME_SOLD_OUT, PRO_RATA_ALLOCATED, FAILED] }),
    getSubscriptionInfo: (call) => ({
      project: [OPEN, FIRST_COME_SOLD_OUT, PRO_RATA_ALLOCATED, FAILED].find(
        (p) => p.project_id === call.params.project_id,
      ),
      eligibility: eligibility(),
    }),
    getSubscriptionRecords: () => ({
      total: 3,
      page: 1,
      page_size: 10,
      items: [
        record(),
        record({
          subscription_id: 'lps_2',
          state: 'not_passed',
          review_reason: 'jurisdiction',
          token_state: 'none',
        }),
        record({
          subscription_id: 'lps_3',
          state: 'refunded',
          failure_reason: 'issuer_withdrew',
          token_state: 'none',
        }),
      ],
    }),
    getSubscriptionProof: () => PROOF,
  });
}

/** English sentences of the launchpad catalog that the language translates differently (no params). */
function englishOnly(lang: Lang): string[] {
  const en = catalogs.en.launchpad;
  return keyPaths(en)
    .map((path) => ({ path, text: lookup(en, path) ?? '' }))
    .filter(
      ({ path, text }) =>
        !text.includes('{{') && text.length > 4 && lookup(catalogs[lang].launchpad, path) !== text,
    )
    .map(({ text }) => text);
}

const SCREENS: Array<[string, string, string]> = [
  ['/subscription', 'launchpad-list', 'list.title'],
  ['/subscriptionBuy?project_id=lpd_lumen', 'launchpad-subscribe-form', 'subscribe.title'],
  ['/subscriptionBuy?project_id=lpd_orbit', 'launchpad-blocked', 'rule.title'],
  ['/subscriptionBuy?project_id=lpd_nova', 'launchpad-allocation', 'allocation.title'],
  ['/subscriptionBuy?project_id=lpd_dim', 'launchpad-failure', 'detail.failedTitle'],
  ['/subscriptionRecord', 'launchpad-record', 'records.title'],
  ['/subscriptionProof?project_id=lpd_nova', 'proof-result-ok', 'proof.title'],
];

describe.each(LANGS.filter((l) => l !== 'en'))('the launchpad screens in %s', (lang) => {
  const text = (path: string) => lookup(catalogs[lang].launchpad, path) ?? `missing ${path}`;
  for (const viewport of ['desktop', 'phone'] as Viewport[]) {
    it.each(SCREENS)(
      `${viewport}: %s has its own words, no missing key and no English left`,
      async (route, testId, heading) => {
        const mocked = api();
        watch = watchMissingKeys();
        await renderLaunchpad({ route, lang, viewport });
        await screen.findAllByTestId(testId);
        // Every call asks in the screen's language (names, descriptions and risk warnings come in it).
        expect(mocked.calls.map((c) => c.params.lang).filter((l) => l !== lang)).toEqual([]);
        expect(document.body).toHaveTextContent(text(heading));
        expect(watch.missing).toEqual([]);
        const body = document.body.textContent ?? '';
        const left = englishOnly(lang).filter((sentence) => body.includes(sentence));
        expect(left).toEqual([]);
      },
    );
  }
});

describe('the launchpad screens in en', () => {
  it.each(SCREENS)('%s renders with no missing key', async (route, testId, heading) => {
    api();
    watch = watchMissingKeys();
    await renderLaunchpad({ route, lang: 'en' });
    await screen.findAllByTestId(testId);
    expect(document.body).toHaveTextContent(lookup(catalogs.en.launchpad, heading) ?? heading);
    expect(watch.missing).toEqual([]);
  });
});
