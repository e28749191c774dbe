// @vitest-environment happy-dom
import { catalogs, keyPaths, lookup } from '@bourse/i18n';
import { LANGS, type Lang } from '@bourse/protocol';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi } from '../../../shared/testing/api.ts';
import {
  CLEARED,
  creditScore,
  detail,
  LEND_LIST,
  lendMy,
  loan,
  OVERDUE,
  quote,
  REJECTED,
} from '../test/fixtures.ts';
import { renderLoans, type Viewport, watchMissingKeys } from '../test/render.tsx';

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

const ITEMS = [loan(), OVERDUE, CLEARED, REJECTED];

function api() {
  return mockApi({
    getCreditScore: () => creditScore({ review: { review_id: 'lsr_1', state: 'closed', created_at: 0 } }),
    lendList: () => LEND_LIST,
    lendMy: () => lendMy({ open: OVERDUE }),
    getLoanQuote: () => quote(),
    lendMylist: () => ({ total: ITEMS.length, page: 1, page_size: 10, items: ITEMS }),
    getLoan: (call) => detail(ITEMS.find((l) => l.loan_id === call.params.loan_id) ?? OVERDUE),
  });
}

/** English sentences of the loans catalog that the language translates differently (no params). */
function englishOnly(lang: Lang): string[] {
  const en = catalogs.en.loans;
  return keyPaths(en)
    .map((path) => ({ path, text: lookup(en, path) ?? '' }))
    .filter(
      ({ path, text }) =>
        !text.includes('{{') && text.length > 4 && lookup(catalogs[lang].loans, path) !== text,
    )
    .map(({ text }) => text);
}

const SCREENS: Array<[string, string, string]> = [
  ['/xinyongfen', 'score-factor', 'score.title'],
  ['/credit', 'apply-blocked', 'apply.title'],
  ['/repayment2', 'loan-row', 'loans.title'],
  ['/repaymentNew?loan_id=lon_2', 'loan-repay', 'detail.outstandingTitle'],
  ['/repaymentNew?loan_id=lon_4', 'loan-rejected', 'detail.rejectedTitle'],
];

describe.each(LANGS.filter((l) => l !== 'en'))('the loan screens in %s', (lang) => {
  const text = (path: string) => lookup(catalogs[lang].loans, path) ?? `missing ${path}`;
  for (const viewport of ['desktop', 'phone'] as Viewport[]) {
    it.each(SCREENS)(
      `${viewport}: %s has its own words, no missing key and no English left`,
      async (route, testId, heading) => {
        const mocked = api();
        watch = watchMissingKeys();
        await renderLoans({ route, lang, viewport });
        await screen.findAllByTestId(testId);
        expect(mocked.calls.map((c) => c.params.lang).filter((l) => l !== lang)).toEqual([]);
        expect(document.body).toHaveTextContent(text(heading));
        expect(watch.missing).toEqual([]);
        const body = document.body.textContent ?? '';
        expect(englishOnly(lang).filter((sentence) => body.includes(sentence))).toEqual([]);
      },
    );
  }
});

describe('the loan screens in en', () => {
  it.each(SCREENS)('%s renders with no missing key', async (route, testId, heading) => {
    api();
    watch = watchMissingKeys();
    await renderLoans({ route, lang: 'en' });
    await screen.findAllByTestId(testId);
    expect(document.body).toHaveTextContent(lookup(catalogs.en.loans, heading) ?? heading);
    expect(watch.missing).toEqual([]);
  });
});
