import { catalogs } from '@bourse/i18n';
import type { EtfInfoData, FundOrderData, Paged } from '@bourse/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminPage,
  createAdministrator,
  demoToken,
  registerCustomer,
  staffApiToken,
  staffCall,
  webCall,
  webData,
} from './api.ts';
import { LANGS, launch, screenshot, signedInPage, switchLang, type ViewportName, visit } from './browser.ts';
import { englishTexts, expectNoRawKeys } from './pages.ts';

/**
 * ETF orders in Chromium: a real customer without a risk rating sees, before any form, that the
 * balanced portfolio needs one and where to take the questionnaire; a demo customer (virtual USDT in
 * the demo book, no rating asked) reads a model — description, weights, NAV chart, rules — types an
 * amount, reads the server's preview with the fees, confirms, finds the order in custody on its
 * orders page, and redeems it after a confirmation listing what will be sold; the same on a phone in
 * Chinese for the low-risk model; every screen in three languages at 1920×1080 and 390×844.
 */

type Lang = (typeof LANGS)[number];
let browser: Browser;
let demo: string;

async function ready(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).first().waitFor();
  await page
    .locator('.mantine-Loader-root')
    .first()
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}

const open = (token: string, viewport: ViewportName, lang: Lang, path: string) =>
  signedInPage(browser, { viewport, lang, token, path });

async function orders(model: 'balanced' | 'low_risk'): Promise<FundOrderData[]> {
  return (await webData<Paged<FundOrderData>>('GET', 'getEtfOrders', { model_id: model }, demo)).items;
}

/** The model's name as the server gives it in `lang`. */
async function modelName(model: 'balanced' | 'low_risk', lang: Lang): Promise<string> {
  const info = await webCall<EtfInfoData>(
    'GET',
    'getEtfInfo',
    { model_id: model, range: 'week' },
    demo,
    lang,
  );
  expect(info.code, info.msg).toBe(1);
  return info.data.model.name;
}

/** Buys `amount` of the open model through the form and its confirmation; returns the new order. */
async function buyThroughForm(page: Page, model: 'balanced' | 'low_risk', amount: string, shot: string) {
  const before = new Set((await orders(model)).map((o) => o.order_id));
  await ready(page, 'etf-buy-form');
  await page.getByTestId('etf-amount').fill(amount);
  await page.locator(`[data-testid="etf-preview"][data-amount="${amount}"]`).waitFor();
  await screenshot(page, `${shot}-preview`);
  await page.getByTestId('etf-review').click();
  await page.getByTestId('etf-confirm').waitFor();
  await page.getByTestId('etf-confirm-BTC').waitFor();
  await screenshot(page, `${shot}-confirm`);
  await page.getByTestId('etf-confirm-submit').click();
  await page.waitForURL(new RegExp(model === 'balanced' ? '/etf_wdtg' : '/etflow_wdtg'));
  await expect.poll(async () => (await orders(model)).filter((o) => !before.has(o.order_id)).length).toBe(1);
  const order = (await orders(model)).find((o) => !before.has(o.order_id)) as FundOrderData;
  expect(order.state).toBe('in_custody');
  expect(order.book).toBe('demo');
  return order;
}

/** Redeems the first order in custody on the orders page, through the confirmation. */
async function redeemThroughPage(page: Page, order: FundOrderData, shot: string) {
  await page.getByTestId('etf-redeem').first().click();
  const confirm = page.getByTestId('etf-redeem-confirm');
  await confirm.waitFor();
  for (const h of order.holdings.filter((x) => /[1-9]/.test(x.quantity)))
    await confirm.getByTestId(`etf-redeem-${h.asset}`).waitFor();
  await screenshot(page, `${shot}-redeem-confirm`);
  await page.getByTestId('etf-redeem-submit').click();
  await expect
    .poll(async () => (await orders(order.model_id)).find((o) => o.order_id === order.order_id)?.state)
    .toBe('redeemed');
  await confirm.waitFor({ state: 'detached' });
  await page.locator('[data-testid="etf-order-state"][data-state="redeemed"]').first().waitFor();
  await screenshot(page, `${shot}-redeemed`);
}

beforeAll(async () => {
  browser = await launch();
  demo = await demoToken();
});

afterAll(async () => {
  await browser?.close();
});

describe('ETF orders', () => {
  it('a customer without a risk rating is told before the form, with the way to the questionnaire', async () => {
    const token = await registerCustomer(`etf-${Date.now().toString(36)}@example.com`);
    for (const [viewport, lang] of [
      ['desktop', 'en'],
      ['mobile', 'zh'],
    ] as const) {
      const page = await open(token, viewport, lang, '/etflow_buy');
      await ready(page, 'etf-model');
      const notice = page.getByTestId('etf-not-eligible');
      await notice.waitFor();
      expect(await notice.getAttribute('data-reason')).toBe('FUNDS_RATING_REQUIRED');
      const rating = catalogs[lang].common.label.rating;
      expect(await notice.textContent()).toContain(rating.balanced);
      expect(await page.getByTestId('etf-buy-form').count()).toBe(0);
      await screenshot(page, `funds-not-eligible-${lang}-${viewport}`);
      await page.getByTestId('etf-eligibility-action').click();
      await page.waitForURL(/\/questionnaire/);
      expect((page as Page & { errors: string[] }).errors).toEqual([]);
      await page.close();
    }
  });

  it('buys a balanced ETF order through the form and redeems it (desktop, English)', async () => {
    const page = await open(demo, 'desktop', 'en', '/etflow_buy?model=balanced');
    await ready(page, 'etf-model');
    expect(await page.getByTestId('etf-weights').textContent()).toContain('BTC 40%');
    expect(await page.getByTestId('etf-no-return').textContent()).toContain('No return is promised');
    const order = await buyThroughForm(page, 'balanced', '500', 'funds-balanced-en-desktop');
    expect(order.legs.map((l) => l.asset)).toEqual(['BTC', 'ETH']);
    // A leg is bought at market inside the price band. On a loaded machine the market maker can lag
    // the simulated mark (seen once in CI: nothing inside the band for ETH); such a leg ends 'failed'
    // with its reason and its budget stays in the order as cash (modules/funds/trade.ts) — never
    // silently. Any other state, or a failure without a reason, fails the test.
    for (const leg of order.legs) {
      if (leg.state === 'filled') continue;
      expect({ asset: leg.asset, state: leg.state }).toEqual({ asset: leg.asset, state: 'failed' });
      expect(leg.refusal?.code ?? '', `${leg.asset} leg failed without a reason`).toMatch(/^[A-Z][A-Z_]+$/);
    }
    await page.getByTestId('etf-order-table').waitFor();
    await screenshot(page, 'funds-orders-balanced-en-desktop');
    await redeemThroughPage(page, order, 'funds-balanced-en-desktop');
    expect((page as Page & { errors: string[] }).errors).toEqual([]);
    await page.close();
  });

  it('buys and redeems a low-risk ETF order on a phone, in Chinese', async () => {
    const page = await open(demo, 'mobile', 'zh', '/etflow_buy?model=low_risk');
    await ready(page, 'etf-model');
    const order = await buyThroughForm(page, 'low_risk', '300', 'funds-low-risk-zh-mobile');
    await page.getByTestId('etf-order-card').first().waitFor();
    await screenshot(page, 'funds-orders-low-risk-zh-mobile');
    await redeemThroughPage(page, order, 'funds-low-risk-zh-mobile');
    expect((page as Page & { errors: string[] }).errors).toEqual([]);
    await page.close();
  });

  it('one order in custody on each orders page', async () => {
    await webData('POST', 'buyEtf', { model_id: 'balanced', amount: '400' }, demo);
    await webData('POST', 'buyEtf', { model_id: 'low_risk', amount: '200' }, demo);
  });

  // One profile per size: each screen is reached as a link would reach it and shown in its languages
  // in turn (switched in place), with the same screenshots as before. The buy form shows the balanced
  // model in en and ft and the low-risk one in zh.
  for (const viewport of ['desktop', 'mobile'] as const)
    it(`the screens at ${viewport} in en, zh and ft`, { timeout: 180_000 }, async () => {
      const list = viewport === 'desktop' ? 'etf-order-table' : 'etf-order-card';
      const screens: Array<{ path: string; testId: string; langs: readonly Lang[] }> = [
        { path: '/etflow_buy?model=balanced', testId: 'etf-buy-form', langs: ['en', 'ft'] },
        { path: '/etflow_buy?model=low_risk', testId: 'etf-buy-form', langs: ['zh'] },
        { path: '/etf_wdtg', testId: list, langs: LANGS },
        { path: '/etflow_wdtg', testId: list, langs: LANGS },
      ];
      const page = await open(demo, viewport, 'en', '/etf_wdtg');
      for (const { path, testId, langs } of screens) {
        await visit(page, path);
        for (const lang of langs) {
          await switchLang(page, lang);
          await ready(page, testId);
          if (path.startsWith('/etflow_buy')) {
            // The previous model (or language) stays on screen until the new one arrives: wait for
            // this model's name as the server words it in this language.
            const model = path.endsWith('low_risk') ? 'low_risk' : 'balanced';
            const name = await modelName(model, lang);
            await page.getByTestId('etf-model').getByRole('heading', { name, exact: true }).waitFor();
            await page.getByTestId('etf-preview').waitFor();
          }
          await expectNoRawKeys(page, ['funds']);
          if (lang !== 'en')
            await expect
              .poll(() => englishTexts(page), { message: `${path} in ${lang} at ${viewport}` })
              .toEqual([]);
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          ).toBeLessThanOrEqual(0);
          const name = path.slice(1).replace('?model=', '-');
          await screenshot(page, `funds-${name}-${lang}-${viewport}`);
        }
      }
      expect((page as Page & { errors: string[] }).errors).toEqual([]);
      await page.context().close();
    });

  it('staff see the models, the orders and the NAV history; pausing a model needs a reason and is audited', async () => {
    const staff = await createAdministrator('funds-admin', 'Funds e2e');
    const token = await staffApiToken(staff);
    const errors: string[] = [];
    for (const [viewport, lang] of [
      ['desktop', 'en'],
      ['desktop', 'zh'],
      ['mobile', 'ft'],
    ] as const) {
      const { context, page } = await adminPage(browser, viewport, lang, token, errors);
      await page.goto('/admin/funds');
      await page.getByTestId('funds-model').first().waitFor();
      await screenshot(page, `funds-admin-models-${lang}-${viewport}`);
      await page.getByTestId('funds-tab-orders').click();
      await page.getByTestId('funds-order-row').first().waitFor();
      await screenshot(page, `funds-admin-orders-${lang}-${viewport}`);
      await page.getByTestId('funds-tab-nav').click();
      await page.getByTestId('funds-nav-table').waitFor();
      await context.close();
    }
    // Pause the low-risk model through the screen, with a reason; customers are refused; open it again.
    const { context, page } = await adminPage(browser, 'desktop', 'en', token, errors);
    await page.goto('/admin/funds');
    const lowRisk = page.locator('[data-testid="funds-model"][data-model="low_risk"]');
    await lowRisk.getByTestId('funds-model-toggle').click();
    await page.getByTestId('reason-input').fill('e2e: review of the model');
    await screenshot(page, 'funds-admin-pause-en-desktop');
    await page.getByTestId('reason-confirm').click();
    await expect.poll(async () => lowRisk.getByTestId('funds-model-state').textContent()).toBe('Paused');
    const refused = await webData('POST', 'buyEtf', { model_id: 'low_risk', amount: '200' }, demo).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refused).toContain('paused');
    await lowRisk.getByTestId('funds-model-toggle').click();
    await page.getByTestId('reason-input').fill('e2e: review done');
    await page.getByTestId('reason-confirm').click();
    await expect.poll(async () => lowRisk.getByTestId('funds-model-state').textContent()).toBe('Open');
    const audit = await staffCall<{ list: Array<{ action: string }> }>(
      'GET',
      'getAuditLog',
      { lang: 'en', target_id: 'low_risk' },
      token,
    );
    expect(audit.data.list.map((a) => a.action)).toEqual(['funds.model.open', 'funds.model.pause']);
    await context.close();
    expect(errors).toEqual([]);
  }, 240_000);
});
