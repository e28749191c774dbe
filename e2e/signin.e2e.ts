import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminPage,
  createAdministrator,
  registerCustomer,
  staffApiToken,
  staffCall,
  webCall,
  webData,
} from './api.ts';
import { LANGS, launch, newPage, screenshot, signedInPage, switchLang } from './browser.ts';
import { dec, spotBalance } from './kyc.ts';
import { englishTexts, expectNoRawKeys, noSideways } from './pages.ts';

/**
 * The seven-day sign-in reward (issue 20 item 2) end to end in Chromium. Two staff members fund the
 * budget through the staff API (four eyes: the requester's own approval is refused); the rules page
 * `/signRule` opens without login and reads in en, zh and ft at 1920×1080 and 390×844 (screenshots);
 * a customer signs in for today from the page and is paid day 1's amount into their spot account,
 * once. The production server runs on the real clock and has no clock hook: the seven-day stepped
 * flow, the missed day and the two time zones are proven by the server's tests
 * (apps/server/src/modules/signin/signin.test.ts).
 */

let browser: Browser;
let approver = '';
const pageErrors: string[] = [];
const stamp = Date.now();

type Info = { amounts: string[]; budget_remaining: string; state: string; currency: string };

beforeAll(async () => {
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('the sign-in reward', () => {
  it('two staff members fund the budget: the requester cannot approve, another can', async () => {
    const first = await staffApiToken(await createAdministrator('signin-a', 'Sign-in Requester'));
    const second = await staffApiToken(await createAdministrator('signin-b', 'Sign-in Approver'));
    approver = second;
    const before = await staffCall<{ balance: string }>('GET', 'signin/budget', {}, first);
    expect(before.code, before.msg).toBe(1);
    const asked = await staffCall<{ request_id: string }>(
      'POST',
      'signin/funding-requests',
      { amount: '50', reason: 'e2e sign-in budget' },
      first,
    );
    expect(asked.code, asked.msg).toBe(1);
    const id = asked.data.request_id;
    const own = await staffCall('POST', `signin/funding-requests/${id}/approve`, { reason: 'my own' }, first);
    expect(own.reason).toBe('SIGNIN_FUNDING_SELF_APPROVAL');
    const approved = await staffCall<{ state: string }>(
      'POST',
      `signin/funding-requests/${id}/approve`,
      { reason: 'checked' },
      second,
    );
    expect(approved.data.state).toBe('approved');
    const after = await staffCall<{ balance: string }>('GET', 'signin/budget', {}, first);
    const whole = (text: string) => BigInt(dec(text).split('.')[0] ?? '0');
    expect(whole(after.data.balance) - whole(before.data.balance)).toBe(50n);
    const info = await webData<Info>('GET', 'signin', {}, null);
    expect(info.state).toBe('on');
  });

  it('/signRule opens without login and reads in three languages at both sizes', {
    timeout: 120_000,
  }, async () => {
    for (const viewport of ['desktop', 'mobile'] as const) {
      const { context, page } = await newPage(browser, { viewport, lang: 'en' });
      page.on('pageerror', (error) => pageErrors.push(String(error)));
      await page.goto('/signRule');
      for (const lang of LANGS) {
        await switchLang(page, lang);
        await page.getByTestId('signin-rules').waitFor();
        expect(await page.getByTestId('signin-day').count()).toBe(7);
        await page.getByTestId('signin-login').waitFor();
        expect(await page.getByTestId('signin-state').getAttribute('data-state')).toBe('on');
        await expectNoRawKeys(page, ['signin', 'common']);
        if (lang !== 'en') expect(await englishTexts(page), `/signRule in ${lang}`).toEqual([]);
        await noSideways(page, `/signRule ${viewport} ${lang}`);
        await screenshot(page, `signin-rules-${viewport}-${lang}`);
      }
      expect(new URL(page.url()).pathname).toBe('/signRule');
      await context.close();
    }
    expect(pageErrors).toEqual([]);
  });

  it('a customer signs in for today from the page and is paid day 1, once', {
    timeout: 240_000,
  }, async () => {
    const token = await registerCustomer(`signin-${stamp}@e2e.local`, 'secret123', 'HK');
    // This server runs on the real clock: within two minutes of the programme's midnight, wait it out,
    // so "once today" is asked about one customer-day whatever the hour the suite runs at (the
    // boundary itself is the stepped-clock test's business: signin-week.e2e.ts).
    const mine = await webData<{ next_boundary_at: number; now: number }>('GET', 'signin', {}, token);
    const left = mine.next_boundary_at - mine.now;
    if (left < 120_000) await new Promise((r) => setTimeout(r, left + 1_000));
    const info = await webData<Info>('GET', 'signin', {}, null);
    const day1 = info.amounts[0] ?? '0';
    const page = await signedInPage(browser, {
      viewport: 'desktop',
      lang: 'en',
      token,
      path: '/signRule',
      pageErrors,
    });
    await page.getByTestId('signin-button').click();
    await page.getByTestId('signin-paid').waitFor();
    await page.getByTestId('signin-signed-today').waitFor();
    expect(await page.getByTestId('signin-day').first().getAttribute('data-signed')).toBe('1');
    expect(await page.getByTestId('signin-button').count()).toBe(0);
    await screenshot(page, 'signin-signed-desktop-en');
    expect((await spotBalance(token, 'USDT')).available).toBe(dec(day1));
    await page.context().close();

    // On a phone, in Traditional Chinese: signed today, nothing more to press; a second try is refused.
    const phone = await signedInPage(browser, { viewport: 'mobile', lang: 'ft', token, path: '/signRule' });
    await phone.getByTestId('signin-signed-today').waitFor();
    expect(await englishTexts(phone)).toEqual([]);
    await noSideways(phone, '/signRule signed mobile ft');
    await screenshot(phone, 'signin-signed-mobile-ft');
    await phone.context().close();
    const again = await webCall('POST', 'signin', {}, token);
    expect(again.reason).toBe('SIGNIN_ALREADY_TODAY');
    expect((await spotBalance(token, 'USDT')).available).toBe(dec(day1));
    expect(pageErrors).toEqual([]);
  });

  it('the back office shows the programme, the budget with its requests, and the payout', {
    timeout: 120_000,
  }, async () => {
    expect(approver).not.toBe('');
    const { context, page } = await adminPage(browser, 'desktop', 'en', approver, pageErrors);
    await page.goto('/admin/signin/budget');
    await page.getByTestId('signin-budget-screen').waitFor();
    await page.getByTestId('signin-payout-row').first().waitFor();
    expect(await page.getByTestId('signin-request-row').count()).toBeGreaterThan(0);
    for (const lang of LANGS) {
      await switchLang(page, lang, 'admin');
      await page.getByTestId('signin-budget-balance').waitFor();
      await expectNoRawKeys(page, ['adminSignin', 'common']);
      await screenshot(page, `signin-admin-budget-desktop-${lang}`);
    }
    await page.goto('/admin/signin');
    await page.getByTestId('signin-preview').waitFor();
    await screenshot(page, 'signin-admin-programme-desktop-en');
    await context.close();
    expect(pageErrors).toEqual([]);
  });
});
