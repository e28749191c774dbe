/**
 * Uses a running platform in Chromium the way a customer would, for a while, and reports what the
 * pages threw: a fresh demo account per round, every built screen in three languages at desktop and
 * phone sizes, with a little typing where a screen has a form. Pair it with the server's log (which
 * should show no error line) before calling a change done.
 *
 *   node scripts/browse.ts [baseUrl=http://127.0.0.1:8080] [minutes=10]
 */
import { chromium, type Page } from 'playwright-core';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const minutes = Number(process.argv[3] ?? 10);
const SIZES = [
  { name: 'desktop', width: 1920, height: 1080 },
  { name: 'laptop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const LANGS = ['en', 'zh', 'ft'] as const;
const SCREENS = [
  '/',
  '/market',
  '/market?symbol=ETH%2FUSDT',
  '/currency',
  '/currencyTrade?symbol=BTC%2FUSDT',
  '/preciousMetal',
  '/options',
  '/ldcoin',
  '/info',
  '/setting',
  '/record',
  '/transfer',
  '/address',
  '/proof',
  '/bank',
  '/wallet',
  '/rechargeRecord',
  '/moneyRecord',
  '/accountRecord',
  '/currencyRecord',
  '/optionRecord',
  '/contractRecord',
  '/exchange',
  '/kjmbSelect',
  // Identity and security centre (issue 15)
  '/sfyz',
  '/authentication',
  '/authenticationhigh',
  '/dzrz',
  '/authenticationrj',
  '/authenticationcj',
  '/questionnaire',
  '/fengxian',
  '/username',
  '/mobile',
  '/email',
  '/editPassword',
  '/verificationCode',
  // Earn, ETF portfolios and API keys (issues 16, 21)
  '/profit_index',
  '/profit_wdtg',
  '/vip_index',
  '/vip_wdtg',
  '/etflow_buy',
  '/etflow_buy?model=low_risk',
  '/etf_wdtg',
  '/etflow_wdtg',
  '/botKeys',
  // New-coin subscription (issue 17); each project's own page is added from the live list below
  '/subscription',
  '/subscriptionRecord',
  // C2C (issue 19): the browsing demo account sees the demo desk's offers; each offer's order form is added below
  '/c2c_index',
  '/c2c_order',
  '/c2c_account',
  '/c2c_rule',
  // Community, content and support (issue 20)
  '/invite',
  '/signRule',
  '/notice',
  '/service',
  '/help',
  '/settingNew',
  '/settingHelp',
  '/settingAbout',
  '/security',
  '/benefits',
  '/text',
  '/downLoad',
  '/bps',
  '/userAgreement',
  '/agrt',
  '/no-such-page',
];

async function demoToken(): Promise<string> {
  const answer = (await fetch(
    `${base}/api/web/tempLogin?rtoken=b${Math.random().toString(36).slice(2, 12)}`,
  ).then((r) => r.json())) as {
    code: number;
    data: { token: string };
    msg: string;
  };
  if (answer.code !== 1) throw new Error(`tempLogin: ${answer.msg}`);
  return answer.data.token;
}

/** Types into the first visible number field of a form screen, as a customer trying amounts would. */
async function fiddle(page: Page): Promise<void> {
  const input = page.locator('input[inputmode="decimal"]:visible, input[type="number"]:visible').first();
  if ((await input.count()) === 0) return;
  await input.fill('12.5').catch(() => undefined);
  await page.waitForTimeout(300);
  await input.fill('').catch(() => undefined);
}

const browser = await chromium.launch({
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
/** Each project's page and proof check, from the live list (the demo content's projects). */
async function projectScreens(): Promise<string[]> {
  const answer = (await fetch(
    `${base}/api/web/getSubscriptionList?rtoken=b${Math.random().toString(36).slice(2, 12)}`,
  )
    .then((r) => r.json())
    .catch(() => null)) as { data?: { items?: Array<{ project_id: string }> } } | null;
  return (answer?.data?.items ?? []).flatMap((p) => [
    `/subscriptionBuy?project_id=${p.project_id}`,
    `/subscriptionProof?project_id=${p.project_id}`,
  ]);
}
/** The demo desk's offers' order forms, as a demo account sees them. */
async function c2cScreens(): Promise<string[]> {
  const query = new URLSearchParams({
    token: await demoToken(),
    rtoken: `b${Math.random().toString(36).slice(2, 12)}`,
  });
  const answer = (await fetch(`${base}/api/web/c2cOffers?${query}`)
    .then((r) => r.json())
    .catch(() => null)) as { data?: Array<{ offer_id: string }> } | null;
  return (answer?.data ?? []).map((o) => `/c2c_create?offer_id=${o.offer_id}`);
}
SCREENS.splice(SCREENS.indexOf('/no-such-page'), 0, ...(await projectScreens()), ...(await c2cScreens()));

const deadline = Date.now() + minutes * 60_000;
let rounds = 0;
let visits = 0;
const problems: string[] = [];
try {
  while (Date.now() < deadline) {
    const token = await demoToken();
    const lang = LANGS[rounds % LANGS.length] ?? 'en';
    const size = SIZES[rounds % SIZES.length] ?? SIZES[0];
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
      isMobile: size.name === 'phone',
      hasTouch: size.name === 'phone',
    });
    await context.addInitScript({
      content: `localStorage.setItem('bourse.token', ${JSON.stringify(token)}); localStorage.setItem('bourse.lang', ${JSON.stringify(lang)});`,
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`${page.url()} (${lang}, ${size.name}): ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 500)
        problems.push(`${response.status()} ${response.url()} (${lang}, ${size.name})`);
    });
    for (const screen of SCREENS) {
      if (Date.now() > deadline) break;
      await page
        .goto(`${base}${screen}`, { waitUntil: 'load' })
        .catch((e: Error) => problems.push(`${screen}: ${e.message}`));
      await page.waitForTimeout(1_500);
      await fiddle(page);
      await page.mouse.wheel(0, 600).catch(() => undefined);
      await page.waitForTimeout(500);
      visits += 1;
    }
    await context.close();
    rounds += 1;
    console.log(
      `round ${rounds} (${lang}, ${size.name}): ${visits} screens so far, ${problems.length} problems`,
    );
  }
} finally {
  await browser.close();
}
console.log(`browsed ${minutes} min: ${rounds} rounds, ${visits} screens, ${problems.length} problems`);
for (const problem of problems) console.log(`  ${problem}`);
process.exit(problems.length === 0 ? 0 : 1);
