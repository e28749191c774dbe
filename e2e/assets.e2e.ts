import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCustomer } from './api.ts';
import { LANGS, launch, screenshot, signedInPage, switchLang, type ViewportName, visit } from './browser.ts';
import { custodySecret, postCustodyWebhook } from './custody.ts';
import { expectNoRawKeys } from './pages.ts';

/**
 * Assets in Chromium: a registered customer sees the overview, gets USDT through a crypto deposit
 * reported by a signed custody webhook (shown in /rechargeRecord), transfers between account types,
 * exports records as CSV; then /table1, /table2, /transfer, the deposit sheet and a record screen in
 * en, zh and ft at 1920×1080 and 390×844.
 */
let browser: Browser;
let secret = '';
const pageErrors: string[] = [];
const customer = { email: `assets-e2e-${Date.now()}@example.com`, token: '' };

function webhook(event: object, key = secret) {
  return postCustodyWebhook('webhook', event, key);
}

const signedIn = (viewport: ViewportName, lang: (typeof LANGS)[number]) =>
  signedInPage(browser, { viewport, lang, token: customer.token, pageErrors });

/** The catalogue namespaces of these screens, whose keys must never show as text. */
const NAMESPACES = ['overview', 'table2', 'transfer', 'deposit', 'records', 'common', 'accountType'];

/** Waits until no loader shows on the screen (a screen's data arriving after its frame). */
async function loaded(page: Page): Promise<void> {
  await page
    .waitForFunction(() => document.querySelector('.mantine-Loader-root') === null, null, { timeout: 10_000 })
    .catch(() => undefined);
}

beforeAll(async () => {
  browser = await launch();
  secret = custodySecret();
  customer.token = await registerCustomer(customer.email);
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe('assets in Chromium', () => {
  it('deposit through a signed webhook, shown in the overview and /rechargeRecord; transfer; CSV export', async () => {
    const page = await signedIn('desktop', 'en');
    await page.goto('/asset');
    await page.waitForURL('**/table1');
    await page.getByTestId('assets-overview').waitFor();
    await expect.poll(() => page.getByTestId('assets-total').innerText()).toBe('0.00');

    // The deposit sheet shows the rules before the address.
    await page.getByTestId('action-deposit-USDT').click();
    await page.getByTestId('deposit-sheet').getByTestId('deposit-minimum').waitFor();
    expect(await page.getByTestId('deposit-minimum').innerText()).toContain('1 USDT');
    expect(await page.getByTestId('deposit-confirmations').innerText()).toContain('12');
    await page.getByTestId('deposit-address').waitFor();
    const address = (await page.getByTestId('deposit-address').innerText()).trim();
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // USDT on TRC20 is closed by default: the spec's text.
    await page.getByTestId('deposit-chain').getByText('TRC20').click();
    await expect.poll(() => page.getByTestId('deposit-closed').innerText()).toMatch(/not yet open/i);
    await page.keyboard.press('Escape');

    // A bad signature is refused; the signed event below the threshold is processing; then credited.
    const event = {
      type: 'deposit',
      chain: 'ERC20',
      txid: `e2e${Date.now().toString(16)}`,
      output_index: 0,
      address,
      currency: 'USDT',
      amount: '1250.5',
      confirmations: 3,
      status: 'success',
    };
    const forged = await webhook(event, 'not-the-secret-not-the-secret-not-the');
    expect(forged.status).toBe(403);
    expect((await webhook(event)).data).toMatchObject({ status: 1, credited: false });
    const credited = await webhook({ ...event, confirmations: 12 });
    expect(credited.data).toMatchObject({ status: 2, credited: true });
    expect((await webhook({ ...event, confirmations: 13 })).data.credited).toBe(false);

    await page.goto('/rechargeRecord');
    await page.getByTestId('record-row').first().waitFor();
    const row = await page.getByTestId('record-row').first().innerText();
    expect(row).toContain('1,250.5');
    expect(row).toMatch(/completed/i);

    await page.goto('/table1');
    await expect.poll(() => page.getByTestId('asset-available-USDT').innerText()).toBe('1,250.50');

    // Transfer 250.5 USDT from spot to contract.
    await page.getByTestId('action-transfer-USDT').click();
    await page.waitForURL('**/transfer?currency=USDT');
    await expect.poll(() => page.getByTestId('transfer-available').innerText()).toContain('1,250.5');
    await page.getByTestId('transfer-amount').fill('250.5');
    await page.getByTestId('transfer-submit').click();
    await expect.poll(() => page.getByTestId('transfer-available').innerText()).toContain('1,000');

    await page.goto('/table2?type=contract');
    await expect.poll(() => page.getByTestId('account-row-USDT').innerText()).toContain('250.5');

    // Records and CSV export.
    await page.goto('/record');
    await page.getByTestId('record-row').first().waitFor();
    expect(await page.getByTestId('record-row').count()).toBe(3);
    const download = page.waitForEvent('download');
    await page.getByTestId('records-export').click();
    const file = await download;
    const csv = fs.readFileSync((await file.path()) as string, 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('ID,Time,Type,Currency,Amount,Account,Status,Note');
    expect(lines).toHaveLength(4);
    expect(csv).toContain('Transfer');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  }, 120_000);

  // One profile per size: each screen is reached as a link would reach it and shown in en, zh and ft
  // in turn (the language switched in place), with the same screenshots as before.
  const screens = [
    ['/table1', '[data-testid="assets-total"]'],
    ['/table2', '[data-testid="account-total"]'],
    ['/transfer', '[data-testid="transfer-available"]'],
    ['/record', '[data-testid="record-row"]:visible, [data-testid="record-card"]:visible'],
  ] as const;
  for (const viewport of ['desktop', 'mobile'] as const) {
    it(`screens at ${viewport} in en, zh and ft`, { timeout: 180_000 }, async () => {
      const page = await signedIn(viewport, 'en');
      await page.goto('/table1');
      for (const [route, ready] of screens) {
        await visit(page, route);
        for (const lang of LANGS) {
          await switchLang(page, lang);
          await page.locator(ready).first().waitFor();
          await loaded(page);
          await expectNoRawKeys(page, NAMESPACES);
          await screenshot(page, `assets${route.replace('/', '-')}-${viewport}-${lang}`);
        }
      }
      // The deposit sheet, opened once and read in each language.
      await visit(page, '/table1');
      await page.getByTestId('assets-total').waitFor();
      await page.getByTestId(viewport === 'desktop' ? 'action-deposit-BTC' : 'action-deposit-m-BTC').click();
      for (const lang of LANGS) {
        await switchLang(page, lang);
        await page.getByTestId('deposit-address').waitFor();
        await loaded(page);
        await expectNoRawKeys(page, NAMESPACES);
        await screenshot(page, `assets-deposit-${viewport}-${lang}`);
      }
      await page.context().close();
      expect(pageErrors).toEqual([]);
    });
  }
});
