import type { ContractInstrumentData } from '@bourse/protocol';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminPage,
  closedHours,
  createAdministrator,
  demoToken,
  setTradingHours,
  staffApiToken,
  webData,
} from './api.ts';
import { LANGS, launch, screenshot, switchLang } from './browser.ts';

/**
 * Trading hours in the back office, in Chromium: an administrator finds XAU/USD, is refused a
 * schedule the server cannot read (in the screen's language, nothing changed), sets hours that
 * exclude now with a reason — the row and the customer's contract list say closed at once — and
 * the catalogue's hours are put back afterwards. The screen in three languages at both sizes.
 */
const SYMBOL = 'XAU/USD';

let browser: Browser;
let staff = '';
let original: string | null = null;
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launch();
  staff = await staffApiToken(await createAdministrator('hours-staff', 'Hours e2e'));
});

afterAll(async () => {
  if (original !== null) await setTradingHours(staff, SYMBOL, original);
  await browser?.close();
});

describe('trading hours (back office)', () => {
  it('refuses unreadable hours, then closes a market at once with a reason', async () => {
    const { context, page } = await adminPage(browser, 'desktop', 'zh', staff, pageErrors);
    await page.goto('/admin/markets/hours');
    await page.getByTestId('trading-hours-screen').waitFor();
    await page.getByTestId('hours-search').fill(SYMBOL);
    const row = page.locator(`[data-testid="hours-row"][data-symbol="${SYMBOL}"]`);
    await row.waitFor();
    original = (await row.getByTestId('hours-text').textContent()) ?? '';
    expect(original).toMatch(/America\/New_York/);

    await row.getByTestId('hours-edit').click();
    await page.getByTestId('hours-input').fill('Mon-Fri 09:00-17:00');
    await page.getByTestId('reason-input').fill('e2e: unreadable hours');
    await page.getByTestId('reason-confirm').click();
    const refusal = page.getByTestId('error-note');
    await refusal.waitFor();
    expect((await refusal.textContent()) ?? '').toMatch(/[\u4e00-\u9fff]/);
    await screenshot(page, 'admin-hours-refused-zh-desktop');

    const hours = closedHours();
    await page.getByTestId('hours-input').fill(hours);
    await page.getByTestId('reason-confirm').click();
    await page.getByTestId('reason-confirm').waitFor({ state: 'detached' });
    await expect.poll(() => row.getByTestId('hours-text').textContent()).toBe(hours);
    await expect.poll(() => row.locator('[data-state]').getAttribute('data-state')).toBe('closed');
    const token = await demoToken();
    const contracts = await webData<{ items: ContractInstrumentData[] }>(
      'GET',
      'getContracts',
      { symbol: SYMBOL },
      token,
    );
    expect(contracts.items[0]).toMatchObject({ trading_hours: hours, open: false });
    await context.close();

    await setTradingHours(staff, SYMBOL, original);
    original = null;
    expect(pageErrors).toEqual([]);
  });

  it('shows the screen in every language and size', async () => {
    // One profile per size (the phone's loaded in ft), the screen shown in en, zh and ft in turn.
    for (const [viewport, loadedIn] of [
      ['desktop', 'en'],
      ['mobile', 'ft'],
    ] as const) {
      const { context, page } = await adminPage(browser, viewport, loadedIn, staff, pageErrors);
      await page.goto('/admin/markets/hours');
      await page.getByTestId('trading-hours-screen').waitFor();
      for (const lang of LANGS) {
        await switchLang(page, lang, 'admin');
        await page.getByTestId('trading-hours-screen').waitFor();
        await page.locator('[data-testid="hours-row"]').first().waitFor();
        await screenshot(page, `admin-hours-${lang}-${viewport}`);
      }
      await context.close();
    }
    expect(pageErrors).toEqual([]);
  });
});
