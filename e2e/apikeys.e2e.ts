import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCustomer, webData } from './api.ts';
import {
  baseUrl,
  LANGS,
  launch,
  screenshot,
  signedInPage,
  switchLang,
  type ViewportName,
} from './browser.ts';
import { custodySecret, postCustodyWebhook, usdtDeposit } from './custody.ts';
import { englishTexts, expectNoRawKeys } from './pages.ts';

/**
 * API keys in Chromium: a customer creates a trading key on /botKeys (trade password; the secret shown
 * once with copy buttons), sees it listed, in three languages at 1920×1080 and 390×844; then a
 * program uses the key from Node — Binance-style signed calls against the e2e server, timestamped
 * with the server's own clock (GET /api/v3/time) — to place an order, which the web app shows in
 * its open orders.
 */

const TRADE = '135790';
type Lang = (typeof LANGS)[number];

let browser: Browser;
let token: string;

async function ready(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).waitFor();
  await page
    .locator('.mantine-Loader-root')
    .first()
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}

/** Creates a key on the screen; answers the key and secret read from the once-only dialog. */
async function createOnScreen(page: Page, label: string, shot: string) {
  await ready(page, 'apikeys-create');
  await page.getByTestId('apikeys-label').fill(label);
  await page.getByTestId('apikeys-permission').locator('label').nth(1).click();
  await page.getByTestId('apikeys-ips').fill('');
  await page.getByTestId('apikeys-trade-password').fill(TRADE);
  await page.getByTestId('apikeys-submit').click();
  await page.getByTestId('apikeys-new-secret').waitFor();
  const apiKey = (await page.getByTestId('apikeys-new-key').textContent()) ?? '';
  const secret = (await page.getByTestId('apikeys-new-secret').textContent()) ?? '';
  expect(apiKey).toMatch(/^[0-9a-f]{64}$/);
  expect(secret).toMatch(/^[0-9a-f]{64}$/);
  await screenshot(page, shot);
  await page.getByTestId('apikeys-secret-done').click();
  await page.getByTestId('apikeys-new-secret').waitFor({ state: 'hidden' });
  return { apiKey, secret };
}

/** A Binance-style signed call, timestamped by the server's clock. */
async function signedCall(
  key: { apiKey: string; secret: string },
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, string>,
) {
  const time = (await (await fetch(`${baseUrl()}/api/v3/time`)).json()) as { serverTime: number };
  const text = new URLSearchParams({
    ...params,
    timestamp: String(time.serverTime),
    recvWindow: '10000',
  }).toString();
  const signedText = `${text}&signature=${createHmac('sha256', key.secret).update(text).digest('hex')}`;
  const headers = { 'x-mbx-apikey': key.apiKey };
  const response =
    method === 'GET'
      ? await fetch(`${baseUrl()}/api/v3${path}?${signedText}`, { headers })
      : await fetch(`${baseUrl()}/api/v3${path}`, {
          method,
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: signedText,
        });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  browser = await launch();
  token = await registerCustomer(`apikeys-${Date.now().toString(36)}@example.com`);
  await webData(
    'POST',
    'bindTradePassword',
    { password: 'secret123', trade_password: TRADE, trade_password2: TRADE },
    token,
  );
  const address = await webData<{ address: string }>(
    'GET',
    'getRechargeAddress',
    { currency: 'USDT', chain: 'ERC20' },
    token,
  );
  const credited = await postCustodyWebhook(
    'webhook',
    usdtDeposit({ address: address.address, amount: '2000', txid: `e2ekeys${Date.now().toString(16)}` }),
    custodySecret(),
  );
  expect(credited.code, credited.msg).toBe(1);
});

afterAll(async () => {
  await browser?.close();
});

describe('API keys', () => {
  let key: { apiKey: string; secret: string };

  it('creates a trading key on the screen: the secret once, then the list', async () => {
    const page = await signedInPage(browser, { viewport: 'desktop', lang: 'en', token, path: '/setting' });
    await page.getByTestId('settings-apikeys').click();
    await page.waitForURL('**/botKeys');
    key = await createOnScreen(page, 'e2e bot', 'apikeys-secret-desktop-en');
    const row = page.locator('[data-testid^="apikey-row-"]').first();
    await row.waitFor();
    expect(await row.textContent()).toContain('e2e bot');
    expect(await page.getByTestId('apikeys-table').textContent()).not.toContain(key.secret);
    await page.context().close();

    // On a phone, in Chinese: a second key, the dialog at 390 px.
    const phone = await signedInPage(browser, { viewport: 'mobile', lang: 'zh', token, path: '/botKeys' });
    await createOnScreen(phone, '手机机器人', 'apikeys-secret-mobile-zh');
    await phone.locator('[data-testid^="apikey-card-"]').nth(1).waitFor();
    await phone.context().close();
  });

  // One profile per size (loaded in ft at 1920×1080, in en at 390×844), the language switched in place.
  for (const [viewport, first] of [
    ['desktop', 'ft'],
    ['mobile', 'en'],
  ] as Array<[ViewportName, Lang]>) {
    it(`shows the keys at ${viewport} in en, zh and ft`, { timeout: 180_000 }, async () => {
      const page = await signedInPage(browser, { viewport, lang: first, token, path: '/botKeys' });
      const list = viewport === 'desktop' ? 'apikeys-table' : 'apikeys-cards';
      for (const lang of LANGS as readonly Lang[]) {
        await switchLang(page, lang);
        await ready(page, list);
        await page.getByTestId('apikeys-count').waitFor();
        await expectNoRawKeys(page, ['apiKeys']);
        if (lang !== 'en')
          await expect.poll(() => englishTexts(page), { message: `${viewport} ${lang}` }).toEqual([]);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, `${viewport} ${lang} scrolls sideways`).toBeLessThanOrEqual(
          viewport === 'desktop' ? 1920 : 390,
        );
        await screenshot(page, `apikeys-${viewport}-${lang}`);
      }
      await page.context().close();
    });
  }

  it('a program places an order with the key; the web app shows it among the open orders', async () => {
    const ticker = (await (await fetch(`${baseUrl()}/api/v3/ticker/price?symbol=BTCUSDT`)).json()) as {
      price: string;
    };
    const price = (Math.floor(Number(ticker.price) * 0.8 * 100) / 100).toFixed(2);
    const placed = await signedCall(key, 'POST', '/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.001',
      price,
      newClientOrderId: `e2e-${Date.now().toString(36)}`,
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.status).toBe('NEW');
    const orderId = String(placed.body.orderId);
    const open = await signedCall(key, 'GET', '/openOrders', { symbol: 'BTCUSDT' });
    expect((open.body as unknown as Array<{ orderId: string }>).map((o) => o.orderId)).toContain(orderId);

    const page = await signedInPage(browser, {
      viewport: 'desktop',
      lang: 'en',
      token,
      path: '/currencyTrade?symbol=BTC%2FUSDT',
    });
    const row = page.locator(
      `[data-testid="panel-current"] [data-testid="order-row"][data-order-id="${orderId}"]`,
    );
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('unfilled');
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'apikeys-order-in-web-desktop-en');
    await page.context().close();
  });
});
