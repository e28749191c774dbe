import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdministrator, demoToken, adminPage as newAdminPage, staffCall, webCall } from './api.ts';
import { LANGS, launch, screenshot, switchLang, VIEWPORTS, type ViewportName, visit } from './browser.ts';
import { staffEnrolmentLogIn } from './pages.ts';

/**
 * The derivatives back office in Chromium. An administrator of this test's own logs in through the
 * login screen (TOTP enrolment, the code computed from the secret the screen shows); a demo
 * customer opens a contract position and buys an option through the customer API so there is
 * something to see. Then the administrator changes a contract setting with a reason (a spread off
 * the price tick is refused by the server, localized, on the field it names), edits an option
 * duration set, switches the jurisdiction profile to EU retail and back (the customer's
 * getJurisdiction follows), edits the custom profile, funds the demo insurance account, and views
 * exposure and positions. Then every derivatives screen in en, zh and ft at 1920×1080 and 390×844.
 */
const CONTRACT = 'BTC/USDT-PERP';
const OPTION = 'BTC/USDT';
const SCREENS = [
  ['contracts', 'contract-settings-row'],
  ['options', 'option-settings-row'],
  ['exposure', 'exposure-table'],
  ['positions', 'position-row'],
  ['insurance', 'insurance-movements'],
  ['jurisdiction', 'jurisdiction-profile'],
] as const;
const TITLES = {
  en: 'Contract settings',
  zh: '合约设置',
  ft: '合約設定',
} as const;

let browser: Browser;
let staffToken = '';
let customerToken = '';
let customerId = '';
let positionId = '';
let staff = { email: '', password: '' };
const pageErrors: string[] = [];

// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field
type Answer = { code: number; msg: string; data: any; reason?: string; params?: Record<string, unknown> };

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

/** A customer call (form-encoded, as the app sends it). */
async function web(call: string, fields: Record<string, string>, method: 'GET' | 'POST' = 'POST') {
  return (await webCall(method, call, fields, customerToken || null)) as Answer;
}

/** A back-office read with the staff session (to check what the screens claim). */
const adminGet = (call: string, fields: Record<string, string> = {}) =>
  staffCall<Answer['data']>('GET', call, { lang: 'en', ...fields }, staffToken) as Promise<Answer>;

function adminPage(viewport: ViewportName, lang: (typeof LANGS)[number], withToken = true) {
  return newAdminPage(browser, viewport, lang, withToken ? staffToken : null, pageErrors);
}

/** A decimal string as integer units of 10⁻¹⁸ (no floats on money, even in tests). */
function units(value: string): bigint {
  const [whole = '0', fraction = ''] = value.split('.');
  return BigInt(whole + fraction.padEnd(18, '0'));
}

/** Waits until an opened dialog has finished its entrance transition (fully opaque). */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const content = document.querySelector('.mantine-Modal-content');
    if (!content) return false;
    const style = getComputedStyle(content);
    return style.opacity === '1' && ['none', 'matrix(1, 0, 0, 1, 0, 0)'].includes(style.transform);
  });
}

function row(page: Page, testId: string, symbol: string): Locator {
  return page.locator(`[data-testid="${testId}"][data-symbol="${symbol}"]`);
}

beforeAll(async () => {
  browser = await launch();
  staff = await createAdministrator('deriv-admin', 'Derivatives e2e');
  customerToken = await demoToken();
});
afterAll(async () => {
  await browser?.close();
});

describe('derivatives back office', () => {
  it('an administrator logs in with a password and an enrolled authenticator', async () => {
    const { context, page } = await adminPage('desktop', 'en', false);
    await page.goto('/admin/derivatives/contracts');
    await page.waitForURL(/\/admin\/login$/);
    await staffEnrolmentLogIn(page, staff);
    await page.getByTestId('nav-derivatives/contracts').waitFor();
    staffToken = (await page.evaluate(() => sessionStorage.getItem('bourse.admin.token'))) ?? '';
    expect(staffToken).not.toBe('');
    for (const [path] of SCREENS)
      await expect(page.getByTestId(`nav-derivatives/${path}`).count()).resolves.toBe(1);
    await context.close();
  });

  it('a demo customer opens a position and buys an option (data for the screens)', async () => {
    for (const to of ['contract', 'options']) {
      const moved = await web('transferAsset', { currency: 'USDT', amount: '2000', from: 'spot', to });
      expect(moved.code, moved.msg).toBe(1);
    }
    const contracts = await web('getContracts', { symbol: CONTRACT }, 'GET');
    expect(contracts.code, contracts.msg).toBe(1);
    const instrument = contracts.data.items?.[0] ?? contracts.data[0];
    const opened = await web('openContract', {
      symbol: CONTRACT,
      side: 'buy',
      lots: instrument.min_lots,
      leverage: '10',
    });
    expect(opened.code, opened.msg).toBe(1);
    positionId = opened.data.position.position_id;
    expect(positionId).toMatch(/\S/);
    const options = await web('getOptions', { symbol: OPTION }, 'GET');
    expect(options.code, options.msg).toBe(1);
    const offered = options.data.items?.[0] ?? options.data[0];
    const bought = await web('buyOption', {
      symbol: OPTION,
      direction: 'up',
      stake: offered.min_stake,
      duration: String(offered.durations[offered.durations.length - 1].seconds),
    });
    expect(bought.code, bought.msg).toBe(1);
  });

  it('contract settings: a change with a reason; a spread off the tick is refused, localized, on its field', async () => {
    const { context, page } = await adminPage('desktop', 'en');
    await page.goto('/admin/derivatives/contracts');
    await page.getByTestId('no-control-note').waitFor();
    const target = row(page, 'contract-settings-row', CONTRACT);
    await target.waitFor();
    const before = (await adminGet('contracts/settings')).data.items.find(
      (s: { symbol: string }) => s.symbol === CONTRACT,
    );
    const fee = before.fee_per_lot === '0.25' ? '0.3' : '0.25';

    // A spread finer than the price tick passes the form's format hint but not the server.
    await target.getByTestId('contract-edit').click();
    await page.getByTestId('contract-edit-spread').fill('0.000001');
    await page.getByTestId('reason-input').fill('E2E: spread below one tick');
    await page.getByTestId('contract-edit-save').click();
    await expect(page.getByTestId('error-note').textContent()).resolves.toBe(
      'The setting spread is not valid',
    );
    await settled(page);
    await screenshot(page, 'admin-derivatives-contract-refused-en-desktop');
    // The field the refusal names carries the mark.
    await expect(page.getByText('Refused by the server').count()).resolves.toBe(1);
    await expect(page.getByTestId('contract-edit-spread').getAttribute('aria-invalid')).resolves.toBe('true');
    // A missing reason never leaves the browser.
    await page.getByTestId('contract-edit-spread').fill(before.spread);
    await page.getByTestId('contract-edit-fee_per_lot').fill(fee);
    await page.getByTestId('reason-input').fill('');
    await page.getByTestId('contract-edit-save').click();
    await page.getByText('A reason of at least 3 characters is required').waitFor();
    await page.getByTestId('reason-input').fill('E2E: new fee per lot');
    await page.getByTestId('contract-edit-save').click();
    await page.getByTestId('saved-note').waitFor();
    await poll(async () => (await target.textContent()) ?? '').toContain(fee);
    const after = (await adminGet('contracts/settings')).data.items.find(
      (s: { symbol: string }) => s.symbol === CONTRACT,
    );
    expect(after.fee_per_lot).toBe(fee);
    expect(after.spread).toBe(before.spread);
    // The customer sees the new fee at once (it applies to new orders).
    const customer = await web('getContracts', { symbol: CONTRACT }, 'GET');
    expect((customer.data.items?.[0] ?? customer.data[0]).fee_per_lot).toBe(fee);

    // The same refusal in Chinese.
    await page.getByTestId('lang-switch').first().getByText('简体中文').click();
    await target.getByTestId('contract-edit').click();
    await page.getByTestId('contract-edit-max_lots').fill('99.0001');
    await page.getByTestId('reason-input').fill('E2E：手数过细');
    await page.getByTestId('contract-edit-save').click();
    await expect(page.getByTestId('error-note').textContent()).resolves.toBe('设置项 max_lots 无效');
    await page.getByText('服务器拒绝了此值').waitFor();
    await settled(page);
    await screenshot(page, 'admin-derivatives-contract-refused-zh-desktop');
    await context.close();
  });

  it('option settings: a duration is added to the set, with a reason', async () => {
    const { context, page } = await adminPage('desktop', 'en');
    await page.goto('/admin/derivatives/options');
    const target = row(page, 'option-settings-row', OPTION);
    await target.waitFor();
    const before = (await adminGet('options/settings')).data.items.find(
      (s: { symbol: string }) => s.symbol === OPTION,
    );
    const seconds = [45, 75, 150, 450].find(
      (s) => !before.durations.some((d: { seconds: number }) => d.seconds === s),
    );
    expect(seconds).toBeDefined();
    await target.getByTestId('option-edit').click();
    if (before.durations.length >= 8) await page.getByTestId('duration-remove').last().click();
    await page.getByTestId('duration-add').click();
    await page.getByTestId('duration-seconds').last().fill('10');
    await page.getByTestId('duration-rate').last().fill('0.8');
    await page.getByText('Whole seconds, 30–86400').waitFor();
    await page.getByTestId('duration-seconds').last().fill(String(seconds));
    await settled(page);
    await screenshot(page, 'admin-derivatives-option-edit-en-desktop');
    await page.getByTestId('reason-input').fill('E2E: add a duration');
    await page.getByTestId('option-edit-save').click();
    await page.getByTestId('saved-note').waitFor();
    await poll(async () => (await target.textContent()) ?? '').toContain(`${seconds} s → 80%`);
    const after = (await adminGet('options/settings')).data.items.find(
      (s: { symbol: string }) => s.symbol === OPTION,
    );
    expect(after.durations).toContainEqual({ seconds, payout_rate: '0.8' });
    const customer = await web('getOptions', { symbol: OPTION }, 'GET');
    expect((customer.data.items?.[0] ?? customer.data[0]).durations).toContainEqual({
      seconds,
      payout_rate: '0.8',
    });
    await context.close();
  });

  it('jurisdiction: EU retail and back; the customer call follows; the custom profile is edited', async () => {
    const { context, page } = await adminPage('desktop', 'en');
    await page.goto('/admin/derivatives/jurisdiction');
    await page.locator('[data-testid="jurisdiction-screen"][data-active="permissive"]').waitFor();
    const eu = page.locator('[data-testid="jurisdiction-profile"][data-profile="eu_retail"]');
    await expect(eu.getByTestId('cap-crypto').textContent()).resolves.toBe('2:1');
    await expect(eu.getByTestId('cap-forex_major').textContent()).resolves.toBe('30:1');
    await eu.getByTestId('jurisdiction-activate').click();
    await page.getByTestId('reason-input').fill('E2E: EU retail limits');
    await page.getByTestId('reason-confirm').click();
    await page.locator('[data-testid="jurisdiction-screen"][data-active="eu_retail"]').waitFor();
    const active = await web('getJurisdiction', {}, 'GET');
    expect(active.data.active.id).toBe('eu_retail');
    expect(active.data.active.options_enabled).toBe(false);
    const capped = await web('getContracts', { symbol: CONTRACT }, 'GET');
    expect((capped.data.items?.[0] ?? capped.data[0]).max_leverage).toBeLessThanOrEqual(2);
    await page.goto('/admin/derivatives/contracts');
    await expect(row(page, 'contract-settings-row', CONTRACT).textContent()).resolves.toMatch(/ \/ 2×/);

    await page.goto('/admin/derivatives/jurisdiction');
    const custom = page.locator('[data-testid="jurisdiction-profile"][data-profile="custom"]');
    await custom.getByTestId('jurisdiction-edit').click();
    await page.getByTestId('custom-cap-crypto').fill('3');
    await page.getByTestId('reason-input').fill('E2E: custom crypto cap');
    await page.getByTestId('custom-save').click();
    await page.getByTestId('saved-note').waitFor();
    await poll(async () => custom.getByTestId('cap-crypto').textContent()).toBe('3:1');

    const permissive = page.locator('[data-testid="jurisdiction-profile"][data-profile="permissive"]');
    await permissive.getByTestId('jurisdiction-activate').click();
    await page.getByTestId('reason-input').fill('E2E: back to the default');
    await page.getByTestId('reason-confirm').click();
    await page.locator('[data-testid="jurisdiction-screen"][data-active="permissive"]').waitFor();
    expect((await web('getJurisdiction', {}, 'GET')).data.active.id).toBe('permissive');
    await context.close();
  });

  it('insurance: the demo account is funded with a reason; a bad amount is refused', async () => {
    const { context, page } = await adminPage('desktop', 'en');
    await page.goto('/admin/derivatives/insurance');
    await page.getByTestId('insurance-fund').waitFor();
    const before = (await adminGet('contracts/insurance', { book: 'demo' })).data.balance as string;
    await page.getByTestId('insurance-amount').fill('1.0000000001');
    await page.getByTestId('reason-input').fill('E2E: too precise');
    await page.getByTestId('insurance-submit').click();
    await page.getByTestId('error-note').waitFor();
    expect((await adminGet('contracts/insurance', { book: 'demo' })).data.balance).toBe(before);
    await page.getByTestId('insurance-amount').fill('2500');
    await page.getByTestId('reason-input').fill('E2E: capital for the demo book');
    await page.getByTestId('insurance-submit').click();
    await expect(page.getByTestId('insurance-funded').textContent()).resolves.toBe(
      'Funded: +2500 USDT to the Demo book',
    );
    const after = (await adminGet('contracts/insurance', { book: 'demo' })).data;
    expect(units(after.balance) - units(before)).toBe(units('2500'));
    await page.getByTestId('book-toggle').last().getByText('Demo').click();
    // Amounts are grouped for reading: compare without the separators.
    const ungrouped = async (testId: string) =>
      ((await page.getByTestId(testId).textContent()) ?? '').replaceAll(',', '');
    await poll(() => ungrouped('insurance-movements')).toContain('2500');
    await poll(() => ungrouped('insurance-balance-demo')).toContain(after.balance);
    await context.close();
  });

  it('exposure and positions show the demo position and option as the server gives them', async () => {
    const { context, page } = await adminPage('desktop', 'en');
    await page.goto('/admin/derivatives/exposure');
    await page.getByTestId('book-toggle').getByText('Demo').click();
    const exposure = row(page, 'exposure-row', CONTRACT);
    await exposure.waitFor();
    const server = (await adminGet('contracts/exposure', { book: 'demo' })).data.items.find(
      (e: { symbol: string }) => e.symbol === CONTRACT,
    );
    expect(Number(server.positions)).toBeGreaterThanOrEqual(1);
    await expect(exposure.textContent()).resolves.toContain(server.long_lots);
    await row(page, 'option-exposure-row', OPTION).waitFor();
    await page.getByTestId('refreshed-note').first().waitFor();

    // The customer of the position opened above, as the back office lists it.
    const mine = (await adminGet('contracts/positions', { symbol: CONTRACT, status: 'open', book: 'demo' }))
      .data;
    const opened = mine.items.find((p: { position_id: string }) => p.position_id === positionId);
    expect(opened).toBeDefined();
    customerId = opened.customer_id;
    await page.goto('/admin/derivatives/positions');
    await page.getByTestId('positions-symbol').fill(CONTRACT);
    await page.getByTestId('positions-customer').fill(customerId);
    await page.getByTestId('positions-apply').click();
    const position = page.locator(`[data-testid="position-row"][data-symbol="${CONTRACT}"]`);
    await poll(() => position.count()).toBe(1);
    // Figures are grouped for reading ("95,101.2"): compare without the separators.
    const text = ((await position.textContent()) ?? '').replaceAll(',', '');
    for (const figure of [
      opened.position_id,
      opened.open_price,
      opened.lots,
      opened.customer_id,
      opened.margin,
    ])
      expect(text).toContain(figure);
    await expect(page.getByTestId('positions-total').textContent()).resolves.toMatch(/^Positions: 1 ·/);
    // Read only: nothing on these screens closes a position or sets a price.
    await expect(page.getByRole('button', { name: /close|liquidate|price/i }).count()).resolves.toBe(0);
    await context.close();
  });

  // One profile per size (the phone's loaded in ft): each screen is reached as a link would reach it
  // and shown in en, zh and ft in turn (the language switched in place), with a screenshot of each.
  for (const [viewport, loadedIn] of [
    ['desktop', 'en'],
    ['mobile', 'ft'],
  ] as const) {
    it(`derivatives screens at ${viewport} in en, zh and ft`, { timeout: 180_000 }, async () => {
      const { context, page } = await adminPage(viewport, loadedIn);
      await page.goto('/admin/derivatives/contracts');
      await page.getByTestId('contract-settings-row').first().waitFor();
      for (const [path, ready] of SCREENS) {
        await visit(page, `/admin/derivatives/${path}`);
        for (const lang of LANGS) {
          await switchLang(page, lang, 'admin');
          await page.getByTestId(ready).first().waitFor();
          if (path === 'contracts')
            await expect
              .poll(() => page.locator('h2').first().textContent(), { message: `title in ${lang}` })
              .toBe(TITLES[lang]);
          const demo = { en: 'Demo', zh: '模拟', ft: '模擬' }[lang];
          if (path === 'exposure') {
            await page.getByTestId('book-toggle').getByText(demo).click();
            await row(page, 'exposure-row', CONTRACT).waitFor();
            await row(page, 'option-exposure-row', OPTION).waitFor();
          }
          if (path === 'insurance') {
            await page.getByTestId('book-toggle').last().getByText(demo).click();
            await page.getByTestId('insurance-movement').first().waitFor();
          }
          const text = () =>
            page
              .locator('body')
              .textContent()
              .then((t) => t ?? '');
          expect(await text(), `${path} ${lang}`).not.toMatch(/\bderivatives\.[a-z]+/);
          if (lang !== 'en')
            await expect
              .poll(text, { message: `${path} in ${lang} ${viewport}` })
              .not.toMatch(/Prices come from the recorded feed/);
          await screenshot(page, `admin-derivatives-${path}-${lang}-${viewport}`);
          // The edit dialogs and the confirm, as the phone and the desktop show them.
          const dialog = {
            contracts: 'contract-edit',
            options: 'option-edit',
            jurisdiction: 'jurisdiction-activate',
          }[path as 'contracts'];
          if (dialog) {
            await page.getByTestId(dialog).first().click();
            await page.getByTestId('reason-input').waitFor();
            await settled(page);
            await screenshot(page, `admin-derivatives-${path}-dialog-${lang}-${viewport}`);
            await page.keyboard.press('Escape');
            await page.getByTestId('reason-input').waitFor({ state: 'detached' });
          }
          // Phones: cards instead of wide tables, so the page never scrolls sideways.
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          expect(width, `${path} ${lang}`).toBeLessThanOrEqual(VIEWPORTS[viewport].width);
        }
      }
      await context.close();
      expect(pageErrors).toEqual([]);
    });
  }
});
