import type { Browser, Page } from 'playwright-core';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminPage,
  createAdministrator,
  registerCustomer,
  sql,
  staffApiToken,
  webCall,
  webData,
} from './api.ts';
import {
  baseUrl,
  LANGS,
  launch,
  newPage,
  screenshot,
  signedInPage,
  switchLang,
  trackRequests,
  VIEWPORTS,
  type ViewportName,
  visit,
} from './browser.ts';
import { englishTexts, expectNoRawKeys, navigations, noSideways, socketFrames } from './pages.ts';

/**
 * Issue 20 (items 3–5) end to end in Chromium, at 1920×1080 and 390×844, in en, zh and ft:
 *
 * - every path open without login renders its own content — not the login page, not the not-found or
 *   "not available yet" page, no error boundary, no page or console error, nothing wider than the
 *   screen — with a screenshot of each (`community-open-<page>-<viewport>-<lang>`);
 * - /downLoad: the install steps for each platform and a QR code that encodes the site's address;
 * - the help centre: staff write a help article in markdown beside its live preview (raw HTML refused),
 *   publish it, and a visitor finds it by Chinese search text (simplified and traditional) on /help;
 * - notices: staff publish an announcement in the back office; the signed-in customers' header count
 *   rises over the websocket without a reload, they open /notice, read it, and the count falls;
 * - agreements: staff publish a new version of the privacy notice; a signed-in customer sees the
 *   notice with the change summary, accepts, and the acceptance is recorded (time, IP, browser).
 *
 * Announcements and help articles are visible to every customer, so every assertion is about this
 * file's own entries (unique texts) and counts relative to before; no global setting is changed, so
 * the file runs in the "rest" part. The new privacy version asks only customers registered before it
 * (registration accepts the versions in force; demo accounts are asked nothing): within a part files
 * run one at a time, each with customers of its own, so no other file's screens show the notice.
 */

let browser: Browser;
let staffToken = '';
const pageErrors: string[] = [];
const consoleErrors: string[] = [];
const stamp = Date.now();
/** The run's stamp in Chinese numerals: search text no other entry contains. */
const cn = String(stamp)
  .slice(-6)
  .replace(/\d/g, (d) => '零一二三四五六七八九'[Number(d)] ?? '');

const customers = { en: '', zh: '', ft: '' };
const agreementCustomers = { zh: '', ft: '' };

/** A console error a step provokes on purpose (the browser logs every refused call's status). */
let expectedConsole: RegExp | null = null;

/** Page and console errors of a page go into the file's lists (checked at the end). */
function watch(page: Page, label: string): Page {
  page.on('console', (message) => {
    if (message.type() === 'error' && !expectedConsole?.test(message.text()))
      consoleErrors.push(`${label}: ${message.text()}`);
  });
  page.on('pageerror', (error) => pageErrors.push(`${label}: ${String(error)}`));
  return page;
}

const customerPage = async (
  token: string,
  viewport: ViewportName,
  lang: (typeof LANGS)[number],
  path: string,
  label: string,
) => watch(await signedInPage(browser, { viewport, lang, token, path, pageErrors }), label);

const staffPage = async (viewport: ViewportName, lang: (typeof LANGS)[number], label: string) => {
  const { page } = await adminPage(browser, viewport, lang, staffToken, pageErrors);
  return watch(page, label);
};

/** The visible header bell's unread count. */
const unreadOf = async (page: Page) =>
  Number(await page.locator('[data-testid="notice-bell-badge"]:visible').first().getAttribute('data-unread'));

beforeAll(async () => {
  browser = await launch();
  staffToken = await staffApiToken(await createAdministrator('community', 'Community e2e'));
  for (const lang of LANGS)
    customers[lang] = await registerCustomer(`community-${lang}-${stamp}@e2e.local`, 'secret123', 'HK');
  agreementCustomers.zh = await registerCustomer(`agrt-zh-${stamp}@e2e.local`, 'secret123', 'HK');
  agreementCustomers.ft = await registerCustomer(`agrt-ft-${stamp}@e2e.local`, 'secret123', 'HK');
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

// ---------------------------------------------------------------------------------------------------
// Every open page

type OpenPage = { name: string; path: string; ready: string[] };

/** What must never be on an open page (besides the login page on any page but /login). */
const BROKEN = [
  'not-found-page',
  'unavailable-page',
  'route-error',
  'content-error',
  'content-not-found',
  'banner-not-found',
  'article-not-found',
  'agreement-error',
  'agreement-empty',
  'notice-error',
  'signin-load-error',
];

/** Product names are the same in every language (the install steps name the browsers). */
const BRANDS = /^(Chrome|Edge|Microsoft|Safari|iPhone|iPad|Android|iOS|Firefox)$/;

/** `englishTexts`, less texts whose only Latin words are product names. */
async function untranslated(page: Page): Promise<string[]> {
  return (await englishTexts(page)).filter((text) =>
    text
      .split(/[\s()（）·,，:：「」“”。、；！？]+/)
      .some((word) => /[A-Za-z]{2,}/.test(word) && !BRANDS.test(word)),
  );
}

/** The screens of the issue-20 features: their zh and ft texts must contain no English. */
const OURS = new Set([
  'text',
  'downLoad',
  'help',
  'helpDetail',
  'about',
  'agrt',
  'notice',
  'security',
  'benefits',
  'benefitsDetail',
  'userAgreement',
  'settingNew',
  'setting-newdetail',
  'bannerDetail',
]);

async function openPages(): Promise<OpenPage[]> {
  type Listed = { items: Array<{ id: string }> };
  const first = async (params: Record<string, string>) => {
    const list = await webData<Listed>('GET', 'getTextsList', params, null);
    const id = list.items[0]?.id;
    if (!id) throw new Error(`no published entry for ${JSON.stringify(params)}`);
    return encodeURIComponent(id);
  };
  const banners = await webData<Array<{ id: string }>>('GET', 'getBanners', {}, null);
  const banner = banners[0]?.id;
  if (!banner) throw new Error('no published banner');
  return [
    { name: 'home', path: '/', ready: ['home-page'] },
    { name: 'market', path: '/market', ready: ['market-page', 'market-row'] },
    { name: 'index', path: '/index', ready: ['home-page'] },
    { name: 'login', path: '/login', ready: ['login-page'] },
    { name: 'register', path: '/register', ready: ['register-page'] },
    { name: 'forgetpwd', path: '/forgetpwd', ready: ['reset-password-page'] },
    { name: 'text', path: '/text', ready: ['text-page', 'content-list'] },
    { name: 'downLoad', path: '/downLoad', ready: ['download-page', 'download-qr'] },
    { name: 'help', path: '/help', ready: ['help-page', 'help-categories', 'content-list'] },
    {
      name: 'helpDetail',
      path: `/helpDetail?id=${await first({ kind: 'help' })}`,
      ready: ['content-article-page', 'article-body'],
    },
    { name: 'about', path: '/about', ready: ['about-page', 'article-body'] },
    { name: 'agrt', path: '/agrt', ready: ['agreement-page', 'agreement-body'] },
    {
      name: 'bannerDetail',
      path: `/bannerDetail?id=${encodeURIComponent(banner)}`,
      ready: ['banner-detail', 'article'],
    },
    { name: 'notice', path: '/notice', ready: ['notice-page', 'notice-login'] },
    { name: 'security', path: '/security', ready: ['security-page', 'security-advice'] },
    { name: 'benefits', path: '/benefits', ready: ['benefits-page', 'content-list'] },
    {
      name: 'benefitsDetail',
      path: `/benefitsDetail?id=${await first({ kind: 'benefit' })}`,
      ready: ['content-article-page', 'article-body'],
    },
    {
      name: 'userAgreement',
      path: '/userAgreement?kind=risk',
      ready: ['agreement-page', 'agreement-body'],
    },
    { name: 'settingNew', path: '/settingNew', ready: ['news-flash-page', 'content-list'] },
    {
      name: 'setting-newdetail',
      path: `/setting-newdetail?id=${await first({ kind: 'news' })}`,
      ready: ['content-article-page', 'article-body'],
    },
    { name: 'questionnaire', path: '/questionnaire', ready: ['questionnaire-page', 'scoring-card'] },
    { name: 'verificationCode', path: '/verificationCode', ready: ['verify-page', 'verify-none'] },
    { name: 'signRule', path: '/signRule', ready: ['signin-page', 'signin-strip', 'signin-rules'] },
  ];
}

describe('every page open without login, in three languages at both sizes', () => {
  for (const viewport of ['desktop', 'mobile'] as const) {
    it(`${viewport}: each renders its own content, no error`, { timeout: 300_000 }, async () => {
      const pages = await openPages();
      // Each size loads in another language first.
      const langs = viewport === 'desktop' ? LANGS : (['zh', 'ft', 'en'] as const);
      const { context, page } = await newPage(browser, { viewport, lang: langs[0] });
      watch(page, `open ${viewport}`);
      const requests = trackRequests(page);
      const problems: string[] = [];
      const english: string[] = [];
      for (const [i, open] of pages.entries()) {
        if (i === 0) await page.goto(open.path);
        else await visit(page, open.path);
        for (const lang of langs) {
          await switchLang(page, lang);
          const where = `${open.path} (${viewport}, ${lang})`;
          for (const id of open.ready)
            await page.getByTestId(id).first().waitFor({ state: 'visible', timeout: 20_000 });
          await requests.quiet();
          const url = new URL(page.url());
          if (`${url.pathname}${url.search}` !== open.path) problems.push(`${where}: moved to ${page.url()}`);
          for (const id of open.name === 'login' ? BROKEN : [...BROKEN, 'login-page']) {
            if ((await page.getByTestId(id).count()) > 0) problems.push(`${where}: shows ${id}`);
          }
          if (await page.getByTestId('content-loading').count()) problems.push(`${where}: still loading`);
          await expectNoRawKeys(page, [
            'content',
            'agreements',
            'notice',
            'support',
            'common',
            'auth',
            'profile',
            'suitability',
            'market',
          ]);
          await noSideways(page, where);
          if (lang !== 'en') {
            const found = await untranslated(page);
            if (found.length > 0)
              (OURS.has(open.name) ? problems : english).push(`${where}: ${found.join(' | ')}`);
          }
          await page.evaluate(() => window.scrollTo(0, 0));
          await screenshot(page, `community-open-${open.name}-${viewport}-${lang}`);
        }
      }
      // Other features' screens with English left in zh/ft: reported, not this file's to fail.
      if (english.length > 0)
        console.warn(`English in zh/ft outside issue 20's screens:\n${english.join('\n')}`);
      const errors = (page as Page & { errors: string[] }).errors;
      await context.close();
      expect(problems).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
});

// ---------------------------------------------------------------------------------------------------
// /downLoad

/** The dark modules the page drew (the SVG path's unit squares), as "row,col" set. */
async function drawnModules(page: Page): Promise<{ size: number; dark: Set<string> }> {
  const qr = page.getByTestId('download-qr');
  const size = Number(await qr.getAttribute('data-modules'));
  const d = (await qr.locator('path').getAttribute('d')) ?? '';
  const dark = new Set<string>();
  for (const m of d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) dark.add(`${Number(m[2]) - 4},${Number(m[1]) - 4}`);
  return { size, dark };
}

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

describe('/downLoad', () => {
  it('install steps for iPhone, Android and desktop, and a QR code of the site, in three languages', {
    timeout: 120_000,
  }, async () => {
    for (const viewport of ['desktop', 'mobile'] as const) {
      // The phone is an Android phone's Chrome: its steps come first.
      const context = await browser.newContext({
        viewport: VIEWPORTS[viewport],
        baseURL: baseUrl(),
        isMobile: viewport === 'mobile',
        hasTouch: viewport === 'mobile',
        ...(viewport === 'mobile' ? { userAgent: ANDROID_CHROME } : {}),
      });
      await context.addInitScript({ content: `localStorage.setItem('bourse.lang', 'en');` });
      const page = watch(await context.newPage(), `download ${viewport}`);
      await page.goto('/downLoad');
      for (const lang of LANGS) {
        await switchLang(page, lang);
        await page.getByTestId('download-page').waitFor();
        for (const platform of ['ios', 'android', 'desktop']) {
          const steps = page.getByTestId(`download-steps-${platform}`);
          await steps.waitFor();
          expect(await steps.locator('li').count(), `${platform} steps`).toBe(3);
        }
        // The visitor's own platform comes first and is marked.
        const platform = viewport === 'mobile' ? 'android' : 'desktop';
        expect(await page.getByTestId('download-page').getAttribute('data-platform')).toBe(platform);
        const firstSteps = page.locator('[data-testid^="download-steps-"]').first();
        expect(await firstSteps.getAttribute('data-testid')).toBe(`download-steps-${platform}`);
        expect(await firstSteps.getAttribute('data-mine')).toBe('1');
        await page.getByTestId('download-safety').waitFor();
        if (lang !== 'en') expect(await untranslated(page), `/downLoad in ${lang}`).toEqual([]);
        await noSideways(page, `/downLoad ${viewport} ${lang}`);
        await screenshot(page, `community-download-${viewport}-${lang}`);
      }
      // The QR code drawn is exactly the QR code of the site's address shown under it.
      const url = (await page.getByTestId('download-url').textContent())?.trim() ?? '';
      expect(url).toBe(`${new URL(page.url()).origin}/`);
      const expected = QRCode.create(url, { errorCorrectionLevel: 'M' }).modules;
      const drawn = await drawnModules(page);
      expect(drawn.size).toBe(expected.size);
      let mismatches = 0;
      for (let row = 0; row < expected.size; row++)
        for (let col = 0; col < expected.size; col++)
          if ((expected.get(row, col) === 1) !== drawn.dark.has(`${row},${col}`)) mismatches += 1;
      expect(mismatches).toBe(0);
      const box = await page.getByTestId('download-qr').boundingBox();
      expect(box?.width ?? 0).toBeGreaterThanOrEqual(150);
      await page.getByTestId('download-qr').scrollIntoViewIfNeeded();
      await screenshot(page, `community-download-qr-${viewport}`);
      await context.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// Help centre

describe('help centre: written in markdown with a preview, published, found by Chinese search', () => {
  const titles = {
    en: `Rainbow bridge transfers ${stamp}`,
    zh: `彩虹桥转账说明${cn}`,
    ft: `彩虹橋轉帳說明${cn}`,
  };
  const bodies = {
    en: `## Before you start\n\nA **rainbow bridge** transfer (code word rainbow${stamp}) takes:\n\n- one confirmation\n- about *ten minutes*\n\nSee [the security page](/security).`,
    zh: `## 开始之前\n\n**彩虹桥**转账（口令彩虹桥${cn}号）需要：\n\n- 一次确认\n- 大约*十分钟*\n\n请看[安全须知](/security)。`,
    ft: `## 開始之前\n\n**彩虹橋**轉帳（口令彩虹橋${cn}號）需要：\n\n- 一次確認\n- 大約*十分鐘*\n\n請看[安全須知](/security)。`,
  };
  let articleId = '';

  it('staff write it with the live preview (raw HTML refused), save a draft and publish it', {
    timeout: 120_000,
  }, async () => {
    const page = await staffPage('desktop', 'en', 'content admin');
    await page.goto('/admin/content');
    await page.getByTestId('content-screen').waitFor();
    await page.getByTestId('content-create').click();
    const editor = page.getByTestId('content-editor');
    await page.getByTestId('content-title-en').waitFor();
    expect(await page.getByTestId('content-kind').inputValue()).toMatch(/help/i);
    await page.getByTestId('content-category').click();
    await page.getByRole('option').first().click();
    for (const lang of LANGS) {
      await page.getByTestId(`content-lang-${lang}`).click();
      await page.getByTestId(`content-title-${lang}`).fill(titles[lang]);
      await page.getByTestId(`content-body-${lang}`).fill(bodies[lang]);
      // The preview is the server's rendering, the same customers get.
      const preview = page.getByTestId('content-preview-html');
      await expect.poll(() => preview.locator('h2').count()).toBe(1);
      expect(await preview.locator('strong').count()).toBe(1);
      expect(await preview.locator('li').count()).toBe(2);
      await screenshot(page, `community-help-editor-${lang}`);
    }
    // Raw HTML: the preview drops it, saving is refused by field, nothing written.
    await page.getByTestId('content-lang-en').click();
    await page.getByTestId('content-body-en').fill(`${bodies.en}\n\n<img src=x onerror="alert(1)">`);
    await page.waitForTimeout(600);
    // The handler is gone from what the sanitizer keeps.
    await expect.poll(() => page.getByTestId('content-preview-html').locator('img').count()).toBe(1);
    expect(await page.getByTestId('content-preview-html').locator('[onerror]').count()).toBe(0);
    expectedConsole = /status of 400/;
    await page.getByTestId('content-save').click();
    await editor.getByTestId('error-note').waitFor();
    expect(await editor.getByTestId('error-note').textContent()).toMatch(/HTML|markup|body/i);
    expectedConsole = null;
    await screenshot(page, 'community-help-editor-refused');
    await page.getByTestId('content-body-en').fill(bodies.en);
    await page.getByTestId('content-save').click();
    const row = page.locator('[data-testid="content-row"]', { hasText: titles.en });
    await row.waitFor();
    expect(await row.getAttribute('data-state')).toBe('draft');
    articleId = (await row.getAttribute('data-id')) ?? '';
    expect(articleId).toMatch(/^cnt_/);
    // A draft is invisible to customers.
    expect((await webCall('GET', 'getArticle', { id: articleId }, null)).code).not.toBe(1);
    await row.getByTestId('content-publish').click();
    await page.getByTestId('reason-input').fill('e2e: a new help article');
    await screenshot(page, 'community-help-publish');
    await page.getByTestId('reason-confirm').click();
    await expect.poll(() => row.getAttribute('data-state')).toBe('published');
    await screenshot(page, 'community-help-published');
    await page.context().close();
  });

  it('a visitor finds it by simplified and traditional Chinese search text and reads it rendered', {
    timeout: 120_000,
  }, async () => {
    expect(articleId).not.toBe('');
    const runs = [
      { viewport: 'mobile', lang: 'zh', q: `桥${cn}号` },
      { viewport: 'desktop', lang: 'ft', q: `橋${cn}號` },
      { viewport: 'mobile', lang: 'en', q: `rainbow${stamp}` },
    ] as const;
    for (const run of runs) {
      const { context, page } = await newPage(browser, { viewport: run.viewport, lang: run.lang });
      watch(page, `help ${run.lang}`);
      await page.goto('/help');
      await page.getByTestId('help-categories').waitFor();
      await page.getByTestId('help-search').fill(run.q);
      await page.getByTestId('help-search-submit').click();
      const results = page.getByTestId('help-results');
      const hit = results.locator('[data-testid="content-item"]', { hasText: titles[run.lang] });
      await hit.waitFor();
      expect(await results.getByTestId('content-item').count()).toBe(1);
      await noSideways(page, `/help search ${run.lang}`);
      await screenshot(page, `community-help-search-${run.viewport}-${run.lang}`);
      await hit.click();
      await page.waitForURL((url) => url.pathname === '/helpDetail');
      expect(new URL(page.url()).searchParams.get('id')).toBe(articleId);
      const body = page.getByTestId('article-body');
      await body.waitFor();
      expect(await page.getByTestId('content-title').textContent()).toBe(titles[run.lang]);
      expect(await body.locator('h2').count()).toBe(1);
      expect(await body.locator('li').count()).toBe(2);
      expect(await body.locator('a[href="/security"]').count()).toBe(1);
      await screenshot(page, `community-help-article-${run.viewport}-${run.lang}`);
      await context.close();
    }
    // Each script is searched in its own texts: the simplified text does not find the traditional article.
    const cross = await webCall<{ items: Array<{ id: string }> }>(
      'GET',
      'searchContent',
      { q: `桥${cn}号` },
      null,
      'ft',
    );
    expect(cross.code, cross.msg).toBe(1);
    expect(cross.data.items.map((i) => i.id)).not.toContain(articleId);
  });
});

// ---------------------------------------------------------------------------------------------------
// Notices

describe('notices: an announcement arrives live and is marked read', () => {
  it('staff publish it; each customer’s count rises without a reload, they read it on /notice, it falls', {
    timeout: 180_000,
  }, async () => {
    const texts = {
      en: { title: `Maintenance window ${stamp}`, body: 'Trading pauses on Sunday from 02:00 to 03:00 UTC.' },
      zh: { title: `系统维护通知${cn}`, body: '周日世界协调时间 02:00 至 03:00 暂停交易。' },
      ft: { title: `系統維護通知${cn}`, body: '週日世界協調時間 02:00 至 03:00 暫停交易。' },
    };
    const sizes = { en: 'desktop', zh: 'mobile', ft: 'desktop' } as const;
    const watched = await Promise.all(
      LANGS.map(async (lang) => {
        const page = watch(
          await signedInPage(browser, { viewport: sizes[lang], lang, token: customers[lang], pageErrors }),
          `notice ${lang}`,
        );
        const frames = socketFrames(page);
        const navs = navigations(page);
        await page.goto('/');
        await page.getByTestId('home-page').waitFor();
        const api = await webData<{ unread: number }>('GET', 'getUnreadCount', {}, customers[lang]);
        await expect.poll(() => unreadOf(page)).toBe(api.unread);
        return { lang, page, frames, navs, before: api.unread, loads: navs.count() };
      }),
    );

    const admin = await staffPage('desktop', 'en', 'notices admin');
    await admin.goto('/admin/notices');
    await admin.getByTestId('notices-screen').waitFor();
    await admin.getByTestId('notice-create').click();
    for (const lang of LANGS) {
      await admin.getByTestId(`notice-compose-tab-${lang}`).click();
      await admin.getByTestId(`notice-title-${lang}`).fill(texts[lang].title);
      await admin.getByTestId(`notice-body-${lang}`).fill(texts[lang].body);
      await expect
        .poll(() => admin.getByTestId(`notice-preview-${lang}`).textContent())
        .toContain(texts[lang].title);
    }
    await screenshot(admin, 'community-notice-compose');
    await admin.getByTestId('notice-save').click();
    const row = admin.locator('[data-testid="notice-row"]', { hasText: texts.en.title });
    await row.waitFor();
    expect(await row.getAttribute('data-state')).toBe('draft');
    // A draft reaches nobody.
    for (const w of watched) expect(await unreadOf(w.page)).toBe(w.before);
    await row.getByTestId('notice-publish').click();
    await admin.getByTestId('reason-input').fill('e2e: planned maintenance');
    await admin.getByTestId('reason-confirm').click();
    await expect.poll(() => row.getAttribute('data-state')).toBe('published');
    await screenshot(admin, 'community-notice-published');
    await admin.context().close();

    for (const w of watched) {
      // Live: the count rises without a reload, the socket carried the announcement.
      await expect.poll(() => unreadOf(w.page), { message: `${w.lang} count` }).toBe(w.before + 1);
      expect(w.navs.count(), `${w.lang}: reloaded`).toBe(w.loads);
      expect(w.frames.some((f) => f.includes('inbox_public') && f.includes('announcement'))).toBe(true);
      await screenshot(w.page, `community-notice-live-${sizes[w.lang]}-${w.lang}`);
    }

    for (const w of watched) {
      const { page, lang } = w;
      await page.locator('[data-testid="notice-bell"]:visible').first().click();
      await page.waitForURL((url) => url.pathname === '/notice');
      const item = page.locator('[data-testid="notice-item"]', { hasText: texts[lang].title });
      await item.waitFor();
      expect(await item.getAttribute('data-read')).toBe('false');
      await item.getByTestId('notice-unread').waitFor();
      if (lang !== 'en') expect(await englishTexts(page), `/notice in ${lang}`).toEqual([]);
      await noSideways(page, `/notice ${lang}`);
      await screenshot(page, `community-notice-list-${sizes[lang]}-${lang}`);
      await item.getByTestId('notice-open').click();
      await expect.poll(() => item.getByTestId('notice-body').textContent()).toContain(texts[lang].body);
      await expect.poll(() => item.getAttribute('data-read')).toBe('true');
      await expect.poll(() => unreadOf(page)).toBe(w.before);
      const api = await webData<{ unread: number }>('GET', 'getUnreadCount', {}, customers[lang]);
      expect(api.unread).toBe(w.before);
      await screenshot(page, `community-notice-read-${sizes[lang]}-${lang}`);
      await page.context().close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// Agreements

describe('agreements: a new version published in the back office is accepted by a signed-in customer', () => {
  it('the privacy notice’s version 2 with its change summary; the customer accepts, recorded', {
    timeout: 180_000,
  }, async () => {
    const summaries = {
      en: `We now keep login records for 12 months instead of 6 (${stamp}).`,
      zh: `登录记录的保存期限由六个月改为十二个月（${cn}）。`,
      ft: `登入記錄的保存期限由六個月改為十二個月（${cn}）。`,
    };
    type Status = {
      pending: Array<{ kind: string; version: number }>;
      accepted: Array<{ kind: string; version: number }>;
    };
    const status = (token: string) => webData<Status>('GET', 'agreementStatus', {}, token);
    const before = await status(agreementCustomers.zh);
    expect(before.pending).toEqual([]);
    const current = before.accepted.find((a) => a.kind === 'privacy')?.version ?? 0;
    expect(current).toBeGreaterThan(0);

    const zh = await customerPage(agreementCustomers.zh, 'desktop', 'zh', '/', 'agreement zh');
    await zh.getByTestId('home-page').waitFor();
    expect(await zh.getByTestId('agreement-notice').count()).toBe(0);

    const admin = await staffPage('desktop', 'en', 'agreements admin');
    await admin.goto('/admin/agreements');
    const card = admin.locator('[data-testid="agreement-kind"][data-kind="privacy"]');
    await card.waitFor();
    await card.getByTestId('agreement-new-draft').click();
    await admin.getByTestId('agreement-draft-form').waitFor();
    for (const lang of LANGS) {
      await admin.getByTestId(`agreement-tab-${lang}`).click();
      // The draft starts from the version in force; the change summary is what is new.
      expect(await admin.getByTestId(`agreement-body-${lang}`).inputValue()).not.toBe('');
      await admin.getByTestId(`agreement-summary-${lang}`).fill(summaries[lang]);
    }
    await admin.getByTestId('agreement-tab-zh').click();
    await admin
      .getByTestId('agreement-mode-zh')
      .getByText(/preview|预览|預覽/i)
      .click();
    await admin.getByTestId('agreement-preview').waitFor();
    await screenshot(admin, 'community-agreement-preview');
    await admin.getByTestId('agreement-save').click();
    const draft = card.locator(`[data-testid="agreement-version-row"][data-version="${current + 1}"]`);
    await draft.waitFor();
    await draft.getByTestId('agreement-publish').click();
    await admin.getByTestId('agreement-effective').waitFor();
    await admin.getByTestId('reason-input').fill('e2e: login records kept longer');
    await screenshot(admin, 'community-agreement-publish');
    await admin.getByTestId('reason-confirm').click();
    await expect.poll(() => draft.getByTestId('agreement-state').textContent()).toMatch(/current|in force/i);

    // Signed-in customers see the notice at their next visit, in their language, with the summary.
    const afterPublish = await status(agreementCustomers.zh);
    expect(afterPublish.pending).toEqual([
      expect.objectContaining({ kind: 'privacy', version: current + 1 }),
    ]);
    await zh.goto('/');
    const notice = zh.getByTestId('agreement-notice');
    await notice.waitFor();
    await expect.poll(() => notice.textContent()).toContain(summaries.zh);
    expect(await notice.locator('[data-testid="agreement-notice-item"][data-kind="privacy"]').count()).toBe(
      1,
    );
    expect(await englishTexts(zh), 'agreement notice in zh').toEqual([]);
    await screenshot(zh, 'community-agreement-notice-desktop-zh');

    const ft = await customerPage(agreementCustomers.ft, 'mobile', 'ft', '/', 'agreement ft');
    const ftNotice = ft.getByTestId('agreement-notice');
    await ftNotice.waitFor();
    await expect.poll(() => ftNotice.textContent()).toContain(summaries.ft);
    await noSideways(ft, 'agreement notice mobile ft');
    await screenshot(ft, 'community-agreement-notice-mobile-ft');
    // The notice links to the new version, readable with its summary.
    await ftNotice.getByRole('link').first().click();
    await ft.waitForURL((url) => url.pathname === '/userAgreement');
    await ft.getByTestId('agreement-body').waitFor();
    await expect.poll(() => ft.getByTestId('agreement-meta').textContent()).toContain(String(current + 1));
    await screenshot(ft, 'community-agreement-version-mobile-ft');

    // Accept: the notice goes, the acceptance is recorded with time, IP and browser.
    await notice.getByTestId('agreement-accept').click();
    await expect.poll(() => zh.getByTestId('agreement-notice').count()).toBe(0);
    await screenshot(zh, 'community-agreement-accepted-desktop-zh');
    const after = await status(agreementCustomers.zh);
    expect(after.pending).toEqual([]);
    expect(after.accepted).toContainEqual(expect.objectContaining({ kind: 'privacy', version: current + 1 }));
    const rows = await sql<{ source: string; ip: string; user_agent: string }>(
      `select a.source, a.ip, a.user_agent from agreements_acceptance a
         join accounts_customer c on c.id = a.customer_id
        where c.email = $1 and a.kind = 'privacy' and a.version = $2`,
      [`agrt-zh-${stamp}@e2e.local`, current + 1],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.source).toBe('web');
    expect(rows[0]?.ip).not.toBe('');
    expect(rows[0]?.user_agent).toMatch(/Chrom/);
    await zh.reload();
    await zh.getByTestId('home-page').waitFor();
    await zh.waitForTimeout(1000);
    expect(await zh.getByTestId('agreement-notice').count()).toBe(0);

    // The back office counts it.
    await admin.reload();
    const published = admin.locator(
      `[data-testid="agreement-kind"][data-kind="privacy"] [data-testid="agreement-version-row"][data-version="${current + 1}"]`,
    );
    await expect.poll(() => published.getByTestId('agreement-acceptances').textContent()).toBe('1');
    await screenshot(admin, 'community-agreement-counted');
    for (const p of [zh, ft, admin]) await p.context().close();
  });
});

describe('the whole file', () => {
  it('raised no page error and logged no console error', () => {
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
