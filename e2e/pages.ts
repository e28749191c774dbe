import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { outboxCode } from './browser.ts';

/** Page objects: what a customer does, by the app's data-testids. */
export class LoginPage {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  async open(): Promise<void> {
    await this.page.goto('/login');
    await this.page.getByTestId('login-page').waitFor();
  }

  async logIn(account: string, password: string): Promise<void> {
    await this.page.getByTestId('login-tab-password').click();
    await this.page.getByTestId('login-account').fill(account);
    await this.page.getByTestId('login-password').fill(password);
    await this.page.getByTestId('login-submit').click();
  }

  async error(): Promise<string> {
    const error = this.page.getByTestId('login-error');
    await error.waitFor();
    return (await error.textContent())?.trim() ?? '';
  }

  async createDemo(): Promise<void> {
    await this.page.getByTestId('demo-create').click();
  }
}

export class RegisterPage {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  async open(): Promise<void> {
    await this.page.goto('/register');
    await this.page.getByTestId('register-page').waitFor();
  }

  /** On the e-mail tab, with the nationality chosen by its English name (Singapore unless told). */
  async registerByEmail(email: string, password: string, country = 'Singapore'): Promise<void> {
    await this.page.getByTestId('register-tab-email').click();
    const select = this.page.getByTestId('register-country');
    await select.click();
    await select.fill(country);
    await this.page.getByRole('option', { name: new RegExp(`^${country} \\+\\d+$`) }).click();
    await this.page.getByTestId('register-email').fill(email);
    await this.page.getByTestId('get-code').click();
    await this.page.locator('[data-testid="get-code"][data-seconds-left]').waitFor();
    await this.page.getByTestId('register-code').fill(await outboxCode(email));
    await this.page.getByTestId('register-password').fill(password);
    await this.page.getByTestId('register-password2').fill(password);
    await this.page.getByTestId('register-agree').check();
    await this.page.getByTestId('register-submit').click();
  }
}

/**
 * The back-office login screen at a first login: e-mail and password, then TOTP enrolment with the
 * code computed from the secret the screen shows (which must look like one), then submit.
 */
export async function staffEnrolmentLogIn(
  page: Page,
  staff: { email: string; password: string },
): Promise<void> {
  await page.getByTestId('login-email').fill(staff.email);
  await page.getByTestId('login-password').fill(staff.password);
  await page.getByTestId('login-next').click();
  const secret = (await page.getByTestId('enrol-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await page.locator('[data-testid="login-code"] input').first().click();
  await page.keyboard.type(await generate({ secret }), { delay: 30 });
  await page.getByTestId('login-submit').click();
}

export class Shell {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  async switchLanguage(lang: 'en' | 'zh' | 'ft'): Promise<void> {
    await this.page.getByTestId('lang-menu').first().click();
    await this.page.getByTestId(`lang-option-${lang}`).click();
    await this.page.waitForFunction(
      (l) => document.documentElement.lang.startsWith(l === 'en' ? 'en' : 'zh'),
      lang,
    );
  }

  async logOut(): Promise<void> {
    await this.page.goto('/setting');
    await this.page.getByTestId('logout').click();
  }

  /** Visible texts that still read as English words (see `englishTexts`). */
  async englishTexts(): Promise<string[]> {
    return englishTexts(this.page);
  }
}

/**
 * Visible texts (and input placeholders) that still read as English words, for the zh and ft
 * screens. Names that are the same in every language pass: the product's own, currency codes and
 * pairs (BTC, XAU/USD, BTC/USDT-PERP — case-sensitive, so English words in capitals do not), invitation
 * codes, e-mail and web addresses, numbers, and anything the app marks `translate="no"` (instrument
 * symbols and names, the chart library's name).
 */
export async function englishTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const allowed =
      /^(Bourse|English|ETFs?|UID|OK|PWA|EIP-4361|Ethereum|MetaMask|Google|E-?mail|SMS|ID|DEMO|K|TradingView|MA\(?\d*\)?|@?[\w.+-]+@[\w.-]+|https?:\/\/\S+|[\w.-]+\.(com|local|io)|[\d\s:.,/%+×≈→=−-]*)$/i;
    const codes = /^([2-9A-Z]{8}|[A-Z][A-Z0-9]{1,9}(\/[A-Z][A-Z0-9]{1,9})?(-[A-Z0-9]+)?)$/;
    const ok = (text: string) => allowed.test(text) || codes.test(text);
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const element = node.parentElement;
      if (!text || !element || element.closest('script,style,[aria-hidden="true"],[translate="no"]'))
        continue;
      const style = getComputedStyle(element);
      const rect = element.getBoundingClientRect();
      if (style.visibility === 'hidden' || style.display === 'none' || rect.width === 0 || rect.height === 0)
        continue;
      if (ok(text)) continue;
      const words = text
        .split(/[\s()（）·,，:：「」“”。、；！？]+/)
        .filter((w: string) => /[A-Za-z]{2,}/.test(w) && !ok(w));
      if (words.length > 0) out.push(text);
    }
    const placeholders = [...document.querySelectorAll('input[placeholder]')]
      .map((i) => i.getAttribute('placeholder') ?? '')
      .filter((text) => /[A-Za-z]{3,}/.test(text) && !ok(text));
    return [...out, ...placeholders];
  });
}

/**
 * Fails when the page's text shows a translation key of one of the catalogue `namespaces`
 * (`records.title`: a key the screen looked up and the catalogue lacks).
 */
export async function expectNoRawKeys(page: Page, namespaces: readonly string[]): Promise<void> {
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(new RegExp(`\\b(${namespaces.join('|')})\\.[a-z][A-Za-z]+\\b`));
}

/** The page is no wider than the screen (nothing scrolls sideways). */
export async function noSideways(page: Page, what: string): Promise<void> {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    `${what}: wider than the screen`,
  ).toBeLessThanOrEqual(1);
}

/** Counts the main frame's navigations after now: a live change must not need one. */
export function navigations(page: Page): { count: () => number } {
  let n = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) n += 1;
  });
  return { count: () => n };
}

/** Text frames the page's websockets receive from now on. */
export function socketFrames(page: Page): string[] {
  const frames: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framereceived', (frame) => {
      if (typeof frame.payload === 'string') frames.push(frame.payload);
    }),
  );
  return frames;
}
