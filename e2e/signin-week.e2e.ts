import { parseUnitsOrThrow, scaleOf } from '@bourse/money';
import type { SigninInfoData } from '@bourse/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { StaffContext } from '../apps/server/src/http/staff.ts';
import { checkLogLines, startTest } from '../apps/server/test/logwatch.ts';
import { LANGS, launch, newPage, screenshot, switchLang, type ViewportName } from './browser.ts';
import {
  appRegisterCustomer,
  appSpotAvailable,
  appWebCall,
  type InProcessApp,
  startInProcessApp,
} from './inprocess.ts';
import { englishTexts, expectNoRawKeys } from './pages.ts';

/**
 * Seven days of the sign-in reward (issue 20 item 2) in Chromium, on a stepped clock. The production
 * server has no clock hook, so this file starts a server of its own in its process (e2e/inprocess.ts:
 * `buildApp` on a manual clock, a fresh database next to the e2e server's, the built web app) and
 * moves its clock from one Hong Kong customer-day to the next. Staff fund the budget with four eyes
 * (the requester's own approval refused); a customer signs in from `/signRule` by clicking on seven
 * days in a row at 10:00 Hong Kong time: each day the strip shows day k signed, the spot balance
 * rises by day k's amount, and a second attempt the same day — a stale tab's click, then the API —
 * is refused as SIGNIN_ALREADY_TODAY. The eighth day starts again at day 1; one millisecond before
 * Hong Kong midnight is still the old day, midnight itself the next; a missed day resets the streak to
 * day 1 (the rule the page states). Screenshots of the strip at days 1, 4 and 7 in en, zh and ft at
 * 1920×1080 and 390×844. The e2e server's state is not touched.
 */

const ZONE = 'Asia/Hong_Kong';
/** A Hong Kong wall-clock time (UTC+8 all year: no daylight saving) as an instant. */
const hk = (date: string, time: string) => new Date(`${date}T${time}+08:00`);
/** The first customer-day of the week; the clock starts there at 10:00. */
const DAYS = [
  '2026-12-01',
  '2026-12-02',
  '2026-12-03',
  '2026-12-04',
  '2026-12-05',
  '2026-12-06',
  '2026-12-07',
] as const;
const staffA: StaffContext = { staffId: 'stf_week_a', sessionId: 'sss_week_a', roles: ['administrator'] };
const staffB: StaffContext = { staffId: 'stf_week_b', sessionId: 'sss_week_b', roles: ['administrator'] };
const ALREADY_EN = /You have already signed in today \((\d{4}-\d{2}-\d{2})\)/;
const LONG = 240_000;

let t: InProcessApp;
let browser: Browser;
let token = '';
let amounts: string[] = [];
const pageErrors: string[] = [];
const scale = scaleOf('USDT');
const units = (text: string) => parseUnitsOrThrow(text, { scale });

const info = async (): Promise<SigninInfoData> => {
  const answer = await appWebCall<SigninInfoData>(t.baseUrl, 'GET', 'signin', {}, token || null);
  expect(answer.code, answer.msg).toBe(1);
  return answer.data;
};
const balance = async () => units(await appSpotAvailable(t, token, 'USDT'));

/** A browser profile at a viewport and language, the customer logged in, at the in-process app's `/signRule`. */
async function rulePage(viewport: ViewportName, lang: (typeof LANGS)[number]): Promise<Page> {
  const { context, page } = await newPage(browser, { viewport, lang });
  await context.addInitScript({ content: `localStorage.setItem('bourse.token', ${JSON.stringify(token)});` });
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  await page.goto(`${t.baseUrl}/signRule`);
  await page.getByTestId('signin-me').waitFor();
  return page;
}

/** The strip as the page shows it: which days are signed, and today's. */
async function strip(page: Page): Promise<{ signed: number[]; today: number[] }> {
  const days = await page.getByTestId('signin-day').evaluateAll((nodes) =>
    nodes.map((n) => ({
      day: Number(n.getAttribute('data-day')),
      signed: n.getAttribute('data-signed') === '1',
      today: n.getAttribute('data-today') === '1',
    })),
  );
  expect(days).toHaveLength(7);
  return {
    signed: days.filter((d) => d.signed).map((d) => d.day),
    today: days.filter((d) => d.today).map((d) => d.day),
  };
}
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/**
 * On the page (already at today's customer-day): today is streak day `day` and the days before it
 * are signed; a click pays day `day`'s amount into spot; the strip then shows 1…day signed; the API's
 * second attempt is refused by name and pays nothing.
 */
async function signInFromPage(page: Page, day: number, today: string): Promise<void> {
  await expect.poll(() => strip(page)).toEqual({ signed: upTo(day - 1), today: [day] });
  const amount = amounts[day - 1] ?? '';
  expect(await page.getByTestId('signin-today').textContent()).toContain(`day ${day}`);
  const before = await balance();
  await page.getByTestId('signin-button').click();
  await page.getByTestId('signin-paid').waitFor();
  expect(await page.getByTestId('signin-paid').textContent()).toContain(`Day ${day}: ${amount} USDT`);
  await page.getByTestId('signin-signed-today').waitFor();
  expect(await page.getByTestId('signin-button').count()).toBe(0);
  await expect.poll(() => strip(page)).toEqual({ signed: upTo(day), today: [day] });
  expect(await page.getByTestId('signin-me').getAttribute('data-streak')).toBe(String(day));
  expect(await balance()).toBe(before + units(amount));
  const again = await appWebCall(t.baseUrl, 'POST', 'signin', {}, token);
  expect(again.reason).toBe('SIGNIN_ALREADY_TODAY');
  expect(again.msg).toMatch(ALREADY_EN);
  expect(again.msg.match(ALREADY_EN)?.[1]).toBe(today);
  expect(await balance()).toBe(before + units(amount));
}

/** The strip at a day in three languages at both sizes (fresh profiles, the language switched in place). */
async function stripShots(day: number): Promise<void> {
  for (const viewport of ['desktop', 'mobile'] as const) {
    const page = await rulePage(viewport, 'en');
    await page.getByTestId('signin-signed-today').waitFor();
    for (const lang of LANGS) {
      await switchLang(page, lang);
      await page.getByTestId('signin-strip').waitFor();
      expect(await strip(page)).toEqual({ signed: upTo(day), today: [day] });
      await expectNoRawKeys(page, ['signin', 'common']);
      if (lang !== 'en')
        expect(await englishTexts(page), `/signRule day ${day} ${viewport} ${lang}`).toEqual([]);
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
        `/signRule day ${day} ${viewport} ${lang}: wider than the screen`,
      ).toBeLessThanOrEqual(1);
      if (viewport === 'mobile') await page.getByTestId('signin-strip').scrollIntoViewIfNeeded();
      await screenshot(page, `signin-week-day${day}-${viewport}-${lang}`);
    }
    await page.context().close();
  }
}

beforeAll(async () => {
  t = await startInProcessApp({ adminUrl: inject('pgUrl'), label: 'signin_week', now: hk(DAYS[0], '10:00') });
  browser = await launch();
}, 180_000);
beforeEach(() => startTest());
afterEach(() => checkLogLines('test'));
afterAll(async () => {
  await browser?.close();
  await t?.close();
  checkLogLines('file');
});

describe("seven days of sign-in on a stepped clock, on a server of this file's own", () => {
  it('the programme runs on Hong Kong days; two staff members fund its budget, the requester cannot approve', async () => {
    const asked = await t.app.signin.requestFunding(staffA, {
      amount: '20',
      reason: 'e2e: a week of sign-ins',
    });
    await expect(
      t.app.signin.decideFunding(staffA, asked.request_id, 'approve', 'my own'),
    ).rejects.toMatchObject({
      reason: 'SIGNIN_FUNDING_SELF_APPROVAL',
    });
    await t.app.signin.decideFunding(staffB, asked.request_id, 'approve', 'checked by a second person');
    const open = await info();
    expect(open).toMatchObject({ state: 'on', time_zone: ZONE, today: DAYS[0], cycle_days: 7 });
    expect(units(open.budget_remaining)).toBe(units('20'));
    amounts = open.amounts;
    expect(amounts).toHaveLength(7);
    token = await appRegisterCustomer(t, `signin-week-${Date.now()}@e2e.local`);
    const mine = await info();
    expect(mine.me).toMatchObject({ streak: 0, signed_today: false, today_streak_day: 1, book: 'real' });
    expect(await balance()).toBe(0n);
  });

  it('seven customer-days in a row at 10:00: day k signed from /signRule, paid day k, once a day', {
    timeout: LONG * 2,
  }, async () => {
    expect(token).not.toBe('');
    const page = await rulePage('desktop', 'en');
    // A second tab opened the same day, before the sign-in: its click is refused by name.
    const stale = await rulePage('desktop', 'en');
    let total = 0n;
    for (const [i, today] of DAYS.entries()) {
      const day = i + 1;
      t.clock.set(hk(today, '10:00'));
      await page.reload();
      await page.getByTestId('signin-me').waitFor();
      if (day === 1) await stale.getByTestId('signin-button').waitFor();
      await signInFromPage(page, day, today);
      total += units(amounts[i] ?? '');
      expect(await balance()).toBe(total);
      if (day === 1) {
        await stale.getByTestId('signin-button').click();
        await stale.getByTestId('signin-error').waitFor();
        expect(await stale.getByTestId('signin-error').textContent()).toMatch(ALREADY_EN);
        await stale.getByTestId('signin-signed-today').waitFor();
        await stale.context().close();
        expect(await balance()).toBe(total);
      }
      if (day === 1 || day === 4 || day === 7) await stripShots(day);
    }
    await page.context().close();
    const week = await info();
    expect(week.me).toMatchObject({ streak: 7, signed_today: true, last_day: DAYS[6] });
    expect(units(week.budget_remaining)).toBe(units('20') - total);
    expect(pageErrors).toEqual([]);
  });

  it('after day 7 the next customer-day starts at day 1 again', { timeout: LONG }, async () => {
    t.clock.set(hk('2026-12-08', '10:00'));
    const page = await rulePage('desktop', 'en');
    await signInFromPage(page, 1, '2026-12-08');
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('one millisecond before Hong Kong midnight is still the old day; midnight is the next', {
    timeout: LONG,
  }, async () => {
    const midnight = hk('2026-12-10', '00:00');
    t.clock.set(new Date(midnight.getTime() - 1));
    const before = await info();
    expect(before.today).toBe('2026-12-09');
    expect(before.next_boundary_at).toBe(midnight.getTime());
    const page = await rulePage('desktop', 'en');
    await signInFromPage(page, 2, '2026-12-09');
    // Midnight itself is the next customer-day: day 3.
    t.clock.set(midnight);
    const after = await info();
    expect(after.today).toBe('2026-12-10');
    expect(after.me).toMatchObject({ streak: 2, signed_today: false, today_streak_day: 3 });
    await page.reload();
    await page.getByTestId('signin-button').waitFor();
    await signInFromPage(page, 3, '2026-12-10');
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('a missed customer-day resets the streak to day 1, as the page says', { timeout: LONG }, async () => {
    // 2026-12-11 passes without a sign-in.
    t.clock.set(hk('2026-12-12', '10:00'));
    const missed = await info();
    expect(missed.me).toMatchObject({
      streak: 0,
      signed_today: false,
      today_streak_day: 1,
      last_day: '2026-12-10',
    });
    const page = await rulePage('desktop', 'en');
    expect(await page.getByTestId('signin-rule-missed').textContent()).toBe(
      'Missing a day resets your streak to day 1.',
    );
    expect(await page.getByTestId('signin-me').getAttribute('data-streak')).toBe('0');
    expect(await page.getByTestId('signin-streak').textContent()).toBe('Days in a row: 0');
    await signInFromPage(page, 1, '2026-12-12');
    await screenshot(page, 'signin-week-reset-desktop-en');
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});
