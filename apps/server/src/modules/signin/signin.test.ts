import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { testLogger } from '../../../test/logwatch.ts';
import { type Customer, customer, ledgerOf, USDT } from '../assets/testing.ts';
import { createSignin } from './service.ts';
import {
  budgetUnits,
  fundBudget,
  info,
  setProgramme,
  signIn,
  signinOf,
  spotUnits,
  staffA,
} from './testing.ts';

/**
 * The sign-in reward over HTTP on a real PostgreSQL, the clock stepped (never the wall clock): ten
 * days with a missed one, the day boundary in UTC and in Shanghai, races, retries and a crash
 * between the entry and the claim, the budget running out (never negative), the programme's states,
 * the demo book; the ledger verifies clean at the end.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ sessionTtlDays: 365 });
}, 120_000);
afterAll(async () => t?.close());

const at = (iso: string) => t.clock.set(new Date(iso));

async function signedIn(c: Customer) {
  const a = await signIn(t, c.token);
  expect(a.code, `${a.reason} ${a.msg}`).toBe(1);
  return a.data as { day: string; streak: number; amount: string };
}

describe('the programme as data', () => {
  it('is open without login; a fresh install runs its defaults and says its budget is empty', async () => {
    at('2026-12-01T03:00:00Z');
    const a = await info(t, null);
    expect(a.code).toBe(1);
    expect(a.data).toMatchObject({
      state: 'budget_empty',
      time_zone: 'Asia/Hong_Kong',
      currency: 'USDT',
      budget_remaining: '0',
      cycle_days: 7,
      today: '2026-12-01',
      me: null,
    });
    expect(a.data.amounts).toHaveLength(7);
    expect(a.data.condition.en).toMatch(/Promotional credit/);
    // Midnight in Hong Kong (UTC+8) is 16:00 UTC.
    expect(a.data.next_boundary_at).toBe(Date.parse('2026-12-01T16:00:00Z'));
    const c = await customer(t, 'sgn');
    expect((await signIn(t, c.token)).reason).toBe('SIGNIN_BUDGET_EMPTY');
    expect(await spotUnits(t, c.id)).toBe(0n);
  });
});

describe('signing in on a stepped clock', () => {
  it('ten days in UTC: day 1…7, the cycle starts again, a missed day resets; once per day', async () => {
    await setProgramme(t, { time_zone: 'UTC' });
    await fundBudget(t, '1000');
    const c = await customer(t, 'sgn');
    const before = await budgetUnits(t);
    const streaks: number[] = [];
    for (let d = 1; d <= 10; d++) {
      if (d === 9) continue; // the missed day
      const day = `2026-12-${String(d).padStart(2, '0')}`;
      // Around midnight: the first second of the day on odd days, the last on even ones.
      at(d % 2 ? `${day}T00:00:00Z` : `${day}T23:59:59Z`);
      const before = await info(t, c.token);
      expect(before.data.me).toMatchObject({ signed_today: false, today_streak_day: expect.any(Number) });
      const paid = await signedIn(c);
      expect(paid.day).toBe(day);
      expect(paid.amount).toBe(String(paid.streak));
      streaks.push(paid.streak);
      const again = await signIn(t, c.token);
      expect(again.reason).toBe('SIGNIN_ALREADY_TODAY');
      expect(again.params).toEqual({ day });
      const after = await info(t, c.token);
      expect(after.data.me).toMatchObject({
        signed_today: true,
        streak: paid.streak,
        today_streak_day: null,
      });
    }
    expect(streaks).toEqual([1, 2, 3, 4, 5, 6, 7, 1, 1]);
    // 1+2+…+7 + 1 + 1 = 30 USDT, from the budget to the customer, nothing else.
    expect(await spotUnits(t, c.id)).toBe(USDT(30));
    expect(before - (await budgetUnits(t))).toBe(USDT(30));
    // Day 11 with day 10 signed: the streak is alive at 1 and day 2 is next.
    at('2026-12-11T12:00:00Z');
    expect((await info(t, c.token)).data.me).toMatchObject({
      streak: 1,
      today_streak_day: 2,
      today_amount: '2',
    });
    // Day 13 without day 12: it has reset.
    at('2026-12-13T12:00:00Z');
    expect((await info(t, c.token)).data.me).toMatchObject({ streak: 0, today_streak_day: 1 });
  }, 60_000);

  it('Asia/Shanghai: the day turns at 16:00 UTC; changing the zone never pays a day twice', async () => {
    await setProgramme(t, { time_zone: 'Asia/Shanghai' });
    const c = await customer(t, 'sgn');
    at('2026-12-20T15:59:59Z');
    const first = await info(t, c.token);
    expect(first.data).toMatchObject({
      today: '2026-12-20',
      next_boundary_at: Date.parse('2026-12-20T16:00:00Z'),
    });
    expect(await signedIn(c)).toMatchObject({ day: '2026-12-20', streak: 1 });
    at('2026-12-20T16:00:00Z');
    expect(await signedIn(c)).toMatchObject({ day: '2026-12-21', streak: 2 });
    at('2026-12-20T23:59:59Z');
    expect((await signIn(t, c.token)).reason).toBe('SIGNIN_ALREADY_TODAY');
    // Switched to UTC it is still the 20th there: a day at or before the last one signed pays nothing.
    await setProgramme(t, { time_zone: 'UTC' });
    const utc = await signIn(t, c.token);
    expect(utc.reason).toBe('SIGNIN_ALREADY_TODAY');
    expect(utc.params).toEqual({ day: '2026-12-20' });
    at('2026-12-22T00:00:01Z');
    expect(await signedIn(c)).toMatchObject({ day: '2026-12-22', streak: 3 });
    expect(await spotUnits(t, c.id)).toBe(USDT(1 + 2 + 3));
  });
});

describe('exactly once', () => {
  it('a race of sign-ins on one day gives one credit', async () => {
    await setProgramme(t);
    at('2027-01-05T10:00:00Z');
    const c = await customer(t, 'sgn');
    const answers = await Promise.all(Array.from({ length: 6 }, () => signIn(t, c.token)));
    expect(answers.filter((a) => a.code === 1)).toHaveLength(1);
    for (const a of answers.filter((x) => x.code !== 1)) expect(a.reason).toBe('SIGNIN_ALREADY_TODAY');
    expect(await spotUnits(t, c.id)).toBe(USDT(1));
    const rows = await t.db.selectFrom('signin_claim').selectAll().where('customer_id', '=', c.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('the same rtoken replays the first answer; a retry after a lost answer pays nothing more', async () => {
    await setProgramme(t);
    at('2027-01-06T10:00:00Z');
    const c = await customer(t, 'sgn');
    const first = await signIn(t, c.token, 'rt-sign-once');
    const replay = await signIn(t, c.token, 'rt-sign-once');
    expect(first.code).toBe(1);
    expect(replay).toMatchObject({ code: 1, data: first.data });
    // The answer lost after the commit: the app retries with a new rtoken.
    expect((await signIn(t, c.token, 'rt-sign-twice')).reason).toBe('SIGNIN_ALREADY_TODAY');
    expect(await spotUnits(t, c.id)).toBe(USDT(1));
  });

  it('a crash between the entry and the claim row commits neither; the retry pays once', async () => {
    await setProgramme(t);
    at('2027-01-07T10:00:00Z');
    const c = await customer(t, 'sgn');
    const ledger = ledgerOf(t);
    const crashing = createSignin({
      db: t.db,
      clock: t.clock,
      log: testLogger(),
      ledger: {
        ...ledger,
        post: async (q, entry) => {
          const posted = await ledger.post(q, entry);
          if (entry.reason === 'reward.signin') throw new Error('process killed after the entry');
          return posted;
        },
      },
      audit: t.app.audit,
      promoIncentives: async () => true,
      primaryVerified: async () => true,
      customerUids: async () => new Map(),
    });
    const auth = { customerId: c.id, sessionId: 'ses_x', isDemo: false, token: '' };
    const budget = await budgetUnits(t);
    await expect(crashing.claim(auth)).rejects.toThrow(/process killed/);
    expect(await spotUnits(t, c.id)).toBe(0n);
    expect(await budgetUnits(t)).toBe(budget);
    expect(await signinOf(t).claim(auth)).toMatchObject({ streak: 1, amount: '1' });
    await expect(signinOf(t).claim(auth)).rejects.toMatchObject({ reason: 'SIGNIN_ALREADY_TODAY' });
    expect(await spotUnits(t, c.id)).toBe(USDT(1));
  });
});

describe('the budget', () => {
  it('runs out: SIGNIN_BUDGET_EMPTY, the programme says so, and it is never negative', async () => {
    await setProgramme(t);
    at('2027-02-01T10:00:00Z');
    // Bring the budget down to 2 USDT: one customer's day-1 reward takes the rest.
    const drain = (await budgetUnits(t)) - USDT(2);
    expect(drain % USDT(1)).toBe(0n);
    await setProgramme(t, { amounts: Array(7).fill((drain / USDT(1)).toString()) });
    await signedIn(await customer(t, 'sgn'));
    expect(await budgetUnits(t)).toBe(USDT(2));
    await setProgramme(t);
    const racers = await Promise.all(Array.from({ length: 5 }, () => customer(t, 'sgn')));
    const answers = await Promise.all(racers.map((c) => signIn(t, c.token)));
    expect(answers.filter((a) => a.code === 1)).toHaveLength(2);
    for (const a of answers.filter((x) => x.code !== 1)) {
      expect(a.reason).toBe('SIGNIN_BUDGET_EMPTY');
      expect(a.params).toEqual({ amount: '1', currency: 'USDT' });
    }
    expect(await budgetUnits(t)).toBe(0n);
    expect((await info(t, null)).data).toMatchObject({ state: 'budget_empty', budget_remaining: '0' });
    await fundBudget(t, '10');
    expect((await info(t, null)).data).toMatchObject({ state: 'on', budget_remaining: '10' });
  });
});

describe('when the programme refuses', () => {
  it('off, forbidden by the jurisdiction profile, verification required: each named', async () => {
    at('2027-03-01T10:00:00Z');
    const c = await customer(t, 'sgn');
    await setProgramme(t, { enabled: false });
    expect((await info(t, null)).data.state).toBe('off');
    expect((await signIn(t, c.token)).reason).toBe('SIGNIN_OFF');

    await setProgramme(t);
    await t.app.jurisdiction.select(staffA, { profile: 'eu_retail', reason: 'test profile' });
    try {
      expect((await info(t, null)).data.state).toBe('profile_forbids');
      expect((await signIn(t, c.token)).reason).toBe('SIGNIN_PROFILE_FORBIDS');
    } finally {
      await t.app.jurisdiction.select(staffA, { profile: 'permissive', reason: 'test profile back' });
    }

    await setProgramme(t, { verification: 'primary' });
    expect((await info(t, c.token)).data.me).toMatchObject({ verified: false, book: 'real' });
    expect((await signIn(t, c.token)).reason).toBe('SIGNIN_VERIFICATION_REQUIRED');
    expect(await spotUnits(t, c.id)).toBe(0n);
    await setProgramme(t);
    expect((await signIn(t, c.token)).code).toBe(1);
  });

  it('needs a session to sign in', async () => {
    const a = await call(t.app, { call: 'signin', fields: {} });
    expect(a.reason).toBe('LOGIN_REQUIRED');
  });
});

describe('demo accounts', () => {
  it('are paid virtual money in the demo book; the real budget is untouched', async () => {
    await setProgramme(t, { verification: 'primary' });
    at('2027-04-01T10:00:00Z');
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
    expect(demo.code).toBe(1);
    const token = demo.data.token as string;
    const row = await t.db
      .selectFrom('accounts_customer')
      .select('id')
      .where('uid', '=', demo.data.uid)
      .executeTakeFirstOrThrow();
    const real = await budgetUnits(t);
    const spot = await spotUnits(t, row.id, 'demo');
    expect((await info(t, token)).data.me).toMatchObject({ book: 'demo', verified: true });
    const a = await signIn(t, token);
    expect(a.code, a.reason).toBe(1);
    expect((await spotUnits(t, row.id, 'demo')) - spot).toBe(USDT(1));
    expect(await budgetUnits(t)).toBe(real);
    expect(await budgetUnits(t, 'demo')).toBe(0n);
    await setProgramme(t);
  });

  it('leaves a ledger that verifies clean', async () => {
    expect((await ledgerOf(t).verify()).ok).toBe(true);
  });
});
