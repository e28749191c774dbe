import fs from 'node:fs';
import path from 'node:path';
import { LOCALE_OF } from '@bourse/protocol';
import pg from 'pg';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const VIEWPORTS = {
  desktop: { width: 1920, height: 1080 },
  /** The narrowest desktop the layout is built for: tables must fit without scrolling sideways. */
  laptop: { width: 1280, height: 800 },
  mobile: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;
export const LANGS = ['en', 'zh', 'ft'] as const;

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

export function baseUrl(): string {
  return inject('baseUrl');
}

/** A fresh browser profile at a viewport, with the language preset in storage when given. */
export async function newPage(
  browser: Browser,
  options: { viewport?: ViewportName; lang?: (typeof LANGS)[number] } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const viewport = VIEWPORTS[options.viewport ?? 'desktop'];
  const context = await browser.newContext({
    viewport,
    baseURL: baseUrl(),
    isMobile: options.viewport === 'mobile',
    hasTouch: options.viewport === 'mobile',
  });
  if (options.lang) {
    // Only on a first visit: a test that switches language must see its choice remembered.
    await context.addInitScript({
      content: `if (!localStorage.getItem('bourse.lang')) localStorage.setItem('bourse.lang', ${JSON.stringify(options.lang)});`,
    });
  }
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  (page as Page & { errors: string[] }).errors = errors;
  return { context, page };
}

/**
 * A fresh browser profile at a viewport and language, logged in as the customer whose session
 * `token` is given, opened at `path` when given; page errors also go into `pageErrors` when given.
 */
export async function signedInPage(
  browser: Browser,
  options: {
    viewport: ViewportName;
    lang: (typeof LANGS)[number];
    token: string;
    path?: string;
    pageErrors?: string[];
  },
): Promise<Page> {
  const { context, page } = await newPage(browser, { viewport: options.viewport, lang: options.lang });
  await context.addInitScript({
    content: `localStorage.setItem('bourse.token', ${JSON.stringify(options.token)});`,
  });
  const { pageErrors } = options;
  if (pageErrors) page.on('pageerror', (error) => pageErrors.push(String(error)));
  if (options.path !== undefined) await page.goto(options.path);
  return page;
}

/**
 * Counts the page's requests in flight (sockets aside); `quiet` then waits until none has been in
 * flight for half a second (up to 10 s): after a move inside the app there is no load to wait for.
 */
export function trackRequests(page: Page): { quiet(): Promise<void> } {
  let inFlight = 0;
  let lastChange = Date.now();
  const change = (by: number) => {
    inFlight = Math.max(0, inFlight + by);
    lastChange = Date.now();
  };
  page.on('request', () => change(1));
  page.on('requestfinished', () => change(-1));
  page.on('requestfailed', () => change(-1));
  return {
    async quiet() {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && (inFlight > 0 || Date.now() - lastChange < 500)) {
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

/**
 * Switches the app on `page` to `lang` in place, as a choice made in another tab would (both apps
 * follow the `storage` event of their remembered language), and waits until the app has re-rendered in it.
 * A tour of screens in three languages then loads each screen once, not once per language.
 */
export async function switchLang(
  page: Page,
  lang: (typeof LANGS)[number],
  app: 'web' | 'admin' = 'web',
): Promise<void> {
  const key = app === 'web' ? 'bourse.lang' : 'bourse.admin.lang';
  await page.evaluate(
    ([key, lang]) => {
      localStorage.setItem(key, lang);
      window.dispatchEvent(new StorageEvent('storage', { key, newValue: lang, storageArea: localStorage }));
    },
    [key, lang] as const,
  );
  // Re-rendered: the document's language, and the apps' language controls (the customer header's
  // menu, the back office's switch) carry the new one in `data-lang`.
  await page.waitForFunction(
    ([lang, locale]) =>
      document.documentElement.lang === locale &&
      [...document.querySelectorAll('[data-testid="lang-menu"],[data-testid="lang-switch"]')].every(
        (e) => e.getAttribute('data-lang') === lang,
      ),
    [lang, LOCALE_OF[lang]] as const,
  );
  // Screens without either control: two animation frames let the switch's render commit.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * Goes to `path` inside the loaded app, as a link would (history entry and React Router's popstate),
 * without loading the page again; then waits for the address to change. The caller waits for the
 * screen's own ready marker.
 */
export async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
  const target = new URL(path, 'http://x');
  await page.waitForFunction(
    ([pathname, search]) => window.location.pathname === pathname && window.location.search === search,
    [target.pathname, target.search] as const,
  );
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** Reads the last verification code the outbox holds for a recipient, straight from the database. */
export async function outboxCode(recipient: string): Promise<string> {
  const client = new pg.Client({ connectionString: inject('pgUrl') });
  await client.connect();
  try {
    for (let i = 0; i < 50; i++) {
      const result = await client.query<{ body: string }>(
        'select body from notify_outbox where recipient = $1 order by created_at desc, id desc limit 1',
        [recipient],
      );
      const code = result.rows[0]?.body.match(/\b(\d{6})\b/)?.[1];
      if (code) return code;
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await client.end();
  }
  throw new Error(`no code in the outbox for ${recipient}`);
}
