import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPage, createAdministrator, demoToken, staffApiToken, webCall, webData } from './api.ts';
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

/**
 * Desktop at full width, tables that fit, a phone layout in reach (issue 13, item 7). A demo customer
 * with pending spot orders and open contract positions opens home, market, the spot and contract
 * trade views, assets and records at 1920×1080, 1280×800 and 390×844 in every language:
 *
 * - no page scrolls sideways, at any size;
 * - from 1280 px no table scrolls sideways inside its container either;
 * - at 1920 px the content uses the width (more than 1,700 px);
 * - on the phone the trade actions sit in the lower half of the screen (the thumb's reach), and the
 *   tab bar is there.
 *
 * Every view is saved to e2e/screenshots/layout-<screen>-<viewport>-<lang>.png to be looked at.
 */
const SPOT = 'BTC/USDT';
const PERP = 'BTC/USDT-PERP';
let browser: Browser;
let token = '';
let staffToken = '';

const SCREENS = [
  { name: 'home', path: '/', ready: '[data-testid="home-page"]' },
  { name: 'market', path: '/market', ready: '[data-testid="market-row"]' },
  {
    name: 'spot',
    path: `/currencyTrade?symbol=${encodeURIComponent(SPOT)}`,
    ready: '[data-testid="order-entry"]',
  },
  {
    name: 'contract',
    path: `/preciousMetal?symbol=${encodeURIComponent(PERP)}`,
    ready: '[data-testid="contract-view"]',
  },
  { name: 'assets', path: '/table1', ready: '[data-testid="assets-overview"]' },
  { name: 'records', path: '/record', ready: '[data-testid="records-filter-type"]' },
] as const;

/** Elements inside the main area that scroll sideways and hold a table: what the reader would have to drag. */
async function sidewaysTables(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const table of document.querySelectorAll('main table')) {
      if (!(table instanceof HTMLElement) || table.offsetParent === null) continue;
      for (
        let el: HTMLElement | null = table.parentElement;
        el && el.tagName !== 'MAIN';
        el = el.parentElement
      ) {
        const overflow = getComputedStyle(el).overflowX;
        if ((overflow === 'auto' || overflow === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
          const id =
            table.getAttribute('data-testid') ?? table.closest('[data-testid]')?.getAttribute('data-testid');
          found.push(`${id ?? 'table'}: ${el.scrollWidth} > ${el.clientWidth}`);
          break;
        }
      }
    }
    return found;
  });
}

async function settle(page: Page, ready: string, requests: { quiet(): Promise<void> }): Promise<void> {
  await page.locator(ready).first().waitFor({ timeout: 20_000 });
  await requests.quiet();
  // Live data and lazy fonts settle the layout.
  await page.waitForTimeout(600);
}

/** "en", "en and zh", "en, zh and ft". */
function langList(langs: readonly string[]): string {
  return langs.length < 2 ? (langs[0] ?? '') : `${langs.slice(0, -1).join(', ')} and ${langs.at(-1)}`;
}

beforeAll(async () => {
  browser = await launch();
  token = await demoToken();
  staffToken = await staffApiToken(await createAdministrator('layout', 'Layout e2e'));
  const call = (method: 'GET' | 'POST', name: string, params: Record<string, string> = {}) =>
    webData<Record<string, unknown>>(method, name, params, token);
  // Two pending spot orders far under the market (they stay open).
  for (const n of [1, 2]) {
    const placed = await webCall<{ status: string }>(
      'POST',
      'createOrder',
      {
        symbol: SPOT,
        side: 'buy',
        type: 'limit',
        price: '1000',
        quantity: '0.05',
        client_oid: `layout-${n}-${Date.now()}`,
      },
      token,
    );
    expect(placed.code, placed.msg).toBe(1);
  }
  // Contract positions on both sides.
  await call('POST', 'transferAsset', { currency: 'USDT', amount: '20000', from: 'spot', to: 'contract' });
  const contracts = await call('GET', 'getContracts', { symbol: PERP });
  const perp = (contracts.items as { min_lots: string }[])[0];
  if (!perp) throw new Error(`${PERP} is not offered`);
  for (const side of ['buy', 'sell']) {
    const opened = await webCall(
      'POST',
      'openContract',
      { symbol: PERP, side, lots: perp.min_lots, leverage: '5' },
      token,
    );
    expect(opened.code, opened.msg).toBe(1);
  }
});

afterAll(async () => {
  await browser?.close();
});

/**
 * Which languages each size is checked in. 1280 px is where a table would first overflow, so every
 * language is checked there; at 1920 and 390 px English (the longest texts) and one Chinese script —
 * the feature files already screenshot every screen in all three languages at those two sizes.
 */
const CUSTOMER_RUNS = {
  desktop: ['en', 'zh'],
  laptop: LANGS,
  mobile: ['en', 'ft'],
} as const satisfies Record<string, readonly (typeof LANGS)[number][]>;
const STAFF_RUNS = {
  desktop: ['en'],
  laptop: LANGS,
} as const satisfies Record<string, readonly (typeof LANGS)[number][]>;

describe('layout at 1920, 1280 and 390 px', () => {
  // One profile per size: each screen is reached as a link would reach it and checked in each of the
  // size's languages in turn (the language switched in place).
  for (const viewport of ['desktop', 'laptop', 'mobile'] as const satisfies readonly ViewportName[]) {
    const langs = CUSTOMER_RUNS[viewport];
    it(`${viewport} in ${langList(langs)}: no sideways scrolling, full width, actions in reach`, {
      timeout: 180_000,
    }, async () => {
      const { context, page } = await newPage(browser, { viewport, lang: langs[0] });
      await context.addInitScript({
        content: `localStorage.setItem('bourse.token', ${JSON.stringify(token)});`,
      });
      const requests = trackRequests(page);
      const problems: string[] = [];
      for (const [i, screen] of SCREENS.entries()) {
        if (i === 0) await page.goto(screen.path);
        else await visit(page, screen.path);
        for (const lang of langs) {
          await switchLang(page, lang);
          await page.evaluate(() => window.scrollTo(0, 0));
          await settle(page, screen.ready, requests);
          const where = `${screen.name} (${lang})`;
          await screenshot(page, `layout-${screen.name}-${viewport}-${lang}`);
          if (screen.name === 'contract' || screen.name === 'spot') {
            // The order tables sit under the fold: a second picture of them.
            await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
            await page.waitForTimeout(200);
            await screenshot(page, `layout-${screen.name}-tables-${viewport}-${lang}`);
          }
          const doc = await page.evaluate(() => ({
            scroll: document.documentElement.scrollWidth,
            client: document.documentElement.clientWidth,
          }));
          if (doc.scroll > doc.client + 1) problems.push(`${where}: page ${doc.scroll} > ${doc.client}`);
          if (viewport !== 'mobile') {
            for (const table of await sidewaysTables(page)) problems.push(`${where}: ${table}`);
          }
          if (viewport === 'desktop') {
            const width = await page.evaluate(
              () => document.querySelector('#main > div')?.getBoundingClientRect().width ?? 0,
            );
            if (width <= 1700) problems.push(`${where}: content ${width} px wide at 1920`);
          }
          if (viewport === 'mobile') {
            const { height } = VIEWPORTS.mobile;
            const tabs = await page.locator('nav [data-testid="tab-trade"]:visible').count();
            if (tabs === 0) problems.push(`${where}: no tab bar`);
            if (screen.name === 'contract') {
              const buy = await page.getByTestId('phone-buy').boundingBox();
              if (!buy || buy.y < height / 2 || buy.y + buy.height > height) {
                problems.push(`${where}: buy button at ${JSON.stringify(buy)}, not in the lower half`);
              }
            }
          }
        }
      }
      const errors = (page as Page & { errors: string[] }).errors;
      await context.close();
      expect(problems).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
});

/** The back office's queues and derivatives screens: tables fit beside the navigation from 1280 px. */
const ADMIN_SCREENS = [
  'deposits',
  'withdrawals',
  'adjustments',
  'customers',
  'outbox',
  'audit',
  'markets',
  'derivatives/contracts',
  'derivatives/options',
  'derivatives/exposure',
  'derivatives/positions',
  'derivatives/insurance',
] as const;

describe('back office at 1920 and 1280 px', () => {
  // One profile per size: each screen is reached as a link would reach it and checked in each of the
  // size's languages in turn (the language switched in place).
  for (const viewport of ['desktop', 'laptop'] as const satisfies readonly ViewportName[]) {
    const langs = STAFF_RUNS[viewport];
    it(`${viewport} in ${langList(langs)}: no table scrolls sideways`, { timeout: 180_000 }, async () => {
      const errors: string[] = [];
      const { context, page } = await adminPage(browser, viewport, langs[0], staffToken, errors);
      const requests = trackRequests(page);
      const problems: string[] = [];
      for (const [i, path] of ADMIN_SCREENS.entries()) {
        if (i === 0) await page.goto(`/admin/${path}`);
        else await visit(page, `/admin/${path}`);
        for (const lang of langs) {
          await switchLang(page, lang, 'admin');
          await page.locator('main').first().waitFor();
          await requests.quiet();
          await page.waitForTimeout(400);
          if (lang === 'en' || viewport === 'laptop') {
            await screenshot(page, `layout-admin-${path.replace('/', '-')}-${viewport}-${lang}`);
          }
          const doc = await page.evaluate(() => ({
            scroll: document.documentElement.scrollWidth,
            client: document.documentElement.clientWidth,
          }));
          if (doc.scroll > doc.client + 1)
            problems.push(`${path} (${lang}): page ${doc.scroll} > ${doc.client}`);
          for (const table of await sidewaysTables(page)) problems.push(`${path} (${lang}): ${table}`);
        }
      }
      await context.close();
      expect(problems).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
});
