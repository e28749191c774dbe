import { LOCALE_OF } from '@bourse/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPage as newAdminPage, webCall } from './api.ts';
import { baseUrl, LANGS, launch, screenshot, switchLang, type ViewportName, visit } from './browser.ts';
import { E2E_ADMIN } from './global-setup.ts';
import { staffEnrolmentLogIn } from './pages.ts';

/**
 * The back office in Chromium: the first administrator (from ADMIN_EMAIL / ADMIN_PASSWORD) logs in,
 * enrolling TOTP (the code computed with otplib from the secret the screen shows), finds the demo
 * customer, makes an adjustment, and sees it in the customer's journal and in the audit log with the
 * chain intact. Then every screen in en, zh and ft at 1920×1080 and 390×844.
 */
let browser: Browser;
let token = '';
let customerId = '';
const pageErrors: string[] = [];

function adminPage(viewport: ViewportName, lang: (typeof LANGS)[number], withToken: boolean) {
  return newAdminPage(browser, viewport, lang, withToken ? token : null, pageErrors);
}

type Lang = (typeof LANGS)[number];

/** `LANGS` in an order that starts with `current`: one language switch fewer. */
const startingWith = (current: Lang) => [current, ...LANGS.filter((l) => l !== current)];

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('back office', () => {
  it('first administrator: login with TOTP enrolment, adjustment, audit', async () => {
    const { context, page } = await adminPage('desktop', 'en', false);
    await page.goto('/admin/customers');
    await page.waitForURL(/\/admin\/login$/);
    await staffEnrolmentLogIn(page, E2E_ADMIN);
    // Home is the first screen the staff member may open (other helpers' queues may come first).
    await page.getByTestId('nav-customers').waitFor();
    expect(new URL(page.url()).pathname).not.toBe('/admin/login');
    token = (await page.evaluate(() => sessionStorage.getItem('bourse.admin.token'))) ?? '';
    expect(token).not.toBe('');
    // The nav holds every screen an administrator may open.
    for (const path of ['customers', 'adjustments', 'outbox', 'ledger', 'audit', 'staff']) {
      await expect(page.getByTestId(`nav-${path}`).count()).resolves.toBe(1);
    }

    await page.getByTestId('nav-customers').click();
    await page.waitForURL(/\/admin\/customers$/);
    await page.getByTestId('customer-search').fill('demo@bourse.local');
    await page.getByTestId('customer-search-submit').click();
    await page.getByTestId('customer-open').first().click();
    await page.waitForURL(/\/admin\/customers\/detail\?id=/);
    customerId = new URL(page.url()).searchParams.get('id') ?? '';
    expect(customerId).toMatch(/^usr_/);

    await page.goto(`/admin/adjustments?customer=${customerId}`);
    await page.getByTestId('adjust-amount').fill('25.5');
    await page.getByTestId('adjust-reason').fill('E2E goodwill credit');
    await page.getByTestId('adjust-submit').click();
    // A money action is confirmed first: the dialog states what it does.
    await expect(page.getByTestId('adjust-summary').textContent()).resolves.toBe('+25.5 USDT');
    await page.getByTestId('adjust-confirm').click();
    await expect(page.getByTestId('adjust-result').textContent()).resolves.toMatch(/Posted: entry jnl_/);
    // Bad input gets the server's reason, shown in place, and changes nothing.
    await page.getByTestId('adjust-amount').fill('1.000000001');
    await page.getByTestId('adjust-reason').fill('too precise');
    await page.getByTestId('adjust-submit').click();
    await page.getByTestId('adjust-confirm').click();
    await expect(page.getByTestId('error-note').textContent()).resolves.toMatch(/decimal places/);

    await page.goto(`/admin/customers/detail?id=${customerId}`);
    await expect(page.getByTestId('customer-journal').textContent()).resolves.toContain(
      'E2E goodwill credit',
    );

    // A message for the outbox: a customer asks for a registration code.
    const sent = await webCall(
      'GET',
      'getCode',
      { account: 'outbox-e2e@example.com', scene: 'register' },
      null,
    );
    expect(sent.code).toBe(1);
    await page.goto('/admin/outbox');
    await expect(page.getByTestId('outbox-table').textContent()).resolves.toContain('outbox-e2e@example.com');

    await page.goto('/admin/audit');
    await expect(page.getByTestId('audit-chain').textContent()).resolves.toMatch(/Chain intact/);
    const first = page.getByTestId('audit-row').first();
    await expect(first.textContent()).resolves.toContain('adjustment.post');
    await expect(first.textContent()).resolves.toContain('E2E goodwill credit');
    await context.close();
  });

  it('deep links load the app; a customer-app path is not the back office', async () => {
    const response = await fetch(`${baseUrl()}/admin/audit`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Bourse back office');
  });

  // One profile per size (loaded in zh at 1920×1080, in ft at 390×844): the login screen, then each
  // screen reached as a link would reach it, shown in the three languages switched in place.
  for (const [viewport, first] of [
    ['desktop', 'zh'],
    ['mobile', 'ft'],
  ] as const) {
    it(`screens at ${viewport} in en, zh and ft`, { timeout: 180_000 }, async () => {
      const { context, page } = await adminPage(viewport, first, false);
      await page.goto('/admin/login');
      await page.getByTestId('login-email').waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(LOCALE_OF[first]);
      for (const lang of startingWith(first)) {
        if (lang !== first) await switchLang(page, lang, 'admin');
        await screenshot(page, `admin-login-${lang}-${viewport}`);
      }

      // Signed in as the login leaves the tab (the staff session in its session storage), loaded again:
      // in the remembered language.
      await page.evaluate((token) => sessionStorage.setItem('bourse.admin.token', token), token);
      await page.goto(`/admin/customers?q=demo%40bourse.local`);
      await page.getByTestId('customer-results').waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(LOCALE_OF[first]);
      let current: Lang = first;
      /** Shows the screen in each language (the current one first), checked by `check`, with a screenshot. */
      const showAll = async (name: string, check: (lang: Lang) => Promise<void>) => {
        for (const lang of startingWith(current)) {
          if (lang !== current) await switchLang(page, lang, 'admin');
          current = lang;
          await check(lang);
          await screenshot(page, `admin-${name}-${lang}-${viewport}`);
        }
      };
      await showAll('customers', async (lang) => {
        const words = { en: 'Customers', zh: '客户', ft: '客戶' }[lang];
        await expect.poll(() => page.locator('h2').first().textContent()).toBe(words);
      });
      for (const [path, ready] of [
        [`customers/detail?id=${customerId}`, 'customer-journal'],
        [`adjustments?customer=${customerId}`, 'adjustments-table'],
        ['audit', 'audit-row'],
        ['ledger', 'ledger-run'],
        ['outbox', 'outbox-table'],
        ['staff', 'staff-table'],
        ['markets', 'markets-table'],
        ['deposits', 'deposits-screen'],
        ['deposits/channels', 'deposit-channels-screen'],
        ['withdrawals', 'withdrawals-screen'],
        ['withdrawals/rules', 'withdrawal-rules-screen'],
        ['health', 'mm-health-row'],
      ] as const) {
        await visit(page, `/admin/${path}`);
        await page.getByTestId(ready).first().waitFor();
        if (path === 'ledger') {
          await page.getByTestId('ledger-run').click();
          await page.getByTestId('ledger-manual-status').waitFor();
        }
        const name = path.split('?')[0]?.replace('/', '-') ?? path;
        await showAll(name, async (lang) => {
          await page.getByTestId(ready).first().waitFor();
          if (path === 'ledger') await page.getByTestId('ledger-manual-status').waitFor();
          if (path === 'health') {
            // The market maker's section: one row per enabled market and book, in this language.
            const title = { en: 'Market maker', zh: '做市商', ft: '做市商' }[lang];
            await expect(page.getByTestId('mm-health').locator('h3').textContent()).resolves.toBe(title);
            expect(await page.getByTestId('mm-health-row').count()).toBeGreaterThanOrEqual(2);
            const quoting = { en: 'Quoting', zh: '报价中', ft: '報價中' }[lang];
            await page.getByTestId('mm-health-row').getByText(quoting).first().waitFor();
            // Phones get cards: nothing scrolls sideways.
            const width = await page.evaluate(() => document.documentElement.scrollWidth);
            expect(width).toBeLessThanOrEqual(viewport === 'mobile' ? 390 : 1920);
          }
        });
      }
      await context.close();
      expect(pageErrors).toEqual([]);
    });
  }
});
