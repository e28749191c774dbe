import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  baseUrl,
  LANGS,
  launch,
  newPage,
  screenshot,
  switchLang,
  type ViewportName,
  visit,
} from './browser.ts';
import { englishTexts, LoginPage } from './pages.ts';

/**
 * Market data in Chromium: live prices on /market and home, search and sort over a 3,000-instrument
 * catalogue imported into the running server, the K-line chart and its intervals, a stale feed shown
 * as stale, and screenshots of every market screen in three languages at desktop and mobile sizes.
 */
const repoRoot = path.resolve(import.meta.dirname, '..');
const IMPORTED = 3000;

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

type Errors = { errors: string[] };

async function api<T>(base: string, call: string, params: Record<string, string> = {}): Promise<T> {
  const query = new URLSearchParams({ ...params, rtoken: `e2e${Date.now().toString(36)}`.slice(0, 16) });
  const response = await fetch(`${base}/api/web/${call}?${query}`);
  const body = (await response.json()) as { code: number; data: T; msg: string };
  if (body.code !== 1) throw new Error(`${call}: ${body.msg}`);
  return body.data;
}

/** /preciousMetal, /ldcoin and /info need a login (spec 2's open list): a demo account will do. */
async function logInAsDemo(page: Page): Promise<void> {
  const login = new LoginPage(page);
  await login.open();
  await login.createDemo();
  await page.waitForFunction(() => Boolean(localStorage.getItem('bourse.token')));
}

async function rowPrice(page: Page, symbol: string): Promise<string> {
  return (
    (await page
      .locator(`[data-testid="market-row"][data-symbol="${symbol}"] [data-testid="row-last"]`)
      .textContent()) ?? ''
  ).trim();
}

async function visibleSymbols(page: Page): Promise<string[]> {
  return page.locator('[data-testid="market-row"]').evaluateAll((rows) =>
    rows
      .map((r) => ({ s: r.getAttribute('data-symbol') ?? '', top: r.getBoundingClientRect().top }))
      .sort((a, b) => a.top - b.top)
      .map((r) => r.s),
  );
}

async function visiblePrices(page: Page): Promise<string[]> {
  return page.locator('[data-testid="market-row"]').evaluateAll((rows) =>
    rows
      .map((r) => ({
        top: r.getBoundingClientRect().top,
        p: (r.querySelector('[data-testid="row-last"]')?.textContent ?? '').replace(/,/g, ''),
      }))
      .sort((a, b) => a.top - b.top)
      .map((r) => r.p),
  );
}

/** True when the chart's canvases hold drawn pixels (not one flat colour). */
async function chartHasDrawing(page: Page): Promise<boolean> {
  return page.locator('[data-testid="chart-canvas"] canvas').evaluateAll((canvases) =>
    canvases.some((c) => {
      const canvas = c as HTMLCanvasElement;
      const ctx = canvas.getContext('2d');
      if (!ctx || canvas.width === 0 || canvas.height === 0) return false;
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      const colours = new Set<number>();
      for (let i = 0; i < data.length; i += 4 * 97) {
        if ((data[i + 3] ?? 0) > 0)
          colours.add(((data[i] ?? 0) << 16) | ((data[i + 1] ?? 0) << 8) | (data[i + 2] ?? 0));
        if (colours.size > 3) return true;
      }
      return false;
    }),
  );
}

describe('live prices', () => {
  it('shows prices changing live on /market, with the SIMULATED badge', async () => {
    const { context, page } = await newPage(browser, { lang: 'en' });
    await page.goto('/market');
    await page.getByTestId('market-row').first().waitFor();
    await expect(page.getByTestId('sim-badge').first().textContent()).resolves.toBe('SIMULATED');
    const first = await rowPrice(page, 'BTC/USDT');
    expect(first).toMatch(/^\d[\d,]*\.\d+$/);
    await expect.poll(() => rowPrice(page, 'BTC/USDT'), { timeout: 20_000, interval: 250 }).not.toBe(first);
    // The changed price flashes in its direction.
    const move = await page
      .locator('[data-testid="market-row"][data-symbol="BTC/USDT"] [data-testid="row-last"]')
      .getAttribute('data-move');
    expect(['up', 'down']).toContain(move);
    expect((page as Page & Errors).errors).toEqual([]);
    await context.close();
  });

  it('fills the home page: hot pairs from live tickers, banners and news from content', async () => {
    const { context, page } = await newPage(browser, { lang: 'en' });
    await page.goto('/');
    await page.locator('[data-testid^="hot-pair-"]').first().waitFor();
    expect(await page.locator('[data-testid^="hot-pair-"]').count()).toBeGreaterThanOrEqual(5);
    expect(await page.getByTestId('hot-pairs-empty').count()).toBe(0);
    const prices = () => page.locator('[data-testid="hot-last"]').allTextContents();
    const before = (await prices()).join('|');
    await expect.poll(async () => (await prices()).join('|'), { timeout: 20_000 }).not.toBe(before);
    await page.getByTestId('banner').waitFor();
    expect(Number(await page.getByTestId('banners').getAttribute('data-count'))).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('article-item').count()).toBeGreaterThanOrEqual(1);
    await page.getByTestId('banner').click();
    await page.waitForURL(/\/bannerDetail\?id=cnt_/);
    await expect(page.getByTestId('article-title').textContent()).resolves.toBeTruthy();
    await context.close();
  });
});

describe('K-line chart', () => {
  it('renders candles and switches intervals: a new request and a new legend', async () => {
    const { context, page } = await newPage(browser, { lang: 'en' });
    await page.goto('/market?symbol=BTC%2FUSDT');
    await page.getByTestId('instrument-view').waitFor();
    const legend = page.getByTestId('chart-legend');
    await expect.poll(() => legend.getAttribute('data-time'), { timeout: 15_000 }).toMatch(/^\d+$/);
    await expect.poll(() => chartHasDrawing(page), { timeout: 10_000 }).toBe(true);
    expect(await legend.getAttribute('data-interval')).toBe('15m');
    await expect(page.getByTestId('legend-close').textContent()).resolves.toMatch(/\d/);
    await expect(
      page.getByTestId('chart-attribution').locator('a[href*="tradingview"]').count(),
    ).resolves.toBe(1);

    const time15m = Number(await legend.getAttribute('data-time'));
    expect(time15m % 900_000).toBe(0);
    const request1m = page.waitForRequest(
      (r) => r.url().includes('/api/web/getKline') && r.url().includes('interval=1m'),
    );
    await page.getByTestId('chart-intervals').getByText('1m', { exact: true }).click();
    await request1m;
    await expect.poll(() => legend.getAttribute('data-interval')).toBe('1m');
    await expect.poll(() => legend.getAttribute('data-time')).toMatch(/^\d+$/);
    expect(Number(await legend.getAttribute('data-time')) % 60_000).toBe(0);

    const request1w = page.waitForRequest((r) => r.url().includes('interval=1w'));
    await page.getByTestId('chart-intervals').getByText('1W', { exact: true }).click();
    await request1w;
    await expect.poll(() => legend.getAttribute('data-interval')).toBe('1w');
    const weekStart = (() => {
      const now = new Date();
      const day = (now.getUTCDay() + 6) % 7; // Monday = 0
      return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - day);
    })();
    await expect.poll(async () => Number(await legend.getAttribute('data-time'))).toBe(weekStart);
    // A minute candle and the week's candle are different candles: the legend changed.
    expect(weekStart).not.toBe(time15m === weekStart ? -1 : time15m);
    await expect.poll(() => chartHasDrawing(page)).toBe(true);
    // Live updates reach the chart through the candles channel.
    const close = await page.getByTestId('legend-close').textContent();
    await expect
      .poll(() => page.getByTestId('legend-close').textContent(), { timeout: 20_000 })
      .not.toBe(close);
    expect((page as Page & Errors).errors).toEqual([]);
    await context.close();
  });

  it('a fresh start has history; search "eth" finds ETH first; the instrument view leads to trade', async () => {
    // History at first start: every interval has 500 candles at once, the newest at the live price.
    for (const interval of ['1m', '1h', '1d', '1w']) {
      const candles = await api<Array<{ close: string }> | { items: Array<{ close: string }> }>(
        baseUrl(),
        'getKline',
        { symbol: 'ETH/USDT', interval, limit: '1000' },
      );
      const items = Array.isArray(candles) ? candles : candles.items;
      expect(items.length, interval).toBeGreaterThanOrEqual(500);
    }
    const { context, page } = await newPage(browser, { lang: 'en' });
    await logInAsDemo(page);
    await page.goto('/market');
    await page.getByTestId('market-row').first().waitFor();
    await page.getByTestId('market-search').fill('eth');
    await expect.poll(async () => (await visibleSymbols(page))[0]).toBe('ETH/USDT');
    expect(await visibleSymbols(page)).not.toContain('BTC/USDT');
    await page
      .locator('[data-testid="market-row"][data-symbol="ETH/USDT"] [data-testid="row-symbol"]')
      .click();
    await page.getByTestId('instrument-view').waitFor();
    await expect.poll(() => chartHasDrawing(page), { timeout: 10_000 }).toBe(true);
    await page.getByTestId('instrument-trade-spot').click();
    await page.waitForURL(/\/currencyTrade\?symbol=ETH%2FUSDT/);
    // A contract leads to the contract screen; a listed pair without a spot market says so.
    await page.goto('/market?symbol=XAU%2FUSD');
    await page.getByTestId('instrument-trade-contract').click();
    await page.waitForURL(/\/preciousMetal\?symbol=XAU%2FUSD/);
    await page.goto('/market?symbol=XRP%2FUSDT');
    await page.getByTestId('instrument-not-tradable').waitFor();
    expect(await page.getByTestId('instrument-trade-spot').count()).toBe(0);
    await screenshot(page, 'instrument-not-tradable-en-desktop');
    expect((page as Page & Errors).errors).toEqual([]);
    await context.close();
  });

  it('opens /preciousMetal on the most popular metal with its hours, and the picker switches instruments', async () => {
    const { context, page } = await newPage(browser, { lang: 'en' });
    await logInAsDemo(page);
    await page.goto('/preciousMetal');
    await page.getByTestId('contract-view').waitFor();
    expect(await page.getByTestId('contract-symbol').textContent()).toBe('XAU/USD');
    await expect(page.getByTestId('trading-hours').first().textContent()).resolves.toContain('Eastern Time');
    await page.getByTestId('trade-picker').click();
    await page.getByTestId('trade-picker').fill('XAG');
    await page.getByRole('option', { name: /XAG\/USD/ }).click();
    await page.waitForURL(/symbol=XAG%2FUSD|symbol=XAG\/USD/);
    await expect.poll(() => page.getByTestId('contract-symbol').textContent()).toBe('XAG/USD');
    expect((page as Page & Errors).errors).toEqual([]);
    await context.close();
  });
});

/**
 * Writes the 3,000 instruments as a catalogue file with `status` and runs the import CLI on the e2e
 * database (as an operator would); its exit code and output.
 */
async function importCatalogue(
  status: 'active' | 'delisted',
): Promise<{ code: number | null; output: string }> {
  const lines = [
    'symbol,name,class,base,quote,price_tick,lot_size,contract_size,max_leverage,trading_hours,status,ref_price,feed_symbol,expiry,rank',
  ];
  for (let i = 0; i < IMPORTED; i++) {
    const n = String(i).padStart(4, '0');
    const price = `${1 + ((i * 7919) % 90_000)}.${String((i * 31) % 100).padStart(2, '0')}`;
    lines.push(
      `ZZ${n}/USDT,Imported coin ${n},crypto_spot,ZZ${n},USDT,0.01,0.001,,5,24/7,${status},${price},,,${5000 + i}`,
    );
  }
  const file = path.join(os.tmpdir(), `market-e2e-${process.pid}-${status}.csv`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const run = spawn(
    process.execPath,
    [path.join(repoRoot, 'apps/server/src/modules/market/import-cli.ts'), file],
    {
      env: { ...process.env, DATABASE_URL: inject('pgUrl'), LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  run.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  run.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((resolve) => run.once('exit', resolve));
  fs.rmSync(file, { force: true });
  return { code, output };
}

describe('a 3,000-instrument catalogue', () => {
  // The other files of this part share the server: once checked, the 3,000 are delisted so that
  // they stop ticking (each active instrument is a price a second to record: 3,000 of them kept
  // the server and its database busy for the rest of the run).
  afterAll(async () => {
    const { code, output } = await importCatalogue('delisted');
    expect(code, output).toBe(0);
    expect(output).toContain(`${IMPORTED} updated`);
  });

  it('is imported into the running server, and search and sort stay right and fast', {
    timeout: 150_000,
  }, async () => {
    const started = Date.now();
    const { code, output } = await importCatalogue('active');
    expect(code, output).toBe(0);
    expect(output).toContain(`${IMPORTED} added`);

    // The running server notices the catalogue change by itself (MARKET_JOBS.catalogueCheckMs). Counted
    // by the imports' own name: "ZZ" also matches any other test's instrument that has it in its name.
    await expect
      .poll(
        async () =>
          (await api<{ total: number }>(baseUrl(), 'getTickers', { search: 'Imported coin' })).total,
        {
          timeout: 60_000,
          interval: 1_000,
        },
      )
      .toBe(IMPORTED);
    const pickedUpMs = Date.now() - started;

    const { context, page } = await newPage(browser, { lang: 'en' });
    const opened = Date.now();
    await page.goto('/market?tab=crypto_spot');
    await expect
      .poll(async () => Number(await page.getByTestId('market-count').getAttribute('data-count')), {
        timeout: 20_000,
      })
      .toBeGreaterThan(IMPORTED);
    const openMs = Date.now() - opened;
    // Virtualized: thousands of instruments, a few dozen rows in the page.
    expect(await page.getByTestId('market-row').count()).toBeLessThan(80);

    // The imported instruments tick live like the rest.
    const zzRow = page.locator('[data-testid="market-row"]').first();
    await zzRow.waitFor();

    const search = page.getByTestId('market-search');
    const t0 = Date.now();
    await search.fill('zz0042');
    await expect.poll(() => visibleSymbols(page)).toEqual(['ZZ0042/USDT']);
    const searchMs = Date.now() - t0;
    await search.fill('Imported coin 29');
    await expect
      .poll(async () => Number(await page.getByTestId('market-count').getAttribute('data-count')))
      .toBe(100);
    await search.fill('');

    // Sort by price, highest first, then lowest first: the visible rows are in order.
    await page.getByTestId('market-sort').getByText('Price', { exact: true }).click();
    await expect.poll(() => page.getByTestId('market-sort-dir').getAttribute('data-dir')).toBe('desc');
    const numbers = async () => (await visiblePrices(page)).map(Number);
    const isSorted = (values: number[], dir: 'asc' | 'desc') =>
      values.length > 5 &&
      values.every((v, i) => i === 0 || (dir === 'asc' ? values[i - 1]! <= v : values[i - 1]! >= v));
    await expect.poll(async () => isSorted(await numbers(), 'desc')).toBe(true);
    const highest = (await numbers())[0] as number;
    const all = await api<{ items: Array<{ last: string }> }>(baseUrl(), 'getTickers', {
      class: 'crypto_spot',
      sort: 'last',
      order: 'desc',
      page_size: '1',
    });
    expect(highest).toBeGreaterThanOrEqual(Number(all.items[0]?.last) * 0.9);
    await page.getByTestId('market-sort-dir').click();
    await expect.poll(async () => isSorted(await numbers(), 'asc')).toBe(true);
    // By 24 h change, descending.
    await page.getByTestId('market-sort').getByText('24h change', { exact: true }).click();
    const changes = async () =>
      page.locator('[data-testid="market-row"]').evaluateAll((rows) =>
        rows
          .map((r) => ({
            top: r.getBoundingClientRect().top,
            c: Number(
              (r.querySelector('[data-testid="row-change"]')?.textContent ?? '').replace(/[%,+]/g, ''),
            ),
          }))
          .sort((a, b) => a.top - b.top)
          .map((r) => r.c),
      );
    await expect.poll(async () => isSorted(await changes(), 'desc')).toBe(true);

    // Scrolling to the end of 3,000+ rows keeps the DOM small and shows the last rows.
    await page.getByTestId('market-scroller').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(() => page.getByTestId('market-row').count()).toBeLessThan(80);

    // Favourites persist across a reload.
    await search.fill('zz0007');
    await expect.poll(() => visibleSymbols(page)).toEqual(['ZZ0007/USDT']);
    await page.getByTestId('favourite-toggle').first().click();
    await page.reload();
    await page.getByTestId('market-tab-favourites').click();
    await expect.poll(() => visibleSymbols(page)).toEqual(['ZZ0007/USDT']);
    await screenshot(page, 'market-3000-favourites-en-desktop');
    console.info(
      `[market e2e] import of ${IMPORTED} picked up by the server in ${pickedUpMs} ms; /market with ${IMPORTED + 30}+ rows ready in ${openMs} ms; search answered in ${searchMs} ms`,
    );
    expect((page as Page & Errors).errors).toEqual([]);
    await context.close();
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('a stale feed', () => {
  it('is shown as stale on the market list and the instrument view', { timeout: 150_000 }, async () => {
    // A second server on its own database whose feed never ticks (FEED_TICK_MS=0: the feed is
    // polled only when stepped): open markets have no fresh price, which is what a stopped feed is.
    const admin = new pg.Client({ connectionString: inject('pgUrl') });
    await admin.connect();
    const dbName = `bourse_stale_${process.pid}`;
    await admin.query(`drop database if exists ${dbName}`);
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(inject('pgUrl'));
    url.pathname = `/${dbName}`;
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'market-stale-'));
    let output = '';
    const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, 'apps/server/src/main.ts')], {
      env: {
        ...process.env,
        DATABASE_URL: url.toString(),
        PORT: String(port),
        DATA_DIR: dataDir,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        FEED_TICK_MS: '0',
        // No first-start history: this server's story is a feed that never ticked.
        SIM_HISTORY_CANDLES: '0',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-5000)));
    child.stderr?.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-5000)));
    const base = `http://127.0.0.1:${port}`;
    try {
      await expect
        .poll(
          () =>
            fetch(`${base}/healthz`).then(
              (r) => r.ok,
              () => false,
            ),
          { timeout: 60_000, interval: 250 },
        )
        .toBe(true);
      const btc = await api<{ items: Array<{ state: string; stale: boolean }> }>(base, 'getTickers', {
        symbols: 'BTC/USDT',
      });
      expect(btc.items[0], output).toMatchObject({ state: 'stale', stale: true });

      const context = await browser.newContext({ viewport: { width: 1920, height: 1080 }, baseURL: base });
      await context.addInitScript({ content: "localStorage.setItem('bourse.lang', 'en');" });
      const page = await context.newPage();
      await page.goto('/market');
      const row = page.locator('[data-testid="market-row"][data-symbol="BTC/USDT"]');
      await row.waitFor();
      expect(await row.getAttribute('data-state')).toBe('stale');
      await expect(row.getByTestId('state-stale').textContent()).resolves.toBe('Stale');
      await screenshot(page, 'market-stale-en-desktop');
      await row.click();
      await page.getByTestId('instrument-view').waitFor();
      await page.getByTestId('state-stale').first().waitFor();
      await screenshot(page, 'instrument-stale-en-desktop');
      await context.close();
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      fs.rmSync(dataDir, { recursive: true, force: true });
      const cleanup = new pg.Client({ connectionString: inject('pgUrl') });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${dbName} with (force)`);
      await cleanup.end();
    }
  });
});

const SCREENS: Array<{ name: string; path: string; ready: string }> = [
  { name: 'home', path: '/', ready: 'hot-pair-BTC/USDT' },
  { name: 'market', path: '/market', ready: 'market-row' },
  { name: 'instrument', path: '/market?symbol=BTC%2FUSDT', ready: 'legend-close' },
  { name: 'preciousMetal', path: '/preciousMetal', ready: 'contract-view' },
  { name: 'info', path: '/info', ready: 'article-item' },
  { name: 'ldcoin', path: '/ldcoin', ready: 'coin-row' },
];

describe('screens in three languages at desktop and mobile sizes', () => {
  // One profile per size: each screen is reached as a link would reach it and shown in en, zh and ft
  // in turn (the language switched in place), with a screenshot of each.
  for (const viewport of ['desktop', 'mobile'] as ViewportName[]) {
    it(`${viewport} in en, zh and ft`, { timeout: 180_000 }, async () => {
      const { context, page } = await newPage(browser, { viewport, lang: 'en' });
      await logInAsDemo(page);
      for (const screen of SCREENS) {
        await visit(page, screen.path);
        for (const lang of LANGS) {
          await switchLang(page, lang);
          await page.getByTestId(screen.ready).first().waitFor({ timeout: 20_000 });
          if (screen.name === 'instrument') {
            await expect.poll(() => chartHasDrawing(page), { timeout: 10_000 }).toBe(true);
          }
          if (screen.name === 'home') await page.getByTestId('banner').waitFor();
          if (lang !== 'en')
            await expect
              .poll(() => englishTexts(page), { message: `${screen.path} in ${lang} ${viewport}` })
              .toEqual([]);
          await screenshot(page, `${screen.name}-${lang}-${viewport}`);
        }
      }
      // A banner's detail and an article's detail, in each language.
      for (const lang of LANGS) {
        await switchLang(page, lang);
        await visit(page, '/');
        await page.getByTestId('banner').click();
        await page.getByTestId('article-title').waitFor();
        if (lang !== 'en')
          await expect.poll(() => englishTexts(page), { message: `/bannerDetail in ${lang}` }).toEqual([]);
        await visit(page, '/info');
        await page.getByTestId('article-item').first().click();
        await page.getByTestId('article-title').waitFor();
        if (lang !== 'en')
          await expect.poll(() => englishTexts(page), { message: `/info?id= in ${lang}` }).toEqual([]);
      }
      expect((page as Page & Errors).errors).toEqual([]);
      await context.close();
    });
  }
});
