import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type DbHandle } from '../apps/server/src/db/database.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { createLedger } from '../apps/server/src/modules/ledger/index.ts';
import {
  adminPage,
  createAdministrator,
  type Envelope,
  registerCustomer,
  setWithdrawRule,
  staffApiToken,
  staffCall,
  WINDOW_ALL_DAY,
  WINDOW_SPEC,
  webCall,
} from './api.ts';
import { LANGS, launch, screenshot, signedInPage, switchLang, type ViewportName, visit } from './browser.ts';
import { custodySecret, postCustodyWebhook, usdtDeposit } from './custody.ts';
import { expectNoRawKeys } from './pages.ts';

/**
 * Withdrawals in Chromium: set the trade password, add an address, get real-book USDT through a
 * signed deposit webhook, see the rules before submitting and each rule's refusal in the browser
 * (window, minimum, maximum, trade password, turnover), request a withdrawal, have staff approve it
 * (staff API with a staff session), confirm the payout by the signed custody webhook and see it in
 * /tbjl. With the turnover rule on, a 10 USDT bonus (promotional credit) is held and the sheet says
 * what releases it before submitting; the deposit itself stays withdrawable. Then the screens in en,
 * zh and ft at 1920×1080 and 390×844.
 */
const ERC20 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const LOGIN_PASSWORD = 'secret123';
const TRADE = '246810';
let browser: Browser;
let staffToken = '';
let webhookSecret = '';
const main = { email: `wd-e2e-${Date.now()}@example.com`, token: '' };
const fresh = { email: `wd-e2e-new-${Date.now()}@example.com`, token: '' };
const pageErrors: string[] = [];
let handle: DbHandle;

/** Promotional credit as a rewards module would post it (no customer call grants one yet). */
async function grantBonus(email: string, amountUnits: bigint) {
  const customer = await handle.db
    .selectFrom('accounts_customer')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const ledger = createLedger({ db: handle.db, clock: systemClock, log: pino({ level: 'silent' }) });
  await ledger.credit(handle.db, {
    book: 'real',
    customerId: customer.id,
    accountType: 'spot',
    currency: 'USDT',
    amountUnits,
    from: 'rewards_expense',
    reason: 'reward.bonus',
    reference: { type: 'reward', id: `e2e-bonus-${customer.id}` },
    idempotencyKey: `e2e-bonus:${customer.id}`,
  });
}

/** The server answers slower under load than expect.poll's 1 s default allows. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

function custody(pathname: string, body: object) {
  return postCustodyWebhook(pathname, body, webhookSecret);
}

function hkMinutesNow(): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Hong_Kong',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date());
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? '0');
  return get('hour') * 60 + get('minute');
}
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

const signedIn = (viewport: ViewportName, lang: (typeof LANGS)[number], token: string) =>
  signedInPage(browser, { viewport, lang, token, pageErrors });

/** The catalogue namespaces of these screens, whose keys must never show as text. */
const NAMESPACES = ['sheet', 'records', 'address', 'bank', 'wallet', 'trade', 'rules', 'common', 'google'];

type Lang = (typeof LANGS)[number];

/**
 * Waits until the screen with test id `marker` shows, with its data: no loader left in the main
 * area (each list shows a loader until its first answer).
 */
async function ready(page: Page, marker: string): Promise<void> {
  await page.getByTestId(marker).first().waitFor();
  await page.waitForFunction(
    () => ![...document.querySelectorAll('main .mantine-Loader-root')].some((e) => e.checkVisibility()),
  );
}

/** `langs` in an order that starts with `current`: one language switch fewer. */
const startingWith = (current: Lang) => [current, ...LANGS.filter((l) => l !== current)];

async function submitSheet(page: Page, amount: string, trade = TRADE) {
  await page.getByTestId('withdraw-amount').fill(amount);
  await page.getByTestId('withdraw-trade-password').fill(trade);
  await page.getByTestId('withdraw-submit').click();
}

beforeAll(async () => {
  browser = await launch();
  handle = createDb(inject('pgUrl'), { max: 2 });
  webhookSecret = custodySecret();
  staffToken = await staffApiToken(
    await createAdministrator('wd-staff', 'Withdrawals e2e', ['finance', 'administrator']),
  );
  main.token = await registerCustomer(main.email, LOGIN_PASSWORD);
  fresh.token = await registerCustomer(fresh.email, LOGIN_PASSWORD);
});
afterAll(async () => {
  await browser?.close();
  await handle?.pool.end();
});

describe('withdrawals in the browser', () => {
  it('trade password, address, deposit, rules and refusals, request, approval, record', async () => {
    const page = await signedIn('desktop', 'en', main.token);
    // 1. The trade password, set first at /bindmpwd with the login password.
    await page.goto('/bindmpwd');
    await page.getByTestId('trade-login-password').fill(LOGIN_PASSWORD);
    await page.getByTestId('trade-password').fill('12345');
    await page.getByTestId('trade-password2').fill('12345');
    await page.getByTestId('trade-submit').click();
    await poll(() => page.getByText('Exactly 6 digits').count()).toBeGreaterThan(0);
    await page.getByTestId('trade-password').fill(TRADE);
    await page.getByTestId('trade-password2').fill(TRADE);
    await page.getByTestId('trade-submit').click();
    await page.getByTestId('trade-bound').waitFor();

    // 2. A withdrawal address: a wrong checksum is refused by the server, the right one saved.
    await page.goto('/address');
    await page.getByTestId('address-input').fill('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD');
    await page.getByTestId('address-submit').click();
    await expect
      .poll(() => page.getByTestId('address-error').textContent())
      .toContain('not a valid ERC20 address');
    await page.getByTestId('address-input').fill(ERC20);
    await page.getByTestId('address-remark').fill('Cold wallet');
    await page.getByTestId('address-submit').click();
    await poll(() => page.getByTestId('address-row').count()).toBe(1);

    // 3. Real-book USDT through a signed deposit webhook.
    const depositAddress = await webCall<{ address: string }>(
      'GET',
      'getRechargeAddress',
      { currency: 'USDT', chain: 'ERC20' },
      main.token,
    );
    expect(depositAddress.code, depositAddress.msg).toBe(1);
    const credited = await custody(
      'webhook',
      usdtDeposit({ address: depositAddress.data.address, amount: '1000', txid: `e2e${Date.now()}` }),
    );
    expect(credited.code, credited.msg).toBe(1);
    // And a 10 USDT bonus: promotional credit, the only money the turnover rule may hold.
    await grantBonus(main.email, 10_00000000n);

    // 4. The rules, before submitting; each refusal names its rule.
    const now = hkMinutesNow();
    await setWithdrawRule(staffToken, 'window', true, {
      start: hhmm(now + 120),
      end: hhmm(now + 180),
      timezone: 'Asia/Hong_Kong',
    });
    await setWithdrawRule(staffToken, 'turnover', true, { percent: 90 });
    await page.goto('/tbjl');
    await page.getByTestId('records-new-withdrawal').click();
    const rules = page.getByTestId('withdraw-rules');
    await rules.waitFor();
    for (const code of [
      'currency_chain',
      'window',
      'min_amount',
      'max_amount',
      'fee',
      'daily_count',
      'turnover',
    ]) {
      await poll(() => page.getByTestId(`withdraw-rule-${code}`).count()).toBe(1);
    }
    expect(await rules.innerText()).toContain('Minimum 100 USDT per withdrawal');
    // The exact withdrawable amount and what is held back, with its rule and release, before submitting.
    expect(await rules.innerText()).toContain('your deposits and trading profit are never held');
    await poll(() => page.getByTestId('withdraw-withdrawable').innerText()).toBe(
      'Available: 1010 USDT · withdrawable now: 1000 USDT',
    );
    const held = page.getByTestId('withdraw-held-turnover');
    expect(await held.innerText()).toContain('10 USDT held back (rule: turnover)');
    expect(await held.innerText()).toContain('Trade 9 USDT more to release 10 USDT');
    const error = page.getByTestId('withdraw-error');
    await submitSheet(page, '150');
    await poll(() => error.textContent()).toContain('rule: withdrawal hours');
    await setWithdrawRule(staffToken, 'window', true, WINDOW_ALL_DAY);
    await submitSheet(page, '50');
    await poll(() => error.textContent()).toContain('rule: minimum 100 USDT');
    await submitSheet(page, '200001');
    await poll(() => error.textContent()).toContain('rule: maximum 200000 USDT');
    await submitSheet(page, '150', '111111');
    await poll(() => error.textContent()).toContain(
      'trade password is wrong (attempts left before lock-out: 4',
    );
    await submitSheet(page, '1000.5');
    await poll(() => error.textContent()).toContain('rule: turnover');
    await screenshot(page, 'withdraw-refusal-desktop-en');
    // Staff turn the turnover rule off (rule data, audited); the request goes through and freezes.
    await setWithdrawRule(staffToken, 'turnover', false, { percent: 90 });
    await submitSheet(page, '150');
    await page.getByTestId('withdraw-done').waitFor();
    await page.getByTestId('withdraw-to-records').click();
    await poll(() => page.getByTestId('record-row').count()).toBe(1);
    expect(await page.getByTestId('record-status').first().textContent()).toBe('Awaiting review');

    // 5. Staff approve in the back office; the payout is confirmed by the signed custody webhook.
    const queue = await staffCall<Envelope['data']>('GET', 'withdrawals/queue', {}, staffToken);
    const mine = queue.data.list.find(
      (w: { amount: string; destination: string }) => w.amount === '150' && w.destination === ERC20,
    );
    expect(mine).toBeDefined();
    const { context: office, page: backOffice } = await adminPage(
      browser,
      'desktop',
      'en',
      staffToken,
      pageErrors,
    );
    await backOffice.goto('/admin/withdrawals');
    const row = backOffice
      .getByTestId('withdrawal-row')
      .filter({ hasText: ERC20 })
      .filter({ hasText: '150' });
    await row.first().waitFor();
    await screenshot(backOffice, 'withdraw-admin-queue-desktop-en');
    await row.first().getByTestId('withdrawal-approve').click();
    await backOffice.getByTestId('reason-input').fill('e2e: destination checked');
    await backOffice.getByTestId('reason-confirm').click();
    await backOffice.getByTestId('withdrawal-notice').waitFor();
    await backOffice.goto('/admin/withdrawals/rules');
    await backOffice.getByTestId('rule-window').waitFor();
    await screenshot(backOffice, 'withdraw-admin-rules-desktop-en');
    await office.close();
    const settled = await custody('withdrawals/webhook', {
      event_id: `evt-${mine.id}`,
      withdrawal_id: mine.id,
      provider_ref: `emb_${mine.id}`,
      status: 'confirmed',
      tx_hash: '0xe2e',
    });
    expect(settled.data.state).toBe('completed');
    await page.reload();
    await poll(() => page.getByTestId('record-status').first().textContent()).toBe('Completed');
    await screenshot(page, 'withdraw-tbjl-completed-desktop-en');

    // A bank card for the screens: sealed on the server, masked in the app.
    const bank = await webCall<{ card_number: string }>(
      'POST',
      'addBank',
      {
        bank_name: 'Hang Seng Bank',
        card_number: '6222020200112233445',
        swift_code: 'HASEHKHH',
        payee_name: 'Chan Tai Man',
      },
      main.token,
    );
    expect(bank.data.card_number).toBe('**** 3445');
    await page.goto('/bank');
    await poll(() => page.getByTestId('bank-card-number').first().innerText()).toBe('**** 3445');
    expect(await page.locator('body').innerText()).not.toContain('6222020200112233445');
    // An e-wallet too: masked the same way on /wallet.
    const wallet = await webCall(
      'POST',
      'addWallet',
      { wallet_type: 'alipay', wallet_account: 'chan.taiman@example.com', payee_name: 'Chan Tai Man' },
      main.token,
    );
    expect(wallet.code, wallet.msg).toBe(1);
    await page.goto('/wallet');
    await page.getByTestId('wallet-row').first().waitFor();
    expect(await page.getByTestId('wallet-row').first().innerText()).toContain('ch****om');
    expect(await page.locator('body').innerText()).not.toContain('chan.taiman@example.com');
    // Back to the spec's defaults: the screens below show them.
    await setWithdrawRule(staffToken, 'window', true, WINDOW_SPEC);
    await setWithdrawRule(staffToken, 'turnover', true, { percent: 90 });
    await page.context().close();
  }, 120_000);

  // One profile per size (loaded in zh at 1920×1080, in ft at 390×844): each screen reached as a link
  // would reach it and shown in the three languages, switched in place.
  for (const [viewport, first] of [
    ['desktop', 'zh'],
    ['mobile', 'ft'],
  ] as const) {
    it(`screens at ${viewport} in en, zh and ft`, { timeout: 180_000 }, async () => {
      const page = await signedIn(viewport, first, main.token);
      let current: Lang = first;
      const showAll = async (marker: string, name: string) => {
        for (const lang of startingWith(current)) {
          if (lang !== current) await switchLang(page, lang);
          current = lang;
          await ready(page, marker);
          await expectNoRawKeys(page, NAMESPACES);
          await screenshot(page, `withdraw-${name}-${viewport}-${lang}`);
        }
      };
      for (const [route, marker] of [
        ['/address', 'address-page'],
        ['/bank', 'bank-page'],
        ['/bankAdd', 'bank-add-page'],
        ['/wallet', 'wallet-page'],
        ['/walletAdd', 'wallet-add-page'],
        ['/tbjl', 'tbjl-page'],
      ] as const) {
        if (route === '/address') await page.goto(route);
        else await visit(page, route);
        await showAll(marker, route.slice(1));
      }
      await page.getByTestId('records-new-withdrawal').click();
      await page.getByTestId('withdraw-rules').waitFor();
      await page.getByTestId('withdraw-amount').fill('123.45');
      await page.getByTestId('withdraw-held-turnover').waitFor();
      // The sheet's opening animation.
      await page.waitForTimeout(300);
      await showAll('withdraw-held-turnover', 'sheet');
      // A customer without a trade password (signed in from another tab: the app follows the stored
      // token) sees /bindmpwd.
      await page.keyboard.press('Escape');
      await page.evaluate((token) => {
        localStorage.setItem('bourse.token', token);
        window.dispatchEvent(
          new StorageEvent('storage', { key: 'bourse.token', newValue: token, storageArea: localStorage }),
        );
      }, fresh.token);
      await visit(page, '/bindmpwd');
      await showAll('trade-login-password', 'bindmpwd');
      await page.context().close();
    });
  }

  it('no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
