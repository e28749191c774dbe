import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdministrator,
  registerCustomer,
  sql,
  staffApiToken,
  staffCall,
  webCall,
  webData,
} from './api.ts';
import {
  LANGS,
  launch,
  outboxCode,
  screenshot,
  signedInPage,
  switchLang,
  type ViewportName,
  visit,
} from './browser.ts';
import { englishTexts, expectNoRawKeys } from './pages.ts';

/**
 * The profile and security centre in Chromium: bind a phone, change the e-mail with a code to the
 * old and one to the new address (codes read from the outbox, as the customer would read them),
 * security questions, the anti-phishing phrase seen in the next message, signed-in devices with
 * revoke, the security score; every screen in three languages at 1920×1080 and 390×844.
 */
const NAMESPACES = [
  'profile',
  'centre',
  'account',
  'username',
  'contact',
  'verify',
  'questions',
  'phrase',
  'devices',
];
const PASSWORD = 'secret123';
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

function uniqueEmail(tag: string): string {
  return `e2e-profile-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/** A Hong Kong mobile number no one has yet, in E.164: 96xxxxxx is a mobile range libphonenumber accepts. */
function freshPhone(): string {
  return `+85296${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`;
}

/** The newest message the outbox holds for a recipient (subject and body), straight from the database. */
async function lastMessage(recipient: string): Promise<{ subject: string; body: string }> {
  const [row] = await sql<{ subject: string; body: string }>(
    'select subject, body from notify_outbox where recipient = $1 order by created_at desc, id desc limit 1',
    [recipient],
  );
  if (!row) throw new Error(`no message to ${recipient}`);
  return row;
}

/** Enters a code into the six boxes of one code field, box by box (a box already filled is replaced). */
async function typeCode(page: Page, testId: string, code: string): Promise<void> {
  const boxes = page.getByTestId(`${testId}-input`).locator('input');
  await expect.poll(() => boxes.count()).toBe(6);
  for (const [i, digit] of [...code].entries()) await boxes.nth(i).fill(digit);
}

type Center = {
  score: number;
  next: { key: string } | null;
  phone: string;
  email: string;
  questions_set: boolean;
  phrase: string;
};

describe('profile and security centre in a real browser', () => {
  it('binds a phone, changes the e-mail with two codes, sets questions and phrase, revokes a device (en, desktop)', async () => {
    const email = uniqueEmail('en');
    const token = await registerCustomer(email, PASSWORD);
    const errors: string[] = [];
    const page = await signedInPage(browser, {
      viewport: 'desktop',
      lang: 'en',
      token,
      path: '/setting',
      pageErrors: errors,
    });

    // The score of a fresh e-mail customer: login password and e-mail, 20 of 100; next: Google authenticator.
    await page.getByTestId('security-score').waitFor();
    await poll(() => page.getByTestId('security-score-value').textContent()).toBe('20');
    expect(await page.getByTestId('security-next').getAttribute('data-key')).toBe('google');
    expect(await page.getByTestId('security-item-phone').getAttribute('data-done')).toBe('0');
    await screenshot(page, 'profile-setting-fresh-desktop-en');

    // Bind a phone: one code, to the new phone.
    const phone = freshPhone();
    await page.getByTestId('profile-row-phone').click();
    await page.getByTestId('contact-page-phone').waitFor();
    await page.getByTestId('contact-phone').fill(phone);
    await screenshot(page, 'profile-mobile-desktop-en');
    await page.getByTestId('contact-submit').click();
    await page.waitForURL('**/verificationCode');
    await page.getByTestId('verify-new').waitFor();
    expect(await page.getByTestId('verify-old').count()).toBe(0);
    expect(await page.getByTestId('verify-new-resend').getAttribute('data-seconds-left')).toMatch(/^\d+$/);
    await typeCode(page, 'verify-new', await outboxCode(phone));
    await screenshot(page, 'profile-verification-phone-desktop-en');
    await page.getByTestId('verify-submit').click();
    await page.getByTestId('verify-done').waitFor();
    expect((await webData<Center>('GET', 'securityCenter', {}, token)).phone).toBe(phone);

    // Change the e-mail: a code to the current address and one to the new one; a wrong one is named.
    const next = uniqueEmail('en-new');
    await page.goto('/email');
    await page.getByTestId('contact-current').waitFor();
    await page.getByTestId('contact-email').fill(next);
    await page.getByTestId('contact-submit').click();
    await page.waitForURL('**/verificationCode');
    await page.getByTestId('verify-old').waitFor();
    const oldCode = await outboxCode(email);
    const newCode = await outboxCode(next);
    await typeCode(page, 'verify-old', oldCode === '000000' ? '000001' : '000000');
    await typeCode(page, 'verify-new', newCode);
    await page.getByTestId('verify-submit').click();
    await poll(() => page.getByTestId('verify-old').textContent()).toContain('wrong');
    await screenshot(page, 'profile-verification-change-refused-desktop-en');
    await typeCode(page, 'verify-old', oldCode);
    await page.getByTestId('verify-submit').click();
    await page.getByTestId('verify-done').waitFor();
    // The new address signs in; the old one no longer does; the old one was told.
    expect((await webCall('POST', 'userLogin', { account: next, password: PASSWORD }, null)).code).toBe(1);
    expect((await webCall('POST', 'userLogin', { account: email, password: PASSWORD }, null)).code).toBe(0);
    expect((await lastMessage(email)).subject).toBe('Your Bourse e-mail address was changed');

    // Security questions, from the security centre.
    await page.goto('/setting');
    await page.getByTestId('profile-row-questions').click();
    await page.getByTestId('questions-answer1').fill('Alice Smith');
    await page.getByTestId('questions-answer2').fill('Madonna');
    await page.getByTestId('questions-answer3').fill('Kyoto');
    await page.getByTestId('questions-password').fill(PASSWORD);
    await screenshot(page, 'profile-questions-desktop-en');
    await page.getByTestId('questions-submit').click();
    await page.getByTestId('questions-done').waitFor();
    await page.keyboard.press('Escape');

    // The anti-phishing phrase: the confirmation and the next message carry it.
    await page.getByTestId('profile-row-phrase').click();
    await page.getByTestId('phrase-input').fill('Blue heron');
    await page.getByTestId('phrase-password').fill(PASSWORD);
    await page.getByTestId('phrase-submit').click();
    await page.getByTestId('phrase-done').waitFor();
    await page.keyboard.press('Escape');
    expect((await lastMessage(next)).subject).toMatch(/^\[Blue heron\] /);
    const sent = await webCall('GET', 'getCode', { account: next, scene: 'login' }, null);
    expect(sent.code).toBe(1);
    const message = await lastMessage(next);
    expect(message.subject).toBe('[Blue heron] Your Bourse verification code');
    expect(message.body.split('\n')[0]).toBe('[Blue heron]');

    // Support sees the same in the back office's outbox, and checks a security answer (match / no match).
    const support = await staffApiToken(
      await createAdministrator('e2e-profile-support', 'Support', ['support']),
    );
    const outbox = await staffCall<{ list: Array<{ recipient: string; subject: string }> }>(
      'GET',
      'getOutbox',
      { limit: '50' },
      support,
    );
    expect(outbox.data.list.find((m) => m.recipient === next)?.subject).toBe(
      '[Blue heron] Your Bourse verification code',
    );
    const found = await staffCall<{ list: Array<{ customer_id: string }> }>(
      'GET',
      'searchCustomers',
      { q: next },
      support,
    );
    const customerId = found.data.list[0]?.customer_id ?? '';
    const check = (answer: string) =>
      staffCall<{ match: boolean }>(
        'POST',
        'checkSecurityAnswer',
        { customer_id: customerId, question: '2', answer, reason: 'e2e: caller confirms identity' },
        support,
      );
    expect((await check('  MADONNA ')).data.match).toBe(true);
    expect((await check('Prince')).data.match).toBe(false);

    // Devices: another session appears; signing it out ends it.
    const other = await webData<{ token: string }>(
      'POST',
      'userLogin',
      { account: next, password: PASSWORD },
      null,
    );
    await page.reload();
    // This session, the sign-in that checked the new address above, and `other` (newest, listed first after this one).
    await poll(() => page.getByTestId('device-row').count()).toBe(3);
    expect(await page.locator('[data-testid="device-row"][data-current="1"]').count()).toBe(1);
    await page.getByTestId('devices-card').scrollIntoViewIfNeeded();
    await screenshot(page, 'profile-devices-desktop-en');
    await page
      .locator('[data-testid="device-row"][data-current="0"]')
      .first()
      .getByTestId('device-revoke')
      .click();
    await page.getByTestId('devices-done').waitFor();
    await poll(() => page.getByTestId('device-row').count()).toBe(2);
    expect((await webCall('GET', 'info', {}, other.token)).code).toBe(1000);

    // The score now counts phone, e-mail, questions and phrase: 50; next still Google authenticator.
    await page.evaluate(() => window.scrollTo(0, 0));
    await poll(() => page.getByTestId('security-score-value').textContent()).toBe('50');
    for (const key of ['phone', 'email', 'questions', 'phrase']) {
      expect(await page.getByTestId(`security-item-${key}`).getAttribute('data-done')).toBe('1');
    }
    await screenshot(page, 'profile-setting-after-desktop-en');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('an e-mail customer binds a phone, sets questions and signs out other devices (zh, phone size)', async () => {
    const email = uniqueEmail('zh-base');
    const token = await registerCustomer(email, PASSWORD);
    await webData('POST', 'userLogin', { account: email, password: PASSWORD }, null);
    const page = await signedInPage(browser, { viewport: 'mobile', lang: 'zh', token, path: '/mobile' });
    const phone = freshPhone();
    await page.getByTestId('contact-phone').fill(phone);
    await page.getByTestId('contact-submit').click();
    await page.waitForURL('**/verificationCode');
    await typeCode(page, 'verify-new', await outboxCode(phone));
    await screenshot(page, 'profile-verification-mobile-zh');
    await page.getByTestId('verify-submit').click();
    await page.getByTestId('verify-done').waitFor();
    expect(await englishTexts(page)).toEqual([]);

    await page.goto('/setting?panel=questions');
    await page.getByTestId('questions-answer1').fill('小明');
    await page.getByTestId('questions-answer2').fill('李小龙');
    await page.getByTestId('questions-answer3').fill('京都');
    await page.getByTestId('questions-password').fill(PASSWORD);
    await screenshot(page, 'profile-questions-mobile-zh');
    await page.getByTestId('questions-submit').click();
    await page.getByTestId('questions-done').waitFor();
    await page.goto('/setting');
    await page.getByTestId('devices-revoke-others').click();
    await page.getByTestId('devices-done').waitFor();
    await poll(() => page.getByTestId('device-row').count()).toBe(1);
    await expectNoRawKeys(page, NAMESPACES);
    expect(await englishTexts(page)).toEqual([]);
    const center = await webData<Center>('GET', 'securityCenter', {}, token);
    expect(center).toMatchObject({ phone, questions_set: true, score: 40 });
    await page.context().close();
  }, 120_000);

  // One customer and profile per size: each screen is reached as a link would reach it and shown in
  // en, zh and ft in turn (the language switched in place), with a screenshot of each.
  for (const viewport of ['desktop', 'mobile'] as const satisfies readonly ViewportName[]) {
    it(`screens at ${viewport} in en, zh and ft`, async () => {
      const token = await registerCustomer(uniqueEmail(viewport), PASSWORD);
      // A phrase that reads the same in every language checked for English words.
      await webData('POST', 'setAntiPhishing', { password: PASSWORD, phrase: '青色苹果' }, token);
      const errors: string[] = [];
      const page = await signedInPage(browser, {
        viewport,
        lang: 'en',
        token,
        path: '/setting',
        pageErrors: errors,
      });
      /** The screen in `lang` (switchLang waited for the re-render): no raw keys, no English words (zh, ft), a screenshot. */
      const check = async (lang: (typeof LANGS)[number], name: string) => {
        await expectNoRawKeys(page, NAMESPACES);
        if (lang !== 'en')
          await expect
            .poll(() => englishTexts(page), { message: `${name} in ${lang} ${viewport}` })
            .toEqual([]);
        await screenshot(page, `${name}-${viewport}-${lang}`);
      };
      for (const lang of LANGS) {
        await switchLang(page, lang);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.getByTestId('security-score').waitFor();
        await page.getByTestId('device-row').first().waitFor();
        await check(lang, 'profile-setting');
        await page.getByTestId('devices-card').scrollIntoViewIfNeeded();
        await screenshot(page, `profile-setting-devices-${viewport}-${lang}`);
      }
      await visit(page, '/setting?panel=phrase');
      for (const lang of LANGS) {
        await switchLang(page, lang);
        await page.getByTestId('phrase-input').waitFor();
        await check(lang, 'profile-phrase');
      }
      const screens = {
        '/username': 'username-input',
        '/mobile': 'contact-phone',
        '/email': 'contact-email',
        '/editPassword': 'change-old-password',
        '/verificationCode': 'verify-none',
      } as const;
      for (const [route, ready] of Object.entries(screens)) {
        await visit(page, route);
        for (const lang of LANGS) {
          await switchLang(page, lang);
          await page.getByTestId(ready).waitFor();
          await check(lang, `profile${route.replace('/', '-')}`);
        }
      }
      expect(errors).toEqual([]);
      await page.context().close();
    }, 180_000);
  }
});
