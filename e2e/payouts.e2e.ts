import { hash } from '@node-rs/argon2';
import { generate } from 'otplib';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, LANGS, launch, newPage, outboxCode, screenshot, type ViewportName } from './browser.ts';
import { custodySecret, postCustodyWebhook } from './custody.ts';

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
const poll = <T>(fn: () => T | Promise<T>, timeout = 30_000) => expect.poll(fn, { timeout, interval: 500 });

// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field
type Answer = { code: number; msg: string; data: any; reason?: string };

async function api(call: string, fields: Record<string, string>, method: 'GET' | 'POST' = 'POST') {
  const all = {
    rtoken: `p${Math.random().toString(36).slice(2, 12)}`,
    lang: 'en',
    token: customer.token,
    ...fields,
  };
  const body = new URLSearchParams(all).toString();
  const response =
    method === 'GET'
      ? await fetch(`${baseUrl()}/api/web/${call}?${body}`)
      : await fetch(`${baseUrl()}/api/web/${call}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
  return (await response.json()) as Answer;
}

async function admin(call: string, fields: Record<string, string>, method: 'GET' | 'POST' = 'POST') {
  const all = { rtoken: `a${Math.random().toString(36).slice(2, 12)}`, ...fields };
  const authorization = `Bearer ${staffToken}`;
  const response =
    method === 'GET'
      ? await fetch(`${baseUrl()}/api/admin/${call}?${new URLSearchParams(all)}`, {
          headers: { authorization },
        })
      : await fetch(`${baseUrl()}/api/admin/${call}`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify(all),
        });
  return (await response.json()) as Answer;
}

async function staffLogin(): Promise<string> {
  const client = new pg.Client({ connectionString: inject('pgUrl') });
  await client.connect();
  const email = `payout-staff-${Date.now()}@e2e.local`;
  const password = 'payouts-staff-password';
  try {
    await client.query(
      `insert into staff_member (id, email, name, password_hash, roles, created_at, updated_at)
       values ($1, $2, 'Payouts e2e', $3, array['finance','administrator']::text[], now(), now())`,
      [`stf_PAY${Date.now()}`, email, await hash(password)],
    );
  } finally {
    await client.end();
  }
  const post = (path: string, body: object) =>
    fetch(`${baseUrl()}/api/admin/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<Answer>);
  const step1 = await post('staffLogin', { email, password, rtoken: 'paystaff1' });
  expect(step1.code).toBe(1);
  const step2 = await post('staffLoginCode', {
    ticket: step1.data.ticket,
    code: await generate({ secret: step1.data.secret }),
    rtoken: 'paystaff2',
  });
  expect(step2.code).toBe(1);
  return step2.data.token;
}

async function setRule(code: string, enabled: boolean, params: object) {
  const r = await admin('withdrawals/rules/update', {
    code,
    enabled: enabled ? '1' : '0',
    params: JSON.stringify(params),
    reason: 'e2e: policy for this file',
  });
  expect(r.code, r.msg).toBe(1);
}

async function balances() {
  const answer = await api('getWithdrawRules', { currency: 'USDT' }, 'GET');
  return answer.data.available as string;
}

async function records() {
  const answer = await api('getWithdrawList', {}, 'GET');
  return answer.data.list as Array<Record<string, string | number>>;
}

async function backOffice(lang: (typeof LANGS)[number]): Promise<Page> {
  const office = await browser.newContext({ viewport: { width: 1920, height: 1080 }, baseURL: baseUrl() });
  await office.addInitScript({
    content: `localStorage.setItem('bourse.admin.lang', '${lang}'); sessionStorage.setItem('bourse.admin.token', ${JSON.stringify(staffToken)});`,
  });
  const page = await office.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  return page;
}

async function customerPage(viewport: ViewportName, lang: (typeof LANGS)[number]): Promise<Page> {
  const { context, page } = await newPage(browser, { viewport, lang });
  await context.addInitScript({
    content: `localStorage.setItem('bourse.token', ${JSON.stringify(customer.token)});`,
  });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  return page;
}

beforeAll(async () => {
  browser = await launch();
  webhookSecret = custodySecret();
  staffToken = await staffLogin();
  const sent = await api('getCode', { account: customer.email, scene: 'register' }, 'GET');
  expect(sent.code).toBe(1);
  const registered = await api('userRegister', {
    type: 'email',
    account: customer.email,
    code: await outboxCode(customer.email),
    password: LOGIN_PASSWORD,
    password2: LOGIN_PASSWORD,
    agree: '1',
  });
  expect(registered.code).toBe(1);
  customer.token = registered.data.token_h5;
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
    {
      type: 'deposit',
      chain: 'ERC20',
      txid: `pay${Date.now()}`,
      output_index: 0,
      address: depositAddress.data.address,
      currency: 'USDT',
      amount: '1000',
      confirmations: 64,
      status: 'success',
    },
    webhookSecret,
  );
  expect(credited.code, credited.msg).toBe(1);
  // Open all day for this file; the spec's window is restored after.
  await setRule('window', true, { start: '00:00', end: '24:00', timezone: 'Asia/Hong_Kong' });
  await setRule('turnover', false, { percent: 90 });
});
afterAll(async () => {
  await setRule('window', true, { start: '12:00', end: '24:00', timezone: 'Asia/Hong_Kong' }).catch(() => {});
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
    const office = await backOffice('en');
    await office.goto('/admin/withdrawals');
    const row = office.getByTestId('withdrawal-row').filter({ hasText: ERC20 }).filter({ hasText: '150' });
    await row.first().getByTestId('withdrawal-approve').click();
    await office.getByTestId('reason-input').fill('e2e: destination checked');
    await office.getByTestId('reason-confirm').click();
    await office.getByTestId('withdrawal-notice').waitFor();

    // The simulated chain confirms after 12 blocks: the record shows the hash with its explorer link.
    const page = await customerPage('desktop', 'en');
    await page.goto('/tbjl');
    await poll(async () => (await records()).find((r) => r.id === w.data.id)?.state).toBe('completed');
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
    await poll(() => page.getByTestId('payout-failed').first().innerText()).toContain(
      'Failed: the network rejected the transfer',
    );
    await page.context().close();
  }, 120_000);

  for (const viewport of ['desktop', 'mobile'] as const) {
    for (const lang of LANGS) {
      it(`records at ${viewport} in ${lang}: hash link and failure reason`, async () => {
        const page = await customerPage(viewport, lang);
        await page.goto('/tbjl');
        // The desktop table and the phone cards both render; the other one is hidden.
        await page.locator('[data-testid="payout-tx"]:visible').first().waitFor();
        const failedText = await page.locator('[data-testid="payout-failed"]:visible').first().innerText();
        expect(failedText).toContain(
          { en: 'network rejected', zh: '区块链网络拒绝', ft: '區塊鏈網絡拒絕' }[lang],
        );
        await screenshot(page, `payouts-tbjl-${viewport}-${lang}`);
        await page.context().close();
      }, 60_000);
    }
  }

  it('no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
