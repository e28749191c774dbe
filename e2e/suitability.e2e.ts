import { catalogs, interpolate } from '@bourse/i18n';
import type { ContractInstrumentData, RiskRatingData } from '@bourse/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCustomer, webCall, webData } from './api.ts';
import {
  LANGS,
  launch,
  newPage,
  screenshot,
  signedInPage,
  switchLang,
  type ViewportName,
  visit,
} from './browser.ts';
import { custodySecret, postCustodyWebhook, usdtDeposit } from './custody.ts';
import { englishTexts, expectNoRawKeys } from './pages.ts';

/**
 * The risk questionnaire in Chromium: a visitor reads /questionnaire (the scoring table and what each
 * rating allows, before answering) and is asked to log in to submit; a real customer answers it on
 * the screen, is rated balanced, and reads /fengxian; the contract screen's maximum leverage is the
 * rating's cap; a contract over the cap and an option stake over the cap are refused naming the
 * rating and the cap, in three languages; screenshots at 1920×1080 and 390×844.
 */

const PERP = 'BTC/USDT-PERP';
type Lang = (typeof LANGS)[number];

/** Answers that rate balanced under the shipped table (19 points, no ceiling). */
const BALANCED: Record<string, string> = {
  account_purpose: 'hedging',
  investment_purpose: 'growth',
  amount_band: '10k_100k',
  monthly_trades: '100_500',
  occupation: 'employed',
  experience_years: '1_3',
  derivatives_3y: 'under_10',
  leverage_loss: 'whole_margin',
  option_expiry: 'payout_or_stake_lost',
  loss_capacity: '10_25',
};

let browser: Browser;
let token: string;

const open = (viewport: ViewportName, lang: Lang, path: string) =>
  signedInPage(browser, { viewport, lang, token, path });

async function ready(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).waitFor();
  await page
    .locator('.mantine-Loader-root')
    .first()
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}

beforeAll(async () => {
  browser = await launch();
  token = await registerCustomer(`suitability-${Date.now().toString(36)}@example.com`);
  // Real money for the option stake: a USDT deposit through the signed custody webhook, moved to options.
  const address = await webData<{ address: string }>(
    'GET',
    'getRechargeAddress',
    { currency: 'USDT', chain: 'ERC20' },
    token,
  );
  const credited = await postCustodyWebhook(
    'webhook',
    usdtDeposit({ address: address.address, amount: '3000', txid: `e2esuit${Date.now().toString(16)}` }),
    custodySecret(),
  );
  expect(credited.code, credited.msg).toBe(1);
  await webData(
    'POST',
    'transferAsset',
    { currency: 'USDT', amount: '3000', from: 'spot', to: 'options' },
    token,
  );
});

afterAll(async () => {
  await browser?.close();
});

describe('the risk questionnaire', () => {
  it('a visitor reads the scoring table and the caps before answering, and is asked to log in', async () => {
    for (const [viewport, lang] of [
      ['desktop', 'en'],
      ['mobile', 'zh'],
    ] as const) {
      const { context, page } = await newPage(browser, { viewport, lang });
      await page.goto('/questionnaire');
      await ready(page, 'scoring-card');
      const scoring = (await page.getByTestId('scoring-card').textContent()) ?? '';
      expect(scoring).toContain(
        lang === 'en' ? 'From 10 points you are rated balanced' : '总分达到 10 分为平衡型',
      );
      await page.getByTestId(viewport === 'desktop' ? 'caps-table' : 'caps-cards').waitFor();
      // The leverage question's wrong answers carry their ceiling before anything is answered.
      await page.getByTestId('ceiling-leverage_loss-ten_percent').waitFor();
      await page.getByTestId('questionnaire-login').waitFor();
      await expectNoRawKeys(page, ['suitability']);
      await screenshot(page, `suitability-visitor-${lang}-${viewport}`);
      await page.getByTestId('question-leverage_loss').scrollIntoViewIfNeeded();
      await screenshot(page, `suitability-visitor-questions-${lang}-${viewport}`);
      await page.getByTestId('questionnaire-login').click();
      await page.waitForURL(/\/login/);
      await context.close();
    }
  });

  it('a customer answers on the screen, is rated balanced and reads the assessment', async () => {
    const page = await open('desktop', 'en', '/questionnaire');
    await ready(page, 'question-loss_capacity');
    for (const [question, option] of Object.entries(BALANCED))
      await page.getByTestId(`answer-${question}-${option}`).check();
    expect(await page.getByTestId('answered').textContent()).toContain('10 of 10');
    await page.getByTestId('questionnaire-send').click();
    await page.waitForURL(/\/fengxian/);
    const badge = page.getByTestId('rating-card').getByTestId('rating-badge');
    await badge.waitFor();
    expect(await badge.getAttribute('data-rating')).toBe('balanced');
    expect(await page.getByTestId('retake-from').textContent()).toContain(
      'You can retake the questionnaire from',
    );
    expect(await page.getByTestId('allows-contracts').textContent()).toContain('Leverage up to 50×');
    expect(await page.getByTestId('allows-contracts').textContent()).toContain(
      'Margin up to 20,000 USDT per order',
    );
    expect(await page.getByTestId('allows-options').textContent()).toContain(
      'Stake up to 2,000 USDT per order',
    );
    expect(await page.getByTestId('history-row').count()).toBe(1);
    await screenshot(page, 'suitability-fengxian-en-desktop');
    expect((page as Page & { errors: string[] }).errors).toEqual([]);
    await page.close();

    const rating = await webData<RiskRatingData>('GET', 'getRiskRating', {}, token);
    expect(rating.rating).toBe('balanced');
    // A second submission inside the cooling-off period is refused naming the date.
    const again = await webCall('POST', 'submitQuestionnaire', BALANCED, token, 'ft');
    expect(again.reason).toBe('SUITABILITY_COOLING_OFF');
    expect(again.msg).toContain('冷靜期');
  });

  // One profile per size: each screen is reached as a link would reach it and shown in en, zh and ft
  // in turn (the language switched in place), with the same screenshots as before.
  for (const viewport of ['desktop', 'mobile'] as const)
    it(`the screens at ${viewport} in en, zh and ft`, { timeout: 180_000 }, async () => {
      const page = await open(viewport, 'en', '/fengxian');
      for (const [path, testId] of [
        ['/fengxian', 'rating-card'],
        ['/questionnaire', 'scoring-card'],
      ] as const) {
        await visit(page, path);
        for (const lang of LANGS) {
          await switchLang(page, lang);
          await ready(page, testId);
          if (path === '/questionnaire') await page.getByTestId('cooling-off').waitFor();
          await expectNoRawKeys(page, ['suitability']);
          if (lang !== 'en')
            await expect
              .poll(() => englishTexts(page), { message: `${path} in ${lang} at ${viewport}` })
              .toEqual([]);
          // No page scrolls sideways, at either size.
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          ).toBeLessThanOrEqual(0);
          await screenshot(page, `suitability-${path.slice(1)}-${lang}-${viewport}`);
        }
      }
      expect((page as Page & { errors: string[] }).errors).toEqual([]);
      await page.context().close();
    });

  it('the settings screen links both', async () => {
    const settings = await open('mobile', 'en', '/setting');
    await settings.getByTestId('risk-links').waitFor();
    await settings.getByTestId('risk-links').scrollIntoViewIfNeeded();
    await settings.getByTestId('settings-fengxian').getByTestId('rating-badge').waitFor();
    await screenshot(settings, 'suitability-settings-en-mobile');
    await settings.getByTestId('settings-fengxian').click();
    await settings.waitForURL(/\/fengxian/);
    await settings.context().close();
  });

  it("the contract screen's maximum leverage is the rating's cap; over it the server refuses naming rating and cap", async () => {
    const list = await webData<{ items: ContractInstrumentData[] }>(
      'GET',
      'getContracts',
      { symbol: PERP },
      token,
    );
    expect(list.items[0]?.max_leverage).toBe(50);
    const page = await open('desktop', 'en', `/preciousMetal?symbol=${encodeURIComponent(PERP)}`);
    const leverage = page.getByTestId('form-leverage');
    await leverage.waitFor();
    await leverage.click();
    await page.getByRole('option', { name: '50×', exact: true }).waitFor();
    expect(await page.getByRole('option', { name: '100×', exact: true }).count()).toBe(0);
    await screenshot(page, 'suitability-contract-leverage-en-desktop');
    await page.close();

    for (const lang of LANGS) {
      const over = await webCall(
        'POST',
        'openContract',
        { symbol: PERP, side: 'buy', type: 'market', lots: '0.001', leverage: '51' },
        token,
        lang,
      );
      expect(over.reason).toBe('RATING_CAP_EXCEEDED');
      const rating = catalogs[lang].common.label.rating.balanced;
      expect(over.msg).toBe(
        interpolate(catalogs[lang].common.reason.RATING_CAP_EXCEEDED, {
          rating,
          product: catalogs[lang].common.label.product.contracts,
          cap: '50×',
          field: catalogs[lang].common.field.leverage,
        }),
      );
    }
  });

  it('an option stake over the cap is refused in place naming rating and cap', async () => {
    for (const [viewport, lang] of [
      ['desktop', 'en'],
      ['mobile', 'zh'],
      ['desktop', 'ft'],
    ] as const) {
      const page = await open(viewport, lang, `/options?symbol=${encodeURIComponent('BTC/USDT')}`);
      await page.getByTestId('option-form').waitFor();
      await page.locator('[data-testid="option-last"]:not([data-value=""])').waitFor({ timeout: 20_000 });
      await page.getByTestId('direction-up').click();
      await page.getByTestId('option-stake').fill('2500');
      await page.locator('[data-testid^="duration-"]').first().click();
      await page.getByTestId('option-buy').click();
      await page.getByTestId('option-confirm-submit').click();
      const refusal = page.getByTestId('option-refusal');
      await refusal.waitFor();
      expect(await refusal.getAttribute('data-reason')).toBe('RATING_CAP_EXCEEDED');
      const text = (await refusal.textContent()) ?? '';
      expect(text).toContain(catalogs[lang].common.label.rating.balanced);
      expect(text).toContain('2000 USDT');
      await page.getByTestId('option-confirm-submit').waitFor({ state: 'detached' });
      await screenshot(page, `suitability-option-refused-${lang}-${viewport}`);
      await page.close();
    }
  });
});
