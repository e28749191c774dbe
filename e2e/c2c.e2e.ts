import type { C2cOfferData, C2cOrderData } from '@bourse/protocol';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  adminPage,
  createAdministrator,
  demoToken,
  registerCustomer,
  staffApiToken,
  staffCall,
  webCall,
} from './api.ts';
import { LANGS, launch, screenshot, signedInPage, switchLang, type ViewportName, visit } from './browser.ts';
import {
  dec,
  depositUsdt,
  documentImage,
  type Person,
  type StaffPair,
  spotBalance,
  uploadFile,
  verify,
} from './kyc.ts';
import { expectNoRawKeys } from './pages.ts';
import { until } from './wait.ts';

/**
 * C2C (issue 19) end to end in Chromium, on the e2e server's real clock with the C2C job every second
 * (C2C_JOB_INTERVAL_MS=1000) and payment windows allowed down to a minute (C2C_WINDOW_MIN_MINUTES=1).
 *
 * A merchant (advanced verification, a bank account, USDT deposited) is approved in the back office;
 * staff publish three offers: customers buy at 7.10 CNY (3-hour window), buy at 7.20 with a one-minute
 * window, sell at 7.00. Through the screens: a buyer orders, sees the coins held in escrow before the
 * bank details, is refused for a payer name that is not theirs (nothing changes), pays with the
 * remittance proof, and sees the merchant's confirmation arrive live; an unpaid order expires at its
 * window and the escrow goes back; a paid order is disputed with evidence and decided in the back
 * office (both sides' evidence side by side); a seller's coins are escrowed, the merchant pays, the
 * seller confirms; a demo account trades with the demo desk (play money). Screenshots at 1920×1080
 * and 390×844 in three languages.
 */

let browser: Browser;
let staff: StaffPair;
const pageErrors: string[] = [];
const stamp = Date.now();
const person = (label: string, name: string): Person & { uid: string } => ({
  token: '',
  email: `c2c-${label}-${stamp}@e2e.local`,
  name,
  uid: '',
});
const merchant = person('merchant', 'Wong Ka Ming');
const buyer = person('buyer', 'Lee Siu Fung');
const seller = person('seller', 'Ho Wai Lam');
const disputer = person('disputer', 'Tang Mei Yee');
let merchantId = '';
const offers = { buy: '', quick: '', sell: '' };

async function uidOf(email: string): Promise<string> {
  const client = new pg.Client({ connectionString: inject('pgUrl') });
  await client.connect();
  try {
    const rows = await client.query<{ uid: string }>('select uid from accounts_customer where email = $1', [
      email,
    ]);
    return rows.rows[0]?.uid ?? '';
  } finally {
    await client.end();
  }
}

const web = <T = C2cOrderData>(who: { token: string }, method: 'GET' | 'POST', name: string, f = {}) =>
  webCall<T>(method, name, f, who.token);

async function order(who: { token: string }, id: string): Promise<C2cOrderData> {
  const answer = await web(who, 'GET', 'c2cOrder', { order_id: id });
  expect(answer.code, answer.msg).toBe(1);
  return answer.data;
}

async function offer(body: Record<string, unknown>): Promise<string> {
  const answer = await staffCall<C2cOfferData>(
    'POST',
    'c2c/offers',
    {
      merchant_id: merchantId,
      coin: 'USDT',
      fiat: 'CNY',
      price_kind: 'fixed',
      min_amount: '10',
      max_amount: '1000',
      total_amount: '3000',
      terms: 'Pay from an account in your own name only; no third-party payments.',
      reason: 'e2e: the merchant’s published offer',
      ...body,
    } as never,
    staff.first,
  );
  expect(answer.code, answer.msg).toBe(1);
  return answer.data.offer_id;
}

const page = (who: { token: string }, viewport: ViewportName, lang: (typeof LANGS)[number], path: string) =>
  signedInPage(browser, { viewport, lang, token: who.token, path, pageErrors });

/** The order page's state, as the screen marks it. */
const stateOf = (p: Page) => p.getByTestId('c2c-state').first().getAttribute('data-state');

async function shot(p: Page, name: string): Promise<void> {
  await expectNoRawKeys(p, ['c2c', 'common']);
  expect(
    await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    `${name}: wider than the screen`,
  ).toBeLessThanOrEqual(0);
  await screenshot(p, `c2c-${name}`);
}

beforeAll(async () => {
  browser = await launch();
  staff = {
    first: await staffApiToken(await createAdministrator('c2c', 'C2C e2e')),
    second: await staffApiToken(await createAdministrator('c2c2', 'C2C e2e second')),
  };
  for (const [n, who] of [merchant, buyer, seller, disputer].entries()) {
    who.token = await registerCustomer(who.email, 'secret123', 'HK');
    who.uid = await uidOf(who.email);
    await verify(who, n, staff, { advanced: who === merchant });
  }
  await depositUsdt(merchant.token, '5000');
  await depositUsdt(seller.token, '500');
  const bank = await web(merchant, 'POST', 'c2cAccountSave', {
    method: 'bank',
    name: merchant.name,
    bank_name: 'Hang Seng Bank',
    iban: 'GB82WEST12345698765432',
    swift: 'HASEHKHH',
  });
  expect(bank.code, bank.msg).toBe(1);
  const m = await staffCall<{ merchant_id: string }>(
    'POST',
    'c2c/merchants',
    {
      uid: merchant.uid,
      name: 'Ka Ming OTC',
      is_operator: false,
      reason: 'e2e: a verified merchant',
    } as never,
    staff.first,
  );
  expect(m.code, m.msg).toBe(1);
  merchantId = m.data.merchant_id;
  offers.buy = await offer({ side: 'buy', price: '7.1', methods: [{ method: 'bank', window_minutes: 180 }] });
  offers.quick = await offer({ side: 'buy', price: '7.2', methods: [{ method: 'bank', window_minutes: 1 }] });
  offers.sell = await offer({ side: 'sell', price: '7', methods: [{ method: 'bank', window_minutes: 180 }] });
}, 300_000);

afterAll(async () => {
  await browser?.close();
});

const LONG = 180_000;

describe('C2C: buying and selling by bank transfer against escrow', () => {
  it(
    'offers, rules and my collection accounts in three languages at both sizes; a bad IBAN refused in place',
    async () => {
      for (const viewport of ['desktop', 'mobile'] as const) {
        const p = await page(buyer, viewport, 'en', '/c2c_index');
        for (const lang of LANGS) {
          await switchLang(p, lang);
          await p.locator(`[data-testid="c2c-offer"][data-offer="${offers.buy}"]`).first().waitFor();
          await p.getByTestId('c2c-no-fee').waitFor();
          await shot(p, `offers-${viewport}-${lang}`);
        }
        await visit(p, '/c2c_rule');
        for (const lang of LANGS) {
          await switchLang(p, lang);
          await p.getByTestId('rule-fee-orderer').waitFor();
          await p.getByTestId('rule-order-tier').waitFor();
          await shot(p, `rules-${viewport}-${lang}`);
        }
        await p.context().close();
      }
      // Collection accounts: the name is the verified one; IBAN checked in the browser and on the server.
      const p = await page(seller, 'mobile', 'zh', '/c2c_account');
      const form = p.getByTestId('c2c-account-form');
      await form.waitFor();
      expect(await p.getByTestId('account-name').inputValue()).toBe(seller.name);
      await p.getByTestId('account-bank-name').fill('中国银行香港');
      await p.getByTestId('account-number').fill('GB00WEST12345698765432');
      await p.getByTestId('account-save').click();
      await shot(p, 'account-bad-iban-mobile-zh');
      expect(await web(seller, 'GET', 'c2cAccounts')).toMatchObject({ code: 1, data: [] });
      await p.getByTestId('account-number').fill('GB82WEST12345698765432');
      await p.getByTestId('account-save').click();
      await p.getByTestId('c2c-account').first().waitFor();
      await shot(p, 'accounts-mobile-zh');
      await p.context().close();
    },
    LONG,
  );

  it(
    'buy completed: escrow before the bank details, a payer name not mine refused, paid with the proof, the confirmation live',
    async () => {
      const before = await spotBalance(buyer.token, 'USDT');
      const p = await page(buyer, 'desktop', 'en', '/c2c_index');
      await p
        .locator(`[data-testid="c2c-offer"][data-offer="${offers.buy}"]`)
        .first()
        .getByTestId('offer-order')
        .click();
      await p.getByTestId('c2c-create').waitFor();
      await p.getByTestId('c2c-create-amount').fill('100');
      await expect.poll(() => p.getByTestId('c2c-create-fiat').getAttribute('data-value')).toBe('710.00');
      await p.getByTestId('c2c-create-rule-name').waitFor();
      await shot(p, 'create-desktop-en');
      await p.getByTestId('c2c-create-submit').click();
      await p.getByTestId('c2c-create-confirm-button').click();
      await p.getByTestId('c2c-order').waitFor();
      const id = new URL(p.url()).searchParams.get('order_id') ?? '';
      expect(id).not.toBe('');
      // The coins are in escrow before the receiver's bank details show.
      await expect.poll(() => p.getByTestId('order-escrow').getAttribute('data-held')).toBe('true');
      await expect.poll(() => p.getByTestId('order-escrow').textContent()).toContain('100');
      await expect.poll(() => p.getByTestId('pay-to-name').textContent()).toContain(merchant.name);
      expect(await stateOf(p)).toBe('matched');
      await shot(p, 'order-matched-desktop-en');

      // Someone else's name: refused in place, nothing changes.
      await p.getByTestId('payer-name').fill('Someone Else');
      await p.getByTestId('payer-bank').fill('Bank of China (Hong Kong)');
      await p.getByTestId('payer-proof-input').setInputFiles({
        name: 'slip.jpg',
        mimeType: 'image/jpeg',
        buffer: await documentImage(140, 'transfer slip 710.00 CNY'),
      });
      await p.getByTestId('payer-proof-done').waitFor();
      await p.getByTestId('order-paid').click();
      await p.getByTestId('order-paid-confirm-yes').click();
      await p.locator('[data-testid="c2c-refusal"][data-reason="C2C_PAYER_NAME_MISMATCH"]').waitFor();
      await shot(p, 'order-name-refused-desktop-en');
      expect((await order(buyer, id)).state).toBe('matched');

      await p.getByTestId('payer-name').fill(buyer.name);
      await p.getByTestId('order-paid').click();
      await p.getByTestId('order-paid-confirm-yes').click();
      await expect.poll(() => stateOf(p)).toBe('paid');
      await shot(p, 'order-paid-desktop-en');

      // The merchant confirms receipt; the buyer's page follows live.
      const confirmed = await web(merchant, 'POST', 'c2cConfirm', { order_id: id });
      expect(confirmed.code, confirmed.msg).toBe(1);
      await expect.poll(() => stateOf(p), { timeout: 10_000 }).toBe('completed');
      await shot(p, 'order-completed-desktop-en');
      const after = await spotBalance(buyer.token, 'USDT');
      expect(Number(after.available) - Number(before.available)).toBe(100);
      await p.context().close();
    },
    LONG,
  );

  it(
    'buy expired unpaid: at its one-minute window the job expires it and the escrow goes back, irreversibly',
    async () => {
      const before = await spotBalance(merchant.token, 'USDT');
      const created = await web(buyer, 'POST', 'c2cCreateOrder', {
        offer_id: offers.quick,
        amount: '20',
        method: 'bank',
      });
      expect(created.code, created.msg).toBe(1);
      const id = created.data.order_id;
      expect(Number((await spotBalance(merchant.token, 'USDT')).available)).toBe(
        Number(before.available) - 20,
      );
      const p = await page(buyer, 'mobile', 'ft', `/c2c_submit?order_id=${id}`);
      await p.getByTestId('order-countdown').waitFor();
      await shot(p, 'order-countdown-mobile-ft');
      await expect.poll(() => stateOf(p), { timeout: 120_000, interval: 2_000 }).toBe('expired');
      await p.getByTestId('order-end-reason').waitFor();
      await shot(p, 'order-expired-mobile-ft');
      expect((await spotBalance(merchant.token, 'USDT')).available).toBe(before.available);
      const late = await web(buyer, 'POST', 'c2cMarkPaid', {
        order_id: id,
        payer_name: buyer.name,
        payer_bank: 'Bank',
        proof_id: await uploadFile(buyer.token, 'remittance_proof', 30, 'late slip'),
      });
      expect(late.reason).toBe('C2C_ORDER_STATE');
      await p.context().close();
    },
    LONG,
  );

  it(
    'paid then disputed with evidence, decided in the back office with both sides side by side',
    async () => {
      const created = await web(disputer, 'POST', 'c2cCreateOrder', {
        offer_id: offers.buy,
        amount: '50',
        method: 'bank',
      });
      expect(created.code, created.msg).toBe(1);
      const id = created.data.order_id;
      const paid = await web(disputer, 'POST', 'c2cMarkPaid', {
        order_id: id,
        payer_name: disputer.name,
        payer_bank: 'HSBC Hong Kong',
        proof_id: await uploadFile(disputer.token, 'remittance_proof', 300, 'slip 355.00 CNY'),
      });
      expect(paid.code, paid.msg).toBe(1);
      const p = await page(disputer, 'mobile', 'zh', `/c2c_submit?order_id=${id}`);
      await p.getByTestId('order-dispute').click();
      await p.getByTestId('c2c-dispute-form').waitFor();
      await p.getByTestId('dispute-reason').click();
      await p.getByRole('option').first().click();
      await p.getByTestId('dispute-note').fill('我已于今天转账 355.00 元，对方未确认收款。');
      await shot(p, 'dispute-form-mobile-zh');
      await p.getByTestId('dispute-submit').click();
      await expect.poll(() => stateOf(p)).toBe('disputed');
      await shot(p, 'order-disputed-mobile-zh');
      const said = await web(merchant, 'POST', 'c2cSendMessage', {
        order_id: id,
        body: 'No transfer of 355.00 has reached our account yet.',
      });
      expect(said.code, said.msg).toBe(1);

      const { page: admin, context } = await adminPage(browser, 'desktop', 'en', staff.first, pageErrors);
      await admin.goto('/admin/c2c/disputes');
      await admin
        .locator(`[data-testid="c2c-dispute"][data-order="${id}"]`)
        .getByTestId('c2c-dispute-open')
        .click();
      await admin.getByTestId('c2c-evidence-buyer').waitFor();
      await expect.poll(() => admin.getByTestId('c2c-evidence-buyer').textContent()).toContain('355.00');
      await expect
        .poll(() => admin.getByTestId('c2c-evidence-seller').textContent())
        .toContain('No transfer');
      await screenshot(admin, 'c2c-admin-dispute-desktop-en');
      await admin.getByTestId('c2c-decide-release').click();
      await admin.getByTestId('reason-input').fill('e2e: the bank statement shows the 355.00 CNY credited');
      await admin.getByTestId('c2c-decide-consequence').waitFor();
      await screenshot(admin, 'c2c-admin-decide-desktop-en');
      await admin.getByTestId('reason-confirm').click();
      await expect.poll(async () => (await order(disputer, id)).state).toBe('completed');
      await context.close();
      await expect.poll(() => stateOf(p), { timeout: 10_000 }).toBe('completed');
      await p.getByTestId('order-outcome').waitFor();
      await shot(p, 'order-decided-mobile-zh');
      await p.context().close();
    },
    LONG,
  );

  it(
    'sell completed: my coins escrowed, the merchant pays my account, I confirm receipt',
    async () => {
      const p = await page(seller, 'desktop', 'ft', '/c2c_index');
      await p
        .getByTestId('c2c-side')
        .getByText(/賣出|出售/)
        .first()
        .click();
      await p
        .locator(`[data-testid="c2c-offer"][data-offer="${offers.sell}"]`)
        .first()
        .getByTestId('offer-order')
        .click();
      await p.getByTestId('c2c-create').waitFor();
      await p.getByTestId('c2c-create-amount').fill('200');
      await p.getByTestId('c2c-create-account').first().click();
      await p.getByTestId('c2c-create-submit').click();
      await p.getByTestId('c2c-create-confirm-button').click();
      await p.getByTestId('c2c-order').waitFor();
      const id = new URL(p.url()).searchParams.get('order_id') ?? '';
      expect((await spotBalance(seller.token, 'USDT')).available).toBe('300');
      await expect.poll(() => p.getByTestId('order-escrow').textContent()).toContain('200');
      await shot(p, 'sell-matched-desktop-ft');
      const paid = await web(merchant, 'POST', 'c2cMarkPaid', {
        order_id: id,
        payer_name: merchant.name,
        payer_bank: 'Hang Seng Bank',
        proof_id: await uploadFile(merchant.token, 'remittance_proof', 90, 'slip 1400.00 CNY'),
      });
      expect(paid.code, paid.msg).toBe(1);
      await expect.poll(() => stateOf(p), { timeout: 10_000 }).toBe('paid');
      await p.getByTestId('c2c-received-warning').waitFor();
      // The merchant's remittance proof opens for the seller (a party link).
      const proofUrl = await p.getByTestId('order-proof').getAttribute('href');
      expect((await fetch(new URL(proofUrl ?? '', p.url()).toString())).status).toBe(200);
      await p.getByTestId('order-received').click();
      await p.getByTestId('order-received-confirm-yes').click();
      await expect.poll(() => stateOf(p)).toBe('completed');
      await shot(p, 'sell-completed-desktop-ft');
      const m = await spotBalance(merchant.token, 'USDT');
      expect(dec(m.available)).toBe(dec(String(5000 - 100 - 50 + 200)));
      await p.context().close();
    },
    LONG,
  );

  it(
    'a demo account trades with the demo desk: play money, no proof, the desk confirms by itself',
    async () => {
      const demo = { token: await demoToken() };
      const p = await page(demo, 'mobile', 'en', '/c2c_index');
      const row = p.getByTestId('c2c-offer').first();
      await row.waitFor();
      await shot(p, 'demo-offers-mobile-en');
      await row.getByTestId('offer-order').click();
      await p.getByTestId('c2c-create-amount').fill('100');
      await p.getByTestId('c2c-create-submit').click();
      await p.getByTestId('c2c-create-confirm-button').click();
      await p.getByTestId('c2c-order').waitFor();
      await p.getByTestId('payer-name').fill('Demo Trader');
      await p.getByTestId('payer-bank').fill('Demo bank');
      await p.getByTestId('order-paid').click();
      await p.getByTestId('order-paid-confirm-yes').click();
      await expect.poll(() => stateOf(p), { timeout: 15_000 }).toBe('completed');
      await shot(p, 'demo-completed-mobile-en');
      await p.context().close();
    },
    LONG,
  );

  it('raised no page error', () => {
    expect(pageErrors).toEqual([]);
  });
});
