import {
  type ContractInstrumentData,
  type ContractPositionData,
  type ContractQuoteData,
  DERIVATIVES_LIMITS,
  type OpenContractResult,
} from '@bourse/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedHours,
  createAdministrator,
  demoToken,
  setTradingHours,
  staffApiToken,
  webCall,
  webData,
} from './api.ts';
import { LANGS, launch, screenshot, signedInPage, switchLang, type ViewportName, visit } from './browser.ts';
import { englishTexts } from './pages.ts';
import { until } from './wait.ts';

/**
 * Contract trading in Chromium on /preciousMetal, as a demo customer (100,000 demo USDT in spot,
 * moved to the contract account through the transfer screen): a market long with leverage and
 * TP/SL seen in positions with P&L and risk rate, a margin top-up, a partial close, the close of
 * the rest and the history; a limit order far from the market, cancelled; close-all; refusals
 * from the server shown in place in the customer's language (a closed market naming its hours);
 * the records page; screenshots in three languages at desktop and phone sizes.
 * BTC/USDT-PERP trades 24/7. XAU/USD is closed on purpose for the refusal: the test sets trading
 * hours that exclude now through the staff call (the server runs on the real clock, any day) and
 * puts the catalogue's hours back afterwards.
 */

type Lang = (typeof LANGS)[number];

const PERP = 'BTC/USDT-PERP';
const CLOSED = 'XAU/USD';
const ONE = 10n ** 18n;

let browser: Browser;
let token: string;
let perp: ContractInstrumentData;
let staff: string;
let closedWas: string | null = null;

const call = <T>(method: 'GET' | 'POST', name: string, params: Record<string, string> = {}, lang = 'en') =>
  webCall<T>(method, name, params, token, lang);
const data = <T>(method: 'GET' | 'POST', name: string, params: Record<string, string> = {}) =>
  webData<T>(method, name, params, token);

/** A decimal string as integer units of 10⁻¹⁸ (no floats on money, even in tests); signed. */
function u(value: string): bigint {
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = value.replace(/^[-+]/, '').split('.');
  const out = BigInt(whole + fraction.padEnd(18, '0').slice(0, 18));
  return negative ? -out : out;
}
function show(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / ONE;
  const fraction = (abs % ONE).toString().padStart(18, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
const floorTo = (value: bigint, step: bigint) => value - (value % step);

/** A page logged in with the demo token, at a viewport and language, opened at `path`. */
const open = (viewport: ViewportName, lang: (typeof LANGS)[number], path: string) =>
  signedInPage(browser, { viewport, lang, token, path });

const tradeUrl = (symbol: string) => `/preciousMetal?symbol=${encodeURIComponent(symbol)}`;

async function attr(page: Page, selector: string, name: string): Promise<string> {
  return (await page.locator(selector).first().getAttribute(name)) ?? '';
}

/** The server's current opening price for a buy of the minimum lots (a preview; nothing is reserved). */
async function quotePrice(side: 'buy' | 'sell' = 'buy'): Promise<bigint> {
  const quote = await data<ContractQuoteData>('GET', 'getContractQuote', {
    symbol: PERP,
    side,
    lots: perp.min_lots,
    leverage: String(perp.leverage_choices[0] ?? 1),
  });
  return u(quote.price);
}

async function positions(): Promise<ContractPositionData[]> {
  return (await data<{ items: ContractPositionData[] }>('GET', 'getContractPositions')).items;
}

async function chooseLeverage(page: Page, leverage: number): Promise<void> {
  await page.getByTestId('form-leverage').click();
  await page.getByRole('option', { name: `${leverage}×`, exact: true }).click();
}

beforeAll(async () => {
  browser = await launch();
  token = await demoToken();
  const contracts = await data<{ items: ContractInstrumentData[] }>('GET', 'getContracts');
  const found = contracts.items.find((c) => c.symbol === PERP);
  if (!found) throw new Error(`${PERP} is not offered`);
  perp = found;
  expect(perp.open).toBe(true);
  staff = await staffApiToken(await createAdministrator('ctr-staff', 'Contracts e2e'));
  const closed = await setTradingHours(staff, CLOSED, closedHours());
  closedWas = closed.previous;
  expect(closed.state).toBe('closed');
  const after = await data<{ items: ContractInstrumentData[] }>('GET', 'getContracts', { symbol: CLOSED });
  expect(after.items[0]?.open).toBe(false);
});

afterAll(async () => {
  if (closedWas !== null) await setTradingHours(staff, CLOSED, closedWas);
  await browser?.close();
});

describe('contract trading', () => {
  it('funds the contract account from the trade view through the transfer screen', async () => {
    const page = await open('desktop', 'en', tradeUrl(PERP));
    await page.getByTestId('contract-form').waitFor();
    await page.getByTestId('demo-book').waitFor();
    // No USDT in the contract account yet: the form says so and links to the prefilled transfer.
    await page.getByTestId('form-no-funds').waitFor();
    await page.getByTestId('form-transfer').click();
    await page.waitForURL(/\/transfer\?currency=USDT&from=spot/);
    await expect.poll(() => page.getByTestId('transfer-available').innerText()).toContain('100,000');
    await page.getByTestId('transfer-amount').fill('20000');
    await page.getByTestId('transfer-submit').click();
    type Assets = { accounts: { type: string; rows: { currency: string; available: string }[] }[] };
    const contractUsdt = (a: Assets) =>
      a.accounts.find((x) => x.type === 'contract')?.rows.find((r) => r.currency === 'USDT')?.available ??
      '0';
    await until(
      () => data<Assets>('GET', 'getAsset2'),
      (a) => u(contractUsdt(a)) === u('20000'),
      'USDT in the contract account',
    );
    await page.goto(tradeUrl(PERP));
    await until(
      () => attr(page, '[data-testid="form-available"]', 'data-value'),
      (v) => v !== '' && u(v) === u('20000'),
      'the form to show the contract balance',
    );
    await expect(page.getByTestId('form-no-funds').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('opens a market long with leverage and TP/SL, adds margin, closes part and then the rest', async () => {
    const page = await open('desktop', 'en', tradeUrl(PERP));
    await page.getByTestId('contract-form').waitFor();
    // The open limit the server refuses past (CONTRACT_OPEN_LIMIT) is among the rules shown.
    await expect(page.getByTestId('rule-open-max').textContent()).resolves.toMatch(
      new RegExp(`${DERIVATIVES_LIMITS.openPerInstrumentMax}$`),
    );
    const step = u(perp.lot_step);
    const lots = u(perp.min_lots) * 4n;
    const leverage = [...perp.leverage_choices].filter((c) => c <= 20).pop() ?? perp.leverage_choices[0] ?? 1;
    const price = await quotePrice();
    const tick = u(perp.price_tick);
    const tp = floorTo((price * 3n) / 2n, tick);
    const sl = floorTo(price / 2n, tick);
    // The form states the lot size and the side rule before anything is typed.
    await expect(page.getByTestId('form-lot-size').textContent()).resolves.toContain(
      `1 lot = ${perp.contract_size} ${perp.base}`,
    );
    await expect(page.getByTestId('form-side-rule').textContent()).resolves.toContain('take profit is above');
    await chooseLeverage(page, leverage);
    await page.getByTestId('form-lots').fill(show(lots));
    await page.getByTestId('form-tp').fill(show(tp));
    await page.getByTestId('form-sl').fill(show(sl));
    // The preview is the server's: its fee is fee_per_lot × lots, exactly.
    await page.locator('[data-testid="form-preview"][data-ready="yes"]').waitFor();
    const fee = await until(
      () => attr(page, '[data-testid="preview-fee"]', 'data-value'),
      (v) => v !== '',
      'the preview fee',
    );
    expect(u(fee)).toBe((u(perp.fee_per_lot) * lots) / ONE);
    const margin = u(await attr(page, '[data-testid="preview-margin"]', 'data-value'));
    expect(margin > 0n).toBe(true);
    await expect(page.getByTestId('preview-liq').textContent()).resolves.toMatch(/\d/);
    await screenshot(page, 'contracts-flow-preview');
    await page.getByTestId('form-submit').click();

    const row = page.locator(`[data-testid="position-row"][data-symbol="${PERP}"]`);
    await row.first().waitFor({ timeout: 15_000 });
    const [position] = await positions();
    if (!position) throw new Error('no position');
    expect(position.side).toBe('buy');
    expect(position.leverage).toBe(leverage);
    expect(u(position.lots)).toBe(lots);
    expect(u(position.tp_price ?? '0')).toBe(tp);
    expect(u(position.sl_price ?? '0')).toBe(sl);
    // Live numbers from the server: P&L and risk rate against the liquidation level.
    await until(
      () => attr(page, '[data-testid="position-row"] [data-testid="position-pnl"]', 'data-value'),
      (v) => v !== '',
      'the unrealised P&L',
    );
    const risk = page.locator('[data-testid="position-row"] [data-testid="position-risk"]');
    expect(await risk.getAttribute('data-level')).toBe(perp.liquidation_level);
    await expect(risk.textContent()).resolves.toMatch(/%/);
    const tpSlText = (await row.getByTestId('position-tpsl-value').textContent()) ?? '';
    expect(tpSlText.split(' / ').map((x) => u(x.trim().replaceAll(',', '')))).toEqual([tp, sl]);
    await screenshot(page, 'contracts-flow-open');

    // Margin top-up: the cap is shown; above it the form says so; within it the margin grows.
    const marginBefore = u(
      await attr(page, '[data-testid="position-row"] [data-testid="position-margin-value"]', 'data-value'),
    );
    await row.getByTestId('position-margin').click();
    await expect(attr(page, '[data-testid="margin-max"]', 'data-max')).resolves.toBe(perp.margin_topup_max);
    await page.getByTestId('margin-amount').fill(show(u(perp.margin_topup_max) + ONE));
    await expect(page.getByTestId('margin-submit').isDisabled()).resolves.toBe(true);
    await page.getByTestId('margin-amount').fill('25');
    await page.getByTestId('margin-submit').click();
    await until(
      () =>
        attr(page, '[data-testid="position-row"] [data-testid="position-margin-value"]', 'data-value').then(
          u,
        ),
      (m) => m >= marginBefore + u('25') - u('1'),
      'the margin to grow by the top-up',
    );

    // Partial close: half of the lots.
    await row.getByTestId('position-partial').click();
    await page.getByTestId('partial-lots').fill(show(lots + step));
    await expect(page.getByTestId('partial-submit').isDisabled()).resolves.toBe(true);
    await page.getByTestId('partial-lots').fill(show(lots / 2n));
    await page.getByTestId('partial-submit').click();
    await until(
      () => attr(page, '[data-testid="position-row"] [data-testid="position-lots"]', 'data-value').then(u),
      (l) => l === lots - lots / 2n,
      'the lots to halve',
    );

    // Close the rest, confirmed.
    await row.getByTestId('position-close').click();
    await page.getByTestId('confirm-close').click();
    await until(
      () => page.locator('[data-testid="position-row"]').count(),
      (n) => n === 0,
      'no open position',
    );
    await page.getByTestId('tab-history').click();
    const history = page.locator(
      '[data-testid="panel-history"] [data-testid="history-row"][data-status="closed"]',
    );
    await history.first().waitFor({ timeout: 10_000 });
    await expect(history.first().getByTestId('close-reason').textContent()).resolves.toBe('Closed by you');
    await expect(history.first().getByTestId('price-source').count()).resolves.toBe(1);
    await page.getByTestId('tab-closes').click();
    await until(
      () => page.locator('[data-testid="panel-closes"] [data-testid="close-row"]').count(),
      (n) => n === 2,
      'two closes (the partial and the rest)',
    );
    await screenshot(page, 'contracts-flow-closes');
    await page.context().close();
  });

  it('places a limit order far from the market and cancels it', async () => {
    const page = await open('desktop', 'en', tradeUrl(PERP));
    await page.getByTestId('contract-form').waitFor();
    const far = floorTo((await quotePrice()) / 2n, u(perp.price_tick));
    await page.getByTestId('form-type-limit').click();
    await page.getByTestId('form-price').fill(show(far));
    await page.getByTestId('form-lots').fill(perp.min_lots);
    await page.locator('[data-testid="form-preview"][data-ready="yes"]').waitFor();
    await expect(page.getByTestId('preview-price').textContent()).resolves.toMatch(/\d/);
    await page.getByTestId('form-submit').click();
    await page.getByTestId('tab-orders').click();
    const pending = page.locator(
      '[data-testid="panel-orders"] [data-testid="order-row"][data-status="pending"]',
    );
    await pending.first().waitFor({ timeout: 10_000 });
    await pending.first().getByTestId('order-cancel').click();
    await until(
      () => pending.count(),
      (n) => n === 0,
      'no pending order',
    );
    await page.goto('/contractRecord');
    await page.getByTestId('contract-records-page').waitFor();
    await page.getByTestId('records-tab-orders').click();
    await page.getByTestId('records-status').click();
    await page.getByRole('option', { name: 'Cancelled', exact: true }).click();
    await page.locator('[data-testid="order-row"][data-status="cancelled"]').first().waitFor();
    await expect(page.locator('[data-testid="order-row"] >> text=Cancelled by you').count()).resolves.toBe(1);
    await page.context().close();
  });

  it('closes all positions with a confirm', async () => {
    for (const side of ['buy', 'sell']) {
      const opened = await call<OpenContractResult>('POST', 'openContract', {
        symbol: PERP,
        side,
        lots: perp.min_lots,
        leverage: '5',
      });
      expect(opened.code, opened.msg).toBe(1);
    }
    const page = await open('desktop', 'en', tradeUrl(PERP));
    await until(
      () => page.locator('[data-testid="position-row"]').count(),
      (n) => n === 2,
      'two positions',
    );
    await page.getByTestId('close-all').click();
    await page.getByTestId('confirm-close-all').click();
    await until(
      () => page.locator('[data-testid="position-row"]').count(),
      (n) => n === 0,
      'every position closed',
    );
    await expect(page.getByTestId('close-all-failures').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('shows server refusals in place, in the customer language', async () => {
    // A closed market: the refusal names the trading hours.
    const page = await open('desktop', 'en', tradeUrl(CLOSED));
    await page.getByTestId('contract-form').waitFor();
    await page.getByTestId('form-market-closed').waitFor();
    const xau = (await data<{ items: ContractInstrumentData[] }>('GET', 'getContracts', { symbol: CLOSED }))
      .items[0];
    if (!xau) throw new Error('no XAU/USD');
    await page.getByTestId('form-lots').fill(xau.min_lots);
    await page.getByTestId('form-submit').click();
    const refusal = page.getByTestId('form-refusal');
    await refusal.waitFor();
    expect(await refusal.getAttribute('data-reason')).toBe('MARKET_CLOSED');
    const text = (await refusal.textContent()) ?? '';
    expect(text.length).toBeGreaterThan(10);
    await screenshot(page, 'contracts-refusal-closed-en');
    await page.context().close();

    const zh = await open('desktop', 'zh', tradeUrl(CLOSED));
    await zh.getByTestId('contract-form').waitFor();
    await zh.getByTestId('form-lots').fill(xau.min_lots);
    await zh.getByTestId('form-submit').click();
    const zhRefusal = zh.getByTestId('form-refusal');
    await zhRefusal.waitFor();
    expect(await zhRefusal.getAttribute('data-reason')).toBe('MARKET_CLOSED');
    expect((await zhRefusal.textContent()) ?? '').toMatch(/[\u4e00-\u9fff]/);
    await zh.context().close();

    // A take-profit on the wrong side of a buy: named while typing, refused by the server.
    const ft = await open('desktop', 'ft', tradeUrl(PERP));
    await ft.getByTestId('contract-form').waitFor();
    const below = floorTo((await quotePrice()) / 2n, u(perp.price_tick));
    await ft.getByTestId('form-lots').fill(perp.min_lots);
    await ft.getByTestId('form-tp').fill(show(below));
    await expect(ft.getByTestId('form-side-rule').textContent()).resolves.toMatch(/[\u4e00-\u9fff]/);
    await ft.getByTestId('form-submit').click();
    const ftRefusal = ft.getByTestId('form-refusal');
    await ftRefusal.waitFor();
    expect(await ftRefusal.getAttribute('data-reason')).toMatch(/TP|TAKE_PROFIT|SL/);
    expect((await ftRefusal.textContent()) ?? '').toMatch(/[\u4e00-\u9fff]/);
    await screenshot(ft, 'contracts-refusal-tp-ft');
    expect(await positions()).toEqual([]);
    await ft.context().close();
  });

  it('trades from the phone: bottom actions, the form in a sheet, positions as cards', async () => {
    const page = await open('mobile', 'en', tradeUrl(PERP));
    await page.getByTestId('phone-actions').waitFor();
    await page.getByTestId('phone-sell').click();
    const sheet = page.getByTestId('phone-order-sheet');
    await sheet.getByTestId('contract-form').waitFor();
    expect(await sheet.getByTestId('contract-form').getAttribute('data-side')).toBe('sell');
    await sheet.getByTestId('form-lots').fill(perp.min_lots);
    await sheet.locator('[data-testid="form-preview"][data-ready="yes"]').waitFor();
    await screenshot(page, 'contracts-phone-sheet');
    await sheet.getByTestId('form-submit').click();
    const card = page.locator('[data-testid="position-row-card"][data-side="sell"]');
    await card.first().waitFor({ timeout: 15_000 });
    await card.first().scrollIntoViewIfNeeded();
    await screenshot(page, 'contracts-phone-position');
  });
});

describe('contract screens', () => {
  beforeAll(async () => {
    // An open position, so the screens show one.
    const opened = await call<OpenContractResult>('POST', 'openContract', {
      symbol: PERP,
      side: 'buy',
      lots: perp.min_lots,
      leverage: '10',
    });
    expect(opened.code, opened.msg).toBe(1);
  });

  // One profile per size: the trade view, the order form with its preview and the records, each shown
  // in en, zh and ft in turn (the language switched in place), with a screenshot of each.
  for (const viewport of ['desktop', 'mobile'] as const) {
    it(`${viewport} in en, zh and ft`, { timeout: 180_000 }, async () => {
      const page = await open(viewport, 'en', tradeUrl(PERP));
      await page.getByTestId('contract-view').waitFor();
      const position = page.locator('[data-testid^="position-row"]:visible').first();
      await position.waitFor({ timeout: 15_000 });
      const noEnglish = async (lang: Lang, what: string) => {
        if (lang !== 'en')
          await expect.poll(() => englishTexts(page), { message: `${what} ${lang} ${viewport}` }).toEqual([]);
      };
      for (const lang of LANGS) {
        await switchLang(page, lang);
        await position.waitFor({ timeout: 15_000 });
        await noEnglish(lang, 'trade');
        await page.waitForTimeout(600);
        await screenshot(page, `contracts-trade-${lang}-${viewport}`);
      }
      const preview = page.locator('[data-testid="form-preview"][data-ready="yes"]');
      if (viewport === 'mobile') {
        await page.getByTestId('phone-buy').click();
        await page.getByTestId('phone-order-sheet').getByTestId('form-lots').fill(perp.min_lots);
        await preview.waitFor();
        for (const lang of LANGS) {
          await switchLang(page, lang);
          await preview.waitFor();
          await noEnglish(lang, 'sheet');
          await screenshot(page, `contracts-sheet-${lang}-${viewport}`);
        }
        await page.keyboard.press('Escape');
      } else {
        await page.getByTestId('form-lots').fill(perp.min_lots);
        await preview.waitFor();
        for (const lang of LANGS) {
          await switchLang(page, lang);
          await preview.waitFor();
          await page.waitForTimeout(300);
          await screenshot(page, `contracts-preview-${lang}-${viewport}`);
        }
      }
      await visit(page, '/contractRecord');
      await page.getByTestId('contract-records-page').waitFor();
      const history = page.locator('[data-testid^="history-row"]:visible').first();
      await history.waitFor({ timeout: 10_000 });
      for (const lang of LANGS) {
        await switchLang(page, lang);
        await history.waitFor({ timeout: 10_000 });
        await noEnglish(lang, 'records');
        await page.waitForTimeout(300);
        await screenshot(page, `contracts-records-${lang}-${viewport}`);
      }
      expect((page as Page & { errors: string[] }).errors).toEqual([]);
      await page.context().close();
    });
  }
});
