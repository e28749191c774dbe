import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { LANGS, launch, screenshot, signedInPage, switchLang, type ViewportName } from './browser.ts';
import { custodySecret, postCustodyWebhook, usdtDeposit } from './custody.ts';
import { slowPoll } from './wait.ts';

/**
 * Payouts end (issue 13): a crypto withdrawal from request through staff approval (back office
 * button) to a confirmed transaction hash on the embedded simulated chain (ERC20: 12 blocks of 1 s,
 * on the server's real clock), and a payout staff mark failed (dialog with reason) — unfrozen.
 * Balances and records checked; the records in en, zh and ft at 1920×1080 and 390×844.
 */
const ERC20 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const LOGIN_PASSWORD = 'secret123';
const TRADE = '246810';
let browser: Browser;
let staffToken = '';
let webhookSecret = '';
const customer = { email: `payout-e2e-${Date.now()}@example.com`, token: '' };
const pageErrors: string[] = [];

const api = (call: string, fields: Record<string, string>, method: 'GET' | 'POST' = 'POST') =>
  webCall<Envelope['data']>(method, call, fields, customer.token);
const admin = (call: string, fields: Record<string, string>) =>
  staffCall<Envelope['data']>('POST', call, fields, staffToken);

async function balances() {
  const answer = await api('getWithdrawRules', { currency: 'USDT' }, 'GET');
  return answer.data.available as string;
}

async function records() {
  const answer = await api('getWithdrawList', {}, 'GET');
  return answer.data.list as Array<Record<string, string | number>>;
}

const customerPage = (viewport: ViewportName, lang: (typeof LANGS)[number]) =>
  signedInPage(browser, { viewport, lang, token: customer.token, pageErrors });

beforeAll(async () => {
  browser = await launch();
  webhookSecret = custodySecret();
  staffToken = await staffApiToken(
    await createAdministrator('payout-staff', 'Payouts e2e', ['finance', 'administrator']),
  );
  customer.token = await registerCustomer(customer.email, LOGIN_PASSWORD);
  const bound = await api('bindTradePassword', {
    password: LOGIN_PASSWORD,
    trade_password: TRADE,
    trade_password2: TRADE,
  });
  expect(bound.code, bound.msg).toBe(1);
  const address = await api('addAddress', { currency: 'USDT', chain: 'ERC20', address: ERC20 });
  expect(address.code, address.msg).toBe(1);
  const depositAddress = await api('getRechargeAddress', { currency: 'USDT', chain: 'ERC20' }, 'GET');
  const credited = await postCustodyWebhook(
    'webhook',
    usdtDeposit({ address: depositAddress.data.address, amount: '1000', txid: `pay${Date.now()}` }),
    webhookSecret,
  );
  expect(credited.code, credited.msg).toBe(1);
  // Open all day for this file; the spec's window is restored after.
  await setWithdrawRule(staffToken, 'window', true, WINDOW_ALL_DAY);
  await setWithdrawRule(staffToken, 'turnover', false, { percent: 90 });
});
afterAll(async () => {
  await setWithdrawRule(staffToken, 'window', true, WINDOW_SPEC).catch(() => {});
  await browser?.close();
});

describe('payouts end', () => {
  it('request → staff approve → confirmed hash with explorer link; a failed payout is unfrozen', async () => {
    const address = (await api('getAddressList', { currency: 'USDT' }, 'GET')).data.list[0].id as string;
    const w = await api('withdraw', {
      method: 'address',
      currency: 'USDT',
      address_id: address,
      amount: '150',
      trade_password: TRADE,
    });
    expect(w.code, w.msg).toBe(1);
    expect(await balances()).toBe('850');

    // Staff approve in the back office (the queue's button).
    const { page: office } = await adminPage(browser, 'desktop', 'en', staffToken, pageErrors);
    await office.goto('/admin/withdrawals');
    const row = office.getByTestId('withdrawal-row').filter({ hasText: ERC20 }).filter({ hasText: '150' });
    await row.first().getByTestId('withdrawal-approve').click();
    await office.getByTestId('reason-input').fill('e2e: destination checked');
    await office.getByTestId('reason-confirm').click();
    await office.getByTestId('withdrawal-notice').waitFor();

    // The simulated chain confirms after 12 blocks: the record shows the hash with its explorer link.
    const page = await customerPage('desktop', 'en');
    await page.goto('/tbjl');
    await slowPoll(async () => (await records()).find((r) => r.id === w.data.id)?.state).toBe('completed');
    const done = (await records()).find((r) => r.id === w.data.id);
    expect(done?.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(done?.explorer_url).toBe(`https://etherscan.io/tx/${done?.tx_hash}`);
    expect(await balances()).toBe('850');
    await page.reload();
    const link = page.getByTestId('payout-tx').first().locator('a');
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(done?.explorer_url);
    await screenshot(page, 'payouts-tbjl-completed-desktop-en');

    // A second withdrawal: approved, then staff mark it failed (dialog: reason, note) before it confirms.
    const w2 = await api('withdraw', {
      method: 'address',
      currency: 'USDT',
      address_id: address,
      amount: '120',
      trade_password: TRADE,
    });
    expect(w2.code, w2.msg).toBe(1);
    expect(await balances()).toBe('730');
    const approved = await admin('withdrawals/approve', {
      withdrawal_id: w2.data.id,
      reason: 'e2e: approved to be failed',
    });
    expect(approved.data.state).toBe('processing');
    await office.goto('/admin/withdrawals');
    await office
      .locator('label')
      .filter({ hasText: /^Sending$/ })
      .click();
    const sending = office.getByTestId('withdrawal-row').filter({ hasText: '120' });
    await sending.first().getByTestId('withdrawal-fail').click();
    await office.getByTestId('reason-input').fill('Dropped from the mempool');
    await screenshot(office, 'payouts-admin-fail-dialog-desktop-en');
    await office.getByTestId('reason-confirm').click();
    await office.getByTestId('withdrawal-notice').waitFor();
    await office.context().close();
    const failed = (await records()).find((r) => r.id === w2.data.id);
    expect(failed).toMatchObject({ state: 'failed', status: 0, fail_reason: 'network_rejected' });
    expect(await balances()).toBe('850');
    await page.reload();
    await slowPoll(() => page.getByTestId('payout-failed').first().innerText()).toContain(
      'Failed: the network rejected the transfer',
    );
    await page.context().close();
  }, 120_000);

  // One profile per size (loaded in zh at 1920×1080, in ft at 390×844), the language switched in place.
  for (const [viewport, first] of [
    ['desktop', 'zh'],
    ['mobile', 'ft'],
  ] as const) {
    it(`records at ${viewport} in en, zh and ft: hash link and failure reason`, {
      timeout: 180_000,
    }, async () => {
      const page = await customerPage(viewport, first);
      await page.goto('/tbjl');
      for (const lang of LANGS) {
        await switchLang(page, lang);
        // The desktop table and the phone cards both render; the other one is hidden.
        await page.locator('[data-testid="payout-tx"]:visible').first().waitFor();
        await expect
          .poll(() => page.locator('[data-testid="payout-failed"]:visible').first().textContent())
          .toContain({ en: 'network rejected', zh: '区块链网络拒绝', ft: '區塊鏈網絡拒絕' }[lang]);
        await screenshot(page, `payouts-tbjl-${viewport}-${lang}`);
      }
      await page.context().close();
    });
  }

  it('no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
