// @vitest-environment happy-dom
import { catalogs, keyPaths, lookup } from '@bourse/i18n';
import { LANGS, type Lang } from '@bourse/protocol';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi, Refusal } from '../../../shared/testing/api.ts';
import {
  account,
  EXPIRED,
  message,
  offer,
  order,
  PAID_AS_RECEIVER,
  RULES,
  SELL_OFFER,
  SPREAD_OFFER,
  verification,
} from '../test/fixtures.ts';
import { renderC2c, type Viewport, watchMissingKeys } from '../test/render.tsx';

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

const ORDERS = [order(), PAID_AS_RECEIVER, EXPIRED];

function api() {
  return mockApi({
    c2cOffers: () => [offer(), SPREAD_OFFER, SELL_OFFER],
    c2cOffer: (call) =>
      [offer(), SPREAD_OFFER, SELL_OFFER].find((o) => o.offer_id === call.params.offer_id) ??
      new Refusal('NOT_FOUND'),
    c2cRules: () => RULES,
    getVerification: () => verification(),
    info: () => ({ is_demo: 0, uid: '100001' }),
    c2cAccounts: () => [
      account(),
      account({ account_id: 'cac_2', method: 'alipay', wallet_id: 'li@alipay' }),
    ],
    c2cOrders: () => ({ total: 3, page: 1, page_size: 20, items: ORDERS }),
    c2cOrder: (call) => ORDERS.find((o) => o.order_id === call.params.order_id) ?? new Refusal('NOT_FOUND'),
    c2cMessages: () => [message(1), message(2, { from: 'customer' }), message(3, { from: 'staff' })],
  });
}

/** English sentences of the c2c catalog that the language translates differently (no params). */
function englishOnly(lang: Lang): string[] {
  const en = catalogs.en.c2c;
  return keyPaths(en)
    .map((path) => ({ path, text: lookup(en, path) ?? '' }))
    .filter(
      ({ path, text }) =>
        !text.includes('{{') && text.length > 4 && lookup(catalogs[lang].c2c, path) !== text,
    )
    .map(({ text }) => text);
}

const SCREENS: Array<[string, string, string]> = [
  ['/c2c_index', 'c2c-offer', 'offers.title'],
  ['/c2c_create?offer_id=cof_fixed', 'c2c-create-rules', 'create.rulesTitle'],
  ['/c2c_create?offer_id=cof_sell', 'c2c-create-accounts', 'create.account'],
  ['/c2c_order', 'c2c-order-row', 'orders.title'],
  ['/c2c_submit?order_id=cod_1', 'c2c-payer-form', 'order.payerTitle'],
  ['/c2c_submit?order_id=cod_2', 'c2c-receiver', 'order.receivedButton'],
  ['/c2c_submit?order_id=cod_3', 'order-end-reason', 'order.timeline'],
  ['/c2c_account', 'c2c-account-form', 'accounts.title'],
  ['/c2c_rule', 'rule-limits', 'rules.title'],
];

describe.each(LANGS.filter((l) => l !== 'en'))('the C2C screens in %s', (lang) => {
  const text = (path: string) => lookup(catalogs[lang].c2c, path) ?? `missing ${path}`;
  for (const viewport of ['desktop', 'phone'] as Viewport[]) {
    it.each(SCREENS)(
      `${viewport}: %s has its own words, no missing key and no English left`,
      async (route, testId, heading) => {
        const mocked = api();
        watch = watchMissingKeys();
        await renderC2c({ route, lang, viewport });
        await screen.findAllByTestId(testId);
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

describe('the C2C screens in en', () => {
  it.each(SCREENS)('%s renders with no missing key', async (route, testId, heading) => {
    api();
    watch = watchMissingKeys();
    await renderC2c({ route, lang: 'en' });
    await screen.findAllByTestId(testId);
    expect(document.body).toHaveTextContent(lookup(catalogs.en.c2c, heading) ?? heading);
    expect(watch.missing).toEqual([]);
  });
});
