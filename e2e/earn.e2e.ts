import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type DbHandle } from '../apps/server/src/db/database.ts';
import { manualClock } from '../apps/server/src/lib/clock.ts';
import { createEarn, type EarnDeps } from '../apps/server/src/modules/earn/index.ts';
import { createLedger } from '../apps/server/src/modules/ledger/index.ts';
import {
  adminPage,
  createAdministrator,
  type Envelope,
  registerCustomer,
  staffApiToken,
  staffCall,
  webCall,
} from './api.ts';
import { LANGS, launch, screenshot, signedInPage, switchLang, type ViewportName, visit } from './browser.ts';
import { custodySecret, postCustodyWebhook, usdtDeposit } from './custody.ts';
import { englishTexts, expectNoRawKeys } from './pages.ts';

/**
 * Earn, fixed-term custody (issue 16) in Chromium. Staff create a named funding account and ask to
 * fund it; the requester cannot approve their own request; a second staff member approves in the
 * back office. Staff create a custody product through the form (its customer sentence previewed in
 * three languages) and open it. A customer reads the rule page — in en, zh and ft at 1920×1080 and
 * 390×844 — sees they may buy, types an amount (the live example is the server's rounding), confirms
 * and buys; the server's accrual job posts the first day (run here on a clock one day ahead, against
 * the e2e server's database, as proof.e2e.ts runs its publisher); the customer sees profit so far
 * and the day's row, fetches a binding quote (an expired one is replaced), redeems early with it;
 * staff close the product. Balances checked through the APIs.
 */

type Lang = (typeof LANGS)[number];
const LOGIN_PASSWORD = 'secret123';
/** A file of screens in three languages at two sizes on a shared 2-core machine: minutes, not seconds. */
const LONG = 300_000;
const FUNDING_NAME = 'Bourse 2026';
const PRODUCT = { en: 'Steady 7-day USDT', zh: '稳健 7 天 USDT', ft: '穩健 7 天 USDT' };
let browser: Browser;
let handle: DbHandle;
let tokenA = '';
let tokenB = '';
let fundingId = '';
let productId = '';
let orderId = '';
const customer = { email: `earn-e2e-${Date.now()}@example.com`, token: '' };
/** A customer with no money: the rule page names the rule that stops them, with where to fix it. */
const broke = { email: `earn-e2e-broke-${Date.now()}@example.com`, token: '' };
const pageErrors: string[] = [];

const web = (call: string, fields: Record<string, string>, method: 'GET' | 'POST' = 'GET', lang = 'en') =>
  webCall<Envelope['data']>(method, call, fields, customer.token, lang);
const staff = (token: string, method: 'GET' | 'POST', call: string, fields: Record<string, string> = {}) =>
  staffCall<Envelope['data']>(method, call, fields, token);

const customerPage = (viewport: ViewportName, lang: Lang, path: string) =>
  signedInPage(browser, { viewport, lang, token: customer.token, path, pageErrors });

async function spotAvailable(): Promise<string> {
  const answer = await web('getAsset2', { type: 'spot' });
  expect(answer.code, answer.msg).toBe(1);
  const row = answer.data.accounts[0].rows.find((r: { currency: string }) => r.currency === 'USDT');
  return row?.available ?? '0';
}

/** The server's own accrual job (modules/earn), on a clock one day ahead, against the e2e database. */
async function runAccrualJobOneDayAhead(): Promise<number> {
  const clock = manualClock(new Date(Date.now() + 86_400_000));
  const log = pino({ level: 'silent' });
  const unused = (what: string) => () => {
    throw new Error(`the accrual job should not need ${what}`);
  };
  const deps = {
    db: handle.db,
    clock,
    log,
    ledger: createLedger({ db: handle.db, clock, log }),
    audit: { record: unused('audit') },
    jurisdiction: { active: async () => ({ id: 'permissive' as const, earn_principal_penalty: false }) },
    requireFeature: unused('requireFeature'),
    tierApproved: unused('tierApproved'),
    rating: unused('rating'),
    ratingCaps: { checkCap: unused('checkCap') },
    usdtValue: unused('usdtValue'),
    vipInputs: unused('vipInputs'),
  } as unknown as EarnDeps;
  return createEarn(deps).job.runOnce();
}

/** Fails unless the screen, once its re-fetched content has arrived, shows no English words. */
async function noEnglish(page: Page, message: string): Promise<void> {
  await expect.poll(() => englishTexts(page), { message }).toEqual([]);
}

/** Waits until the open dialog (and its overlay) has finished its opening transition. */
async function opened(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const dialog = document.querySelector('[role="dialog"]');
    if (!dialog || getComputedStyle(dialog).opacity !== '1') return false;
    const root = dialog.closest('.mantine-Modal-root, .mantine-Drawer-root') ?? dialog;
    return root.getAnimations({ subtree: true }).every((a) => a.playState !== 'running');
  });
}

/** Opens the back office at `path` as a staff member. */
async function office(token: string, lang: Lang, path: string): Promise<Page> {
  const { page } = await adminPage(browser, 'desktop', lang, token, pageErrors);
  await page.goto(path);
  return page;
}

beforeAll(async () => {
  browser = await launch();
  handle = createDb(inject('pgUrl'), { max: 2 });
  tokenA = await staffApiToken(await createAdministrator('earn-a', 'Earn Requester'));
  tokenB = await staffApiToken(await createAdministrator('earn-b', 'Earn Approver'));
  customer.token = await registerCustomer(customer.email, LOGIN_PASSWORD);
  broke.token = await registerCustomer(broke.email, LOGIN_PASSWORD);
  const address = await web('getRechargeAddress', { currency: 'USDT', chain: 'ERC20' });
  expect(address.code, address.msg).toBe(1);
  const credited = await postCustodyWebhook(
    'webhook',
    usdtDeposit({ address: address.data.address, amount: '2000', txid: `earn${Date.now()}` }),
    custodySecret(),
  );
  expect(credited.code, credited.msg).toBe(1);
});
afterAll(async () => {
  await browser?.close();
  await handle?.db.destroy();
  expect(pageErrors).toEqual([]);
});

describe('earn: fixed-term custody', () => {
  it(
    'staff create a funding account and request funding; the requester cannot approve; a second staff member approves',
    async () => {
      const page = await office(tokenA, 'en', '/admin/earn/funding');
      await page.getByTestId('funding-new').click();
      await page.getByTestId('funding-name').fill(FUNDING_NAME);
      await page
        .getByTestId('funding-source-en')
        .fill('The operator’s own 2026 marketing budget; never customer money.');
      await page.getByTestId('funding-source-zh').fill('运营方 2026 年度市场预算；绝非客户资金。');
      await page.getByTestId('funding-source-ft').fill('營運方 2026 年度市場預算；絕非客戶資金。');
      await page.getByTestId('funding-reason').fill('e2e: rewards budget for the weekly product');
      await page.getByTestId('funding-create-submit').click();
      const row = page.getByTestId('funding-account').filter({ hasText: FUNDING_NAME });
      await row.waitFor();
      fundingId = (await row.getAttribute('data-funding')) ?? '';
      expect(fundingId).not.toBe('');

      // The money action: amount and reason, then a confirmation naming amount, currency, account and who.
      await row.getByTestId('funding-request-open').click();
      await page.getByTestId('funding-request-amount').fill('500');
      await page.getByTestId('funding-request-reason').fill('e2e: first top-up');
      await page.getByTestId('funding-request-next').click();
      const confirm = page.getByTestId('funding-request-confirm');
      await expect(confirm.textContent()).resolves.toMatch(
        /500.*USDT[\s\S]*Bourse 2026[\s\S]*Earn Requester/,
      );
      await screenshot(page, 'earn-admin-funding-confirm-desktop-en');
      await page.getByTestId('funding-request-send').click();
      const pending = page.getByTestId('funding-pending').getByTestId('funding-request-row').first();
      await pending.waitFor();
      await pending.getByTestId('funding-own-request').waitFor();
      await screenshot(page, 'earn-admin-funding-pending-desktop-en');
      const requestId = (await pending.getAttribute('data-request')) ?? '';

      // The server refuses the requester's own approval, whatever the screen shows.
      const self = await staff(tokenA, 'POST', `earn/funding-requests/${requestId}/approve`, {
        reason: 'e2e: self',
      });
      expect(self.reason).toBe('EARN_FUNDING_SELF_APPROVAL');

      // Another staff member approves in the back office (in Chinese).
      const other = await office(tokenB, 'zh', '/admin/earn/funding');
      const theirs = other
        .getByTestId('funding-pending')
        .getByTestId('funding-request-row')
        .filter({ has: other.getByTestId('funding-approve') });
      await theirs.first().getByTestId('funding-approve').click();
      await other.getByTestId('reason-input').fill('e2e: budget confirmed');
      await other.getByTestId('reason-confirm').click();
      await other.getByTestId('earn-admin-note').waitFor();
      await other.getByRole('dialog').waitFor({ state: 'hidden' });
      await expectNoRawKeys(other, ['adminEarn']);
      await screenshot(other, 'earn-admin-funding-approved-desktop-zh');
      const accounts = await staff(tokenB, 'GET', 'earn/funding');
      const account = accounts.data.items.find((a: { funding_id: string }) => a.funding_id === fundingId);
      expect(account.balance).toMatch(/^500(\.0+)?$/);
      expect(account.funded_total).toMatch(/^500(\.0+)?$/);
    },
    LONG,
  );

  it(
    'staff create a custody product through the form (previewed in three languages) and open it',
    async () => {
      const page = await office(tokenA, 'en', '/admin/earn/products');
      await page.getByTestId('earn-product-new').click();
      for (const lang of LANGS) {
        await page.getByTestId(`earn-form-name-${lang}`).fill(PRODUCT[lang]);
        await page.getByTestId(`earn-form-description-${lang}`).fill(`${PRODUCT[lang]} · e2e`);
      }
      await page.getByTestId('earn-form-funding').click();
      await page.getByRole('option', { name: new RegExp(FUNDING_NAME) }).click();
      await page.getByTestId('earn-form-term').fill('7');
      await page.getByTestId('earn-form-rate').fill('7.3');
      await page.getByTestId('earn-form-delay').fill('1');
      await page.getByTestId('earn-form-min').fill('100');
      await page.getByTestId('earn-form-max').fill('5000');
      await page.getByTestId('earn-form-capacity').fill('20000');
      await page.getByTestId('earn-form-tier').click();
      await page.getByRole('option', { name: 'None' }).click();
      await page.getByTestId('earn-form-rating').click();
      await page.getByRole('option', { name: 'Not assessed' }).click();
      await page.getByTestId('earn-form-reason').fill('e2e: the weekly product');
      for (const lang of LANGS)
        await expect(page.getByTestId(`earn-preview-${lang}`).textContent()).resolves.toContain(
          PRODUCT[lang],
        );
      await expect(page.getByTestId('earn-preview-en').textContent()).resolves.toContain(
        '7.3% a year (0.02% a day)',
      );
      await screenshot(page, 'earn-admin-product-form-desktop-en');
      await page.getByTestId('earn-form-submit').click();
      const row = page.getByTestId('earn-admin-product').filter({ hasText: PRODUCT.en });
      await row.waitFor();
      productId = (await row.getAttribute('data-product')) ?? '';
      expect(await row.getAttribute('data-state')).toBe('draft');
      await row.getByTestId('earn-product-open').click();
      await page.getByTestId('reason-input').fill('e2e: on sale');
      await page.getByTestId('reason-confirm').click();
      await expect.poll(() => row.getAttribute('data-state')).toBe('active');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      await screenshot(page, 'earn-admin-products-desktop-en');
    },
    LONG,
  );

  it(
    'a customer reads the rule page in three languages at both sizes and may buy',
    async () => {
      const info = await web('getProfitInfo', { product_id: productId });
      expect(info.code, info.msg).toBe(1);
      expect(info.data.eligibility.eligible).toBe(true);
      // One profile per size: each screen shown in en, zh and ft in turn (switched in place).
      for (const viewport of ['desktop', 'mobile'] as const) {
        const page = await customerPage(viewport, 'en', '/profit_index');
        for (const lang of LANGS) {
          await switchLang(page, lang);
          await page.locator(`[data-testid="earn-product"][data-product="${productId}"]`).waitFor();
          await expectNoRawKeys(page, ['earn']);
          if (lang !== 'en') await noEnglish(page, `/profit_index in ${lang} at ${viewport}`);
          await screenshot(page, `earn-index-${viewport}-${lang}`);
        }
        await visit(page, `/profit_buy?product_id=${productId}`);
        for (const lang of LANGS) {
          await switchLang(page, lang);
          await page.getByTestId('earn-eligible').waitFor();
          await expect(page.getByTestId('rule-source').textContent()).resolves.toContain(FUNDING_NAME);
          for (const id of [
            'term',
            'rate',
            'example',
            'posting',
            'reserve',
            'redeem',
            'delay',
            'requires',
            'jurisdictions',
          ])
            await page.getByTestId(`rule-${id}`).waitFor();
          await expectNoRawKeys(page, ['earn']);
          if (lang !== 'en') await noEnglish(page, `/profit_buy in ${lang} at ${viewport}`);
          await screenshot(page, `earn-buy-${viewport}-${lang}`);
        }
        await page.context().close();
      }
    },
    LONG,
  );

  it(
    'a customer without funds is told before the form which rule stops them, with a link',
    async () => {
      for (const lang of LANGS) {
        const viewport = lang === 'en' ? 'desktop' : 'mobile';
        const page = await signedInPage(browser, {
          viewport,
          lang,
          token: broke.token,
          path: `/profit_buy?product_id=${productId}`,
          pageErrors,
        });
        const refusal = page.getByTestId('earn-refusal');
        await refusal.waitFor();
        expect(await refusal.getAttribute('data-reason')).toBe('INSUFFICIENT_BALANCE');
        await expect(page.getByTestId('earn-refusal-fix').getAttribute('href')).resolves.toBe('/table1');
        await expect(page.getByTestId('earn-buy').isDisabled()).resolves.toBe(true);
        await expectNoRawKeys(page, ['earn', 'common']);
        if (lang !== 'en') expect(await englishTexts(page)).toEqual([]);
        await screenshot(page, `earn-buy-refused-${viewport}-${lang}`);
        await page.context().close();
      }
    },
    LONG,
  );

  it(
    'VIP products: the published thresholds and the level the server computed, three languages, both sizes',
    async () => {
      const list = await web('getProfitList', { kind: 'vip' });
      expect(list.code, list.msg).toBe(1);
      const levels = list.data.vip_levels as Array<{ level: number }>;
      const probe = list.data.items[0]?.product_id as string | undefined;
      const mine = probe
        ? (await web('getProfitInfo', { product_id: probe })).data.eligibility.vip_level
        : null;
      // One profile per size: the screen shown in en, zh and ft in turn (switched in place).
      for (const viewport of ['desktop', 'mobile'] as const) {
        const page = await customerPage(viewport, 'en', '/vip_index');
        for (const lang of LANGS) {
          await switchLang(page, lang);
          await page.getByTestId('vip-levels').waitFor();
          await expect(page.getByTestId('vip-level-row').count()).resolves.toBe(levels.length);
          if (probe)
            await expect
              .poll(() => page.getByTestId('vip-my-level').getAttribute('data-level'))
              .toBe(String(mine ?? ''));
          await expectNoRawKeys(page, ['earn']);
          if (lang !== 'en') await noEnglish(page, `/vip_index in ${lang} at ${viewport}`);
          await screenshot(page, `earn-vip-${viewport}-${lang}`);
        }
        await page.context().close();
      }
    },
    LONG,
  );

  it(
    'buys 1,000 USDT: the live example is the server’s rounding; principal leaves the available balance',
    async () => {
      expect(await spotAvailable()).toMatch(/^2000(\.0+)?$/);
      const page = await customerPage('desktop', 'en', `/profit_buy?product_id=${productId}`);
      await page.getByTestId('earn-eligible').waitFor();
      await page.getByTestId('earn-amount').fill('1000');
      // 1000 × 7.3 % / 365 = 0.2 a day exactly; 1.4 over seven days.
      await expect(page.getByTestId('example-daily').getAttribute('data-value')).resolves.toBe('0.2');
      await expect(page.getByTestId('example-total').getAttribute('data-value')).resolves.toBe('1.4');
      await expect(page.getByTestId('earn-buy').isDisabled()).resolves.toBe(true);
      await page.getByTestId('earn-terms').check();
      await page.getByTestId('earn-buy').click();
      await page.getByTestId('earn-confirm-body').waitFor();
      await screenshot(page, 'earn-buy-confirm-desktop-en');
      await page.getByTestId('earn-confirm-submit').click();
      await page.waitForURL(/\/profit_wdtg$/);
      const order = page.getByTestId('earn-order').first();
      await order.waitFor();
      orderId = (await order.getAttribute('data-order')) ?? '';
      expect(await order.getAttribute('data-state')).toBe('in_custody');
      const placed = await web('getProfitOrder', { order_id: orderId });
      expect(placed.data.order.daily_reward).toBe('0.2');
      expect(placed.data.order.total_reward).toBe('1.4');
      expect(await spotAvailable()).toMatch(/^1000(\.0+)?$/);
    },
    LONG,
  );

  it(
    'after the server’s accrual job, profit so far and the day’s row show (three languages, both sizes)',
    async () => {
      expect(await runAccrualJobOneDayAhead()).toBeGreaterThanOrEqual(1);
      const after = await web('getProfitOrder', { order_id: orderId });
      expect(after.data.order.days_accrued).toBeGreaterThanOrEqual(1);
      const accrued = after.data.order.accrued as string;
      // 0.2 USDT a day (at most two days if the purchase fell just before a cut-off).
      expect(accrued).toBe(after.data.order.days_accrued === 1 ? '0.2' : '0.4');
      // One profile per size: the orders and the order's detail, shown in en, zh and ft in turn (the
      // language switched in place, the detail opened again in each: it words the order as it was
      // when opened).
      for (const viewport of ['desktop', 'mobile'] as const) {
        const page = await customerPage(viewport, 'en', '/profit_wdtg');
        const row = page.locator(`[data-testid="earn-order"][data-order="${orderId}"]`);
        for (const lang of LANGS) {
          await switchLang(page, lang);
          await row.waitFor();
          await expect(row.getByTestId('order-accrued').getAttribute('data-value')).resolves.toBe(accrued);
          if (lang !== 'en') await noEnglish(page, `/profit_wdtg in ${lang} at ${viewport}`);
          await screenshot(page, `earn-orders-${viewport}-${lang}`);
          await row.getByTestId('order-details').click();
          await page.getByTestId('accrual-row').first().waitFor();
          await expectNoRawKeys(page, ['earn']);
          await opened(page);
          await screenshot(page, `earn-order-detail-${viewport}-${lang}`);
          await page.keyboard.press('Escape');
          await page.getByRole('dialog').waitFor({ state: 'hidden' });
        }
        await page.context().close();
      }
      const index = await customerPage('desktop', 'en', '/profit_index');
      await expect(index.getByTestId('total-accrued').getAttribute('data-value')).resolves.toBe(accrued);
      await index.context().close();
    },
    LONG,
  );

  it(
    'redeems early with a binding quote: an expired quote is replaced, the confirmed one is posted exactly',
    async () => {
      // Phone, Chinese: the quote's countdown runs out on the page's clock and a new quote is fetched.
      const phone = await customerPage('mobile', 'zh', '/profit_wdtg');
      await phone.clock.install();
      await phone.reload();
      const row = phone.locator(`[data-testid="earn-order"][data-order="${orderId}"]`);
      await row.getByTestId('order-redeem').click();
      const first = phone.getByTestId('redeem-quote');
      await first.waitFor();
      const firstId = await first.getAttribute('data-quote');
      // The page's clock is installed: let the sheet's opening transition (timers) finish first.
      await phone.clock.runFor(1_000);
      await screenshot(phone, 'earn-redeem-quote-mobile-zh');
      await phone.clock.fastForward(61_000);
      await phone.getByTestId('redeem-expired').waitFor();
      await expect(phone.getByTestId('redeem-confirm').count()).resolves.toBe(0);
      await screenshot(phone, 'earn-redeem-expired-mobile-zh');
      await phone.getByTestId('redeem-refresh').click();
      await expect.poll(() => phone.getByTestId('redeem-quote').getAttribute('data-quote')).not.toBe(firstId);
      await phone.context().close();

      // Desktop, English: the quote's figures, then confirm.
      const page = await customerPage('desktop', 'en', '/profit_wdtg');
      await page
        .locator(`[data-testid="earn-order"][data-order="${orderId}"]`)
        .getByTestId('order-redeem')
        .click();
      const quote = page.getByTestId('redeem-quote');
      await quote.waitFor();
      const accrued = (await web('getProfitOrder', { order_id: orderId })).data.order.accrued as string;
      await expect(page.getByTestId('quote-principal').getAttribute('data-value')).resolves.toBe('1000');
      await expect(page.getByTestId('quote-forfeited').getAttribute('data-value')).resolves.toBe(accrued);
      await expect(page.getByTestId('quote-penalty').getAttribute('data-value')).resolves.toBe('0');
      await expect(page.getByTestId('quote-returned').getAttribute('data-value')).resolves.toBe('1000');
      await page.getByTestId('redeem-countdown').waitFor();
      await screenshot(page, 'earn-redeem-quote-desktop-en');
      await page.getByTestId('redeem-confirm').click();
      await page.getByTestId('redeem-dialog').waitFor({ state: 'hidden' });
      // The dialog closes as the answer arrives; under load the read may come first: poll the state.
      await expect
        .poll(async () => (await web('getProfitOrder', { order_id: orderId })).data.order.state, {
          timeout: 30_000,
        })
        .toMatch(/^redeem(ing|ed)$/);
      const done = await web('getProfitOrder', { order_id: orderId });
      expect(['redeeming', 'redeemed']).toContain(done.data.order.state);
      expect(done.data.order.redemption).toMatchObject({
        principal_returned: '1000',
        penalty: '0',
        rewards_forfeited: accrued,
      });
      await page.reload();
      await expect(
        page.locator(`[data-testid="earn-order"][data-order="${orderId}"]`).getAttribute('data-state'),
      ).resolves.toBe(done.data.order.state);
      await screenshot(page, 'earn-orders-redeemed-desktop-en');
    },
    LONG,
  );

  it(
    'staff see the order and the accrual run, and close the product for good',
    async () => {
      for (const lang of LANGS) {
        const orders = await office(tokenB, lang, '/admin/earn/orders');
        await orders.locator(`[data-testid="earn-admin-order"][data-order="${orderId}"]`).waitFor();
        await expectNoRawKeys(orders, ['adminEarn']);
        await screenshot(orders, `earn-admin-orders-desktop-${lang}`);
        await orders.goto('/admin/earn/accruals');
        await orders.getByTestId('earn-accrual-run').first().waitFor();
        await screenshot(orders, `earn-admin-accruals-desktop-${lang}`);
        await orders.context().close();
      }
      const page = await office(tokenA, 'ft', '/admin/earn/products');
      const row = page.locator(`[data-testid="earn-admin-product"][data-product="${productId}"]`);
      await row.getByTestId('earn-product-close').click();
      await page.getByTestId('reason-input').fill('e2e: the weekly product ends');
      await page.getByTestId('reason-confirm').click();
      await expect.poll(() => row.getAttribute('data-state')).toBe('closed');
      await expect(row.getByTestId('earn-product-open').count()).resolves.toBe(0);
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      await screenshot(page, 'earn-admin-products-closed-desktop-ft');
      const list = await web('getProfitList', { kind: 'custody' });
      expect(list.data.items.map((p: { product_id: string }) => p.product_id)).not.toContain(productId);
      const bought = await web(
        'buyProfit',
        { product_id: productId, amount: '100', accept_terms: '1' },
        'POST',
      );
      expect(bought.code).toBe(0);
      expect(bought.reason).toBe('EARN_NOT_ON_SALE');
    },
    LONG,
  );
});
