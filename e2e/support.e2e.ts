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
import { LANGS, launch, screenshot, signedInPage, switchLang, type ViewportName } from './browser.ts';
import {
  englishTexts,
  expectNoRawKeys,
  navigations,
  noSideways,
  socketFrames,
  staffEnrolmentLogIn,
} from './pages.ts';

/**
 * Live customer support (issue 20, item 6) end to end in Chromium, with two browser contexts: the
 * customer on /service and a staff member of this file's own in the back office's support console
 * (logged in through the login screen with TOTP enrolment).
 *
 * The customer starts a conversation and writes again; the console shows both without a reload (it
 * polls: the back office has no websocket); the staff member answers; the customer's page shows the
 * answer over the websocket without a reload, signed with the staff member's name and staff code; the
 * customer checks that code in the app (and a made-up one is refused). Every support screen says that
 * staff never ask for passwords, codes or transfers — checked in en, zh and ft at 1920×1080 and 390×844.
 *
 * Conversations are per customer; the console's rows are found by this file's conversation id, so
 * other files' conversations do not matter. Staffed hours are not changed: outside them the messages
 * are tickets, which changes nothing here.
 */

let browser: Browser;
const pageErrors: string[] = [];
const consoleErrors: string[] = [];
const stamp = Date.now();
const STAFF_NAME = 'Chan Mei Ling';
let staff: { email: string; password: string };
const customers = { en: '', zh: '', ft: '' };

function watch(page: Page, label: string): Page {
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${label}: ${message.text()}`);
  });
  page.on('pageerror', (error) => pageErrors.push(`${label}: ${String(error)}`));
  return page;
}

beforeAll(async () => {
  browser = await launch();
  staff = await createAdministrator('support', STAFF_NAME);
  for (const lang of LANGS)
    customers[lang] = await registerCustomer(`support-${lang}-${stamp}@e2e.local`, 'secret123', 'HK');
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('support: a chat answered from the staff console in real time', () => {
  it('what staff never ask for, the hours and the code check, in three languages at both sizes', {
    timeout: 120_000,
  }, async () => {
    for (const viewport of ['desktop', 'mobile'] as const satisfies readonly ViewportName[]) {
      const page = watch(
        await signedInPage(browser, {
          viewport,
          lang: 'en',
          token: customers.en,
          path: '/service',
          pageErrors,
        }),
        `service ${viewport}`,
      );
      for (const lang of LANGS) {
        await switchLang(page, lang);
        const safety = page.getByTestId('support-safety');
        await safety.waitFor();
        // Passwords, codes, transfers (and outside chat apps), each its own line.
        for (const rule of ['password', 'codes', 'transfers'])
          expect(await safety.locator(`[data-rule="${rule}"]`).count(), rule).toBe(1);
        await page.getByTestId('support-hours-text').waitFor();
        await page.getByTestId('support-verify').waitFor();
        await page.getByTestId('support-start').waitFor();
        await expectNoRawKeys(page, ['support', 'common']);
        if (lang !== 'en') expect(await englishTexts(page), `/service in ${lang}`).toEqual([]);
        await noSideways(page, `/service ${viewport} ${lang}`);
        await screenshot(page, `support-service-${viewport}-${lang}`);
      }
      const title = await page.getByTestId('support-safety').textContent();
      expect(title).toMatch(/绝不|絕不|never/);
      await page.context().close();
    }
    // The statement is the server's too.
    const info = await webData<{ safety?: unknown }>('GET', 'supportInfo', {}, null);
    expect(JSON.stringify(info)).toMatch(/password/i);
  });

  it('the customer writes, the console shows it live, the staff answer arrives live with name and code, the code checks out', {
    timeout: 180_000,
  }, async () => {
    // Staff: the back office's login screen with TOTP enrolment, then the support console.
    const staffErrors: string[] = [];
    const { context: staffContext, page: console_ } = await adminPage(
      browser,
      'desktop',
      'en',
      null,
      staffErrors,
    );
    watch(console_, 'support console');
    await console_.goto('/admin/support');
    await console_.waitForURL(/\/admin\/login$/);
    await staffEnrolmentLogIn(console_, staff);
    await console_.waitForURL((url) => url.pathname !== '/admin/login');
    if (new URL(console_.url()).pathname !== '/admin/support') await console_.goto('/admin/support');
    await console_.getByTestId('support-console').waitFor();
    const myCode = console_.getByTestId('support-my-code');
    await myCode.waitFor();
    const code = (await myCode.textContent())?.match(/BS-[A-Z0-9]{6}/)?.[0] ?? '';
    expect(code).not.toBe('');
    expect(await myCode.textContent()).toContain(STAFF_NAME);
    const staffNavs = navigations(console_);
    const staffLoads = staffNavs.count();

    // The customer, on a phone in Simplified Chinese.
    const customer = watch(
      await signedInPage(browser, { viewport: 'mobile', lang: 'zh', token: customers.zh, pageErrors }),
      'service zh',
    );
    const frames = socketFrames(customer);
    await customer.goto('/service');
    await customer.getByTestId('support-start').waitFor();
    const subject = `提现未到账 ${stamp}`;
    await customer.getByTestId('support-subject').fill(subject);
    await customer.getByTestId('support-body').fill('我昨天提现了 200 USDT，现在还没有到账，请帮忙查一下。');
    await screenshot(customer, 'support-start-mobile-zh');
    await customer.getByTestId('support-start-submit').click();
    const conversation = customer.getByTestId('support-conversation');
    await conversation.waitFor();
    const id = (await conversation.getAttribute('data-id')) ?? '';
    expect(id).toMatch(/^sup_/);
    const customerNavs = navigations(customer);
    await screenshot(customer, 'support-started-mobile-zh');

    // The console's unassigned queue shows it without a reload (it polls).
    const row = console_.locator(`[data-testid="support-queue-row"][data-id="${id}"]`);
    await row.waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toContain(subject);
    await row.click();
    const pane = console_.getByTestId('support-admin-conversation');
    await pane.waitFor();
    await expect
      .poll(() => pane.locator('[data-testid="support-admin-message"][data-from="customer"]').count())
      .toBe(1);

    // The customer writes again; the open conversation in the console follows.
    await customer.getByTestId('support-input').fill('提现单号是 W20261127001。');
    await customer.getByTestId('support-send').click();
    await expect
      .poll(() => pane.locator('[data-testid="support-admin-message"][data-from="customer"]').count(), {
        timeout: 20_000,
      })
      .toBe(2);
    await expect.poll(() => pane.textContent()).toContain('W20261127001');
    expect(staffNavs.count(), 'the console reloaded').toBe(staffLoads);
    await screenshot(console_, 'support-console-desktop-en');

    // Staff answer; the customer sees it live, signed with the name and the staff code.
    const answer = '您好，提现已在处理中，预计一小时内到账。我们不会向您索取密码或验证码。';
    await console_.getByTestId('support-reply-input').fill(answer);
    await console_.getByTestId('support-reply').click();
    await expect
      .poll(() => pane.locator('[data-testid="support-admin-message"][data-from="staff"]').count())
      .toBe(1);
    await expect
      .poll(() => console_.getByTestId('support-admin-status').getAttribute('data-status'))
      .toBe('pending');
    await screenshot(console_, 'support-console-replied-desktop-en');

    const reply = customer.locator('[data-testid="support-message"][data-from="staff"]');
    await reply.waitFor({ timeout: 15_000 });
    expect(await reply.textContent()).toContain(answer);
    const signed = (await reply.getByTestId('support-staff-id').textContent()) ?? '';
    expect(signed).toContain(STAFF_NAME);
    expect(signed).toContain(code);
    expect(customerNavs.count(), 'the customer page reloaded').toBe(0);
    expect(frames.some((f) => f.includes('support_private:') && f.includes(answer))).toBe(true);
    await expect
      .poll(() => customer.getByTestId('support-status').getAttribute('data-status'))
      .toBe('pending');
    await reply.scrollIntoViewIfNeeded();
    await screenshot(customer, 'support-answer-mobile-zh');

    // The customer checks the code in the app: a current staff member, by name; a made-up one is not.
    const check = customer.getByTestId('support-verify');
    await check.scrollIntoViewIfNeeded();
    await customer.getByTestId('support-verify-input').fill(code);
    await customer.getByTestId('support-verify-button').click();
    const result = customer.getByTestId('support-verify-result');
    await expect.poll(() => result.getAttribute('data-valid')).toBe('1');
    expect(await result.textContent()).toContain(STAFF_NAME);
    await screenshot(customer, 'support-verified-mobile-zh');
    await customer.getByTestId('support-verify-input').fill('BS-ZZZZZZ');
    await customer.getByTestId('support-verify-button').click();
    await expect.poll(() => result.getAttribute('data-valid')).toBe('0');
    await screenshot(customer, 'support-verify-refused-mobile-zh');
    const api = await webCall<{ valid: boolean; name?: string }>('GET', 'verifyStaff', { code }, null);
    expect(api.data).toMatchObject({ valid: true, name: STAFF_NAME });

    // The customer answers back: the conversation is open again, and the console sees it.
    await customer.getByTestId('support-input').fill('好的，谢谢。');
    await customer.getByTestId('support-send').click();
    await expect.poll(() => customer.getByTestId('support-status').getAttribute('data-status')).toBe('open');
    await expect
      .poll(() => pane.locator('[data-testid="support-admin-message"][data-from="customer"]').count(), {
        timeout: 20_000,
      })
      .toBe(3);
    expect(staffErrors).toEqual([]);
    await staffContext.close();
    await customer.context().close();
  });

  it('a desktop customer in Traditional Chinese gets a live answer as well', {
    timeout: 120_000,
  }, async () => {
    const customer = watch(
      await signedInPage(browser, { viewport: 'desktop', lang: 'ft', token: customers.ft, pageErrors }),
      'service ft',
    );
    const navs = navigations(customer);
    await customer.goto('/service');
    await customer.getByTestId('support-subject').fill(`帳戶問題 ${stamp}`);
    await customer.getByTestId('support-body').fill('請問如何修改綁定的電郵？');
    await customer.getByTestId('support-start-submit').click();
    const conversation = customer.getByTestId('support-conversation');
    await conversation.waitFor();
    const id = (await conversation.getAttribute('data-id')) ?? '';
    const loads = navs.count();
    // A second staff member answers (through the console's own call: the screen was shown above).
    const second = await staffApiToken(await createAdministrator('support2', 'Lee Ka Wai'));
    const answered = await staffCall(
      'POST',
      `support/conversations/${id}/reply`,
      { body: '您好，請到「設定」頁面修改綁定的電郵。' },
      second,
    );
    expect(answered.code, answered.msg).toBe(1);
    const reply = customer.locator('[data-testid="support-message"][data-from="staff"]');
    await reply.waitFor({ timeout: 15_000 });
    expect(await reply.getByTestId('support-staff-id').textContent()).toContain('Lee Ka Wai');
    expect(navs.count(), 'reloaded').toBe(loads);
    await screenshot(customer, 'support-answer-desktop-ft');
    await customer.context().close();
  });

  it('raised no page error and logged no console error', () => {
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
