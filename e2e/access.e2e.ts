import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webCall } from './api.ts';
import { LANGS, launch, newPage, screenshot, VIEWPORTS, type ViewportName } from './browser.ts';
import { LoginPage, RegisterPage, Shell } from './pages.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

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
    const shell = new Shell(page);
    await shell.logOut();
    await page.waitForFunction(() => !localStorage.getItem('bourse.token'));

    const login = new LoginPage(page);
    await login.open();
    await login.logIn('e2e-lock@example.com', 'rightpass1');
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await shell.logOut();
    await page.waitForFunction(() => !localStorage.getItem('bourse.token'));

    await login.open();
    await shell.switchLanguage('zh');
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

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    for (const lang of LANGS) {
      it(`${lang} at ${viewport}`, async () => {
        const { context, page } = await newPage(browser, { lang, viewport });
        for (const [name, path] of [
          ['login', '/login'],
          ['register', '/register'],
          ['home', '/'],
        ] as const) {
          await page.goto(path);
          await page.waitForLoadState('networkidle');
          await screenshot(page, `${name}-${lang}-${viewport}`);
        }
        await page.evaluate((t) => localStorage.setItem('bourse.token', t), token);
        await page.goto('/setting');
        await page.getByTestId('account-uid').waitFor();
        await page.waitForLoadState('networkidle');
        await screenshot(page, `setting-${lang}-${viewport}`);
        if (lang !== 'en') expect(await new Shell(page).englishTexts()).toEqual([]);
        await context.close();
      });
    }
  }
});
