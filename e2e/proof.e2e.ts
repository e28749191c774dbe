import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type DbHandle } from '../apps/server/src/db/database.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { createLedger } from '../apps/server/src/modules/ledger/index.ts';
import { createProof } from '../apps/server/src/modules/proof/index.ts';
import {
  LANGS,
  launch,
  newPage,
  screenshot,
  switchLang,
  VIEWPORTS,
  type ViewportName,
  visit,
} from './browser.ts';
import { LoginPage, RegisterPage, Shell } from './pages.ts';

/**
 * Proof of liabilities in Chromium. The demo customer holds demo-book funds only, which the proof
 * leaves out, so we register a customer and give them real-book funds. No deposit webhook exists yet,
 * so the credit goes through the ledger service itself (`ledger.credit` from `deposits_clearing`,
 * the entry a confirmed deposit posts) against the e2e server's database: an ordinary journal entry,
 * never a balance written by hand. The snapshot is published by the proof module's own `publish()`
 * — the code the server runs on its schedule and `npm run proof:publish` runs — and the running
 * server serves it from the database.
 */
let browser: Browser;
let handle: DbHandle;
const log = pino({ level: 'silent' });

beforeAll(async () => {
  browser = await launch();
  handle = createDb(inject('pgUrl'), { max: 4 });
});
afterAll(async () => {
  await browser.close();
  await handle.db.destroy();
});

async function customerIdOf(email: string): Promise<string> {
  const row = await handle.db
    .selectFrom('accounts_customer')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function creditReal(customerId: string, currency: string, amountUnits: bigint, key: string) {
  const ledger = createLedger({ db: handle.db, clock: systemClock, log });
  await ledger.credit(handle.db, {
    book: 'real',
    customerId,
    accountType: 'spot',
    currency,
    amountUnits,
    from: 'deposits_clearing',
    reference: { type: 'e2e_deposit', id: key },
    idempotencyKey: `e2e-proof:${key}`,
  });
}

async function publish() {
  const ledger = createLedger({ db: handle.db, clock: systemClock, log });
  return createProof({ db: handle.db, clock: systemClock, log, ledger }).publish();
}

/** Hex hashes and their shortened forms are not words to translate. */
const notHex = (text: string) => !/^[0-9a-f…]+$/i.test(text.replace(/\s/g, ''));
/** The customer's own email (shown, cut, in the header) is a name, not a word to translate. */
const notEmail = (text: string) => !text.startsWith('e2e-proof-');

describe('proof of liabilities in a real browser', () => {
  let email: string;

  it('a customer with real funds verifies their leaf in the browser; editing the root fails', async () => {
    const { context, page } = await newPage(browser, { lang: 'en' });
    email = `e2e-proof-${Date.now()}@example.com`;
    const register = new RegisterPage(page);
    await register.open();
    await register.registerByEmail(email, 'secret123');
    await page.waitForURL((url) => !url.pathname.startsWith('/register'));
    const customerId = await customerIdOf(email);
    await creditReal(customerId, 'USDT', 1_234_50000000n, 'usdt-1');
    await creditReal(customerId, 'BTC', 2_500_000n, 'btc-1');
    // another customer, so the path has a real sibling
    const other = `e2e-proof-other-${Date.now()}@example.com`;
    {
      const second = await newPage(browser, { lang: 'en' });
      const r = new RegisterPage(second.page);
      await r.open();
      await r.registerByEmail(other, 'secret123');
      await second.page.waitForURL((url) => !url.pathname.startsWith('/register'));
      await second.context.close();
    }
    await creditReal(await customerIdOf(other), 'USDT', 99_00000000n, 'usdt-2');
    const published = await publish();
    expect(published.mismatches).toEqual([]);

    await page.goto('/proof');
    await page.getByTestId('proof-page').waitFor();
    await page.getByTestId('proof-root-USDT').waitFor();
    const usdt = published.snapshots.find((s) => s.currency === 'USDT');
    await expect(page.getByTestId('proof-root-hash-USDT').textContent()).resolves.toBe(usdt?.rootHash);
    await expect(page.getByTestId('proof-leaf-balance-USDT').textContent()).resolves.toContain('1,234.5');

    await page.getByTestId('proof-verify-USDT').click();
    await page.getByTestId('proof-result-ok-USDT').waitFor();
    await expect(page.getByTestId('proof-result-ok-USDT').textContent()).resolves.toContain('1,234.5');
    await expect(page.getByTestId('proof-id-check-USDT').textContent()).resolves.toContain(
      'your own account id',
    );
    expect(await page.locator('[data-testid^="proof-step-USDT-"]').count()).toBeGreaterThanOrEqual(1);
    await page.getByTestId('proof-verify-BTC').click();
    await page.getByTestId('proof-result-ok-BTC').waitFor();

    // Tamper: change one character of the root to check against.
    const input = page.getByTestId('proof-root-input-USDT');
    const root = (await input.inputValue()) ?? '';
    await input.fill(`${root.slice(0, -1)}${root.endsWith('0') ? '1' : '0'}`);
    await page.getByTestId('proof-verify-USDT').click();
    const failed = page.getByTestId('proof-result-failed-USDT');
    await failed.waitFor();
    await expect(failed.getAttribute('data-failure')).resolves.toBe('root_hash_mismatch');
    await page.getByTestId('proof-root-reset-USDT').click();
    await page.getByTestId('proof-verify-USDT').click();
    await page.getByTestId('proof-result-ok-USDT').waitFor();
    expect((page as unknown as { errors: string[] }).errors).toEqual([]);
    // The session is kept for the screenshots below.
    const token = await page.evaluate(() => localStorage.getItem('bourse.token'));
    expect(token).toBeTruthy();
    await context.close();
  });

  // One profile per size: /proof is verified and shown in en, zh and ft in turn (the language
  // switched in place), with the same screenshots as a fresh page per language would give.
  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`shows /proof verified at ${viewport} in en, zh and ft`, { timeout: 180_000 }, async () => {
      const { context, page } = await newPage(browser, { viewport, lang: 'en' });
      await logIn(page, email);
      await visit(page, '/proof');
      await page.getByTestId('proof-leaf-USDT').waitFor();
      for (const lang of LANGS) {
        await switchLang(page, lang);
        await page.getByTestId('proof-leaf-USDT').waitFor();
        // Verified again in each language: the result is worded in the language shown.
        await page.getByTestId('proof-verify-USDT').click();
        await page.getByTestId('proof-result-ok-USDT').waitFor();
        if (lang !== 'en')
          await expect
            .poll(async () => (await new Shell(page).englishTexts()).filter(notHex).filter(notEmail), {
              message: `/proof in ${lang} at ${viewport}`,
            })
            .toEqual([]);
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, `proof-${lang}-${viewport}`);
        await page
          .getByTestId('proof-result-ok-USDT')
          .evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await screenshot(page, `proof-verified-${lang}-${viewport}`);
      }
      expect((page as unknown as { errors: string[] }).errors).toEqual([]);
      await context.close();
    });
  }
});

async function logIn(page: Page, email: string): Promise<void> {
  const login = new LoginPage(page);
  await login.open();
  await login.logIn(email, 'secret123');
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}
