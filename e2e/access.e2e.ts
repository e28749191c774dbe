import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webCall } from './api.ts';
import {
  LANGS,
  launch,
  newPage,
  screenshot,
  switchLang,
  trackRequests,
  VIEWPORTS,
  type ViewportName,
  visit,
} from './browser.ts';
import { englishTexts, LoginPage, RegisterPage, Shell } from './pages.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

/**
 * Logs out from /setting once the screen has settled. The button is shown at once, but the security
 * centre above it first shows a spinner and then its cards and devices, which push the button down:
 * a click made while they arrive (a loaded machine stretches the few steps of a click) can press on
 * the button and release elsewhere — no click, no log-out. Then waits until the token is gone.
 */
async function logOut(page: Page): Promise<void> {
  await page.goto('/setting');
  await page.getByTestId('security-score').waitFor();
  await page.getByTestId('device-row').first().waitFor();
  const button = page.getByTestId('logout');
  await expect
    .poll(async () => {
      const before = await button.boundingBox();
      await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
      return JSON.stringify(before) === JSON.stringify(await button.boundingBox());
    })
    .toBe(true);
  await button.click();
  await page.waitForFunction(() => !localStorage.getItem('bourse.token'));
}

describe('access in a real browser', () => {
  it('sends a visitor from a protected route to /login, and back there after registering', async () => {
    const { context, page } = await newPage(browser, { lang: 'en' });
    await page.goto('/table1');
    await page.waitForURL(/\/login$/);
    await new RegisterPage(page).open();
    await new RegisterPage(page).registerByEmail('e2e-register@example.com', 'secret123');
    await page.waitForURL((url) => !url.pathname.startsWith('/register'));
    await page.goto('/setting');
    await expect(page.getByTestId('account-uid').textContent()).resolves.toMatch(/\d{8}/);
    // The e-mail tab sent the form's country too (the RegisterPage helper picks Singapore): the nationality.
    const token = await page.evaluate(() => localStorage.getItem('bourse.token'));
    const info = await webCall<{ country: string }>('GET', 'info', {}, token);
    expect(info.data.country).toBe('SG');
    await expect(page.getByTestId('account-invite-link').textContent()).resolves.toContain(
      '/register?invite=',
    );
    expect((page as unknown as { errors: string[] }).errors).toEqual([]);
    await context.close();
  });

  it('logs out, logs in, refuses a wrong password in the chosen language, and locks out', async () => {
    const { context, page } = await newPage(browser, { lang: 'en' });
    const register = new RegisterPage(page);
    await register.open();
    await register.registerByEmail('e2e-lock@example.com', 'rightpass1');
    await page.waitForURL((url) => !url.pathname.startsWith('/register'));
    await logOut(page);

    const login = new LoginPage(page);
    await login.open();
    await login.logIn('e2e-lock@example.com', 'rightpass1');
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await logOut(page);

    await login.open();
    await new Shell(page).switchLanguage('zh');
    await login.logIn('e2e-lock@example.com', 'wrongpass1');
    expect(await login.error()).toContain('账户或密码错误');
    for (let i = 0; i < 3; i++) {
      await login.logIn('e2e-lock@example.com', 'wrongpass1');
      await page.waitForTimeout(100);
    }
    await login.logIn('e2e-lock@example.com', 'wrongpass1');
    await expect.poll(() => login.error(), { timeout: 10_000 }).toContain('锁定');
    await login.logIn('e2e-lock@example.com', 'rightpass1');
    await expect.poll(() => login.error(), { timeout: 10_000 }).toContain('锁定');
    await screenshot(page, 'login-locked-zh-desktop');
    await context.close();
  });

  it('creates a demo account from the login page', async () => {
    const { context, page } = await newPage(browser, { lang: 'en' });
    const login = new LoginPage(page);
    await login.open();
    await login.createDemo();
    await page.waitForFunction(() => Boolean(localStorage.getItem('bourse.token')));
    await page.goto('/setting');
    await page.getByTestId('account-demo-badge').waitFor();
    await expect(page.getByTestId('account-demo-expiry').textContent()).resolves.toMatch(/\d/);
    await screenshot(page, 'setting-demo-en-desktop');
    await context.close();
  });

  it('switching to zh and ft changes every visible text, and the choice is remembered', async () => {
    const { context, page } = await newPage(browser, { lang: 'en' });
    const shell = new Shell(page);
    for (const path of ['/login', '/register', '/', '/forgetpwd']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      for (const lang of ['zh', 'ft'] as const) {
        await shell.switchLanguage(lang);
        // Data fetched per language (the home's news) arrives after the switch: wait for it.
        await expect.poll(() => shell.englishTexts(), { message: `${path} in ${lang}` }).toEqual([]);
      }
      await shell.switchLanguage('en');
    }
    await shell.switchLanguage('ft');
    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => document.documentElement.lang)).toMatch(/^zh/);
    expect(await shell.englishTexts()).toEqual([]);
    await context.close();
  });
});

describe('screenshots of login, register, home and settings in three languages at two sizes', () => {
  let token = '';
  beforeAll(async () => {
    const { context, page } = await newPage(browser, { lang: 'en' });
    await new LoginPage(page).open();
    await new LoginPage(page).createDemo();
    await page.waitForFunction(() => Boolean(localStorage.getItem('bourse.token')));
    token = (await page.evaluate(() => localStorage.getItem('bourse.token'))) ?? '';
    await context.close();
  });

  // One profile per size: each screen is reached as a link would reach it and shown in en, zh and ft
  // in turn (the language switched in place), with a screenshot of each.
  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`en, zh and ft at ${viewport}`, { timeout: 180_000 }, async () => {
      // Each size loads in another language first: the language found at load is seen in all three.
      const first = ({ desktop: 'en', laptop: 'zh', mobile: 'ft' } as const)[viewport];
      const langs = [first, ...LANGS.filter((lang) => lang !== first)];
      const { context, page } = await newPage(browser, { lang: first, viewport });
      const requests = trackRequests(page);
      for (const [i, [name, path]] of (
        [
          ['login', '/login'],
          ['register', '/register'],
          ['home', '/'],
        ] as const
      ).entries()) {
        if (i === 0) await page.goto(path);
        else await visit(page, path);
        for (const lang of langs) {
          await switchLang(page, lang);
          await page.getByTestId(`${name}-page`).waitFor();
          // Content fetched per language (the home's news and banners) arrives after the switch.
          await requests.quiet();
          await screenshot(page, `${name}-${lang}-${viewport}`);
        }
      }
      await page.evaluate((t) => localStorage.setItem('bourse.token', t), token);
      await page.goto('/setting');
      for (const lang of langs) {
        await switchLang(page, lang);
        await page.getByTestId('account-uid').waitFor();
        await requests.quiet();
        if (lang !== 'en')
          await expect
            .poll(() => englishTexts(page), { message: `/setting in ${lang} ${viewport}` })
            .toEqual([]);
        await screenshot(page, `setting-${lang}-${viewport}`);
      }
      expect((page as unknown as { errors: string[] }).errors).toEqual([]);
      await context.close();
    });
  }
});
