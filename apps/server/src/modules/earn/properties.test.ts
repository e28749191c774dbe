import { parseUnitsOrThrow } from '@bourse/money';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { testLogger } from '../../../test/logwatch.ts';
import type { AuthContext } from '../../http/context.ts';
import { Refusal } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { ledgerOf, USDT } from '../assets/testing.ts';
import type { EarnDeps } from './context.ts';
import { createEarn } from './service.ts';
import { fundCode, platformUnits, productBody, reserveCode, staffA, staffB } from './testing.ts';

/**
 * Property tests over random purchases, days, redemptions and crashes, against the real engine on
 * PostgreSQL (the earn service built here with a crash hook inside each order-day's transaction;
 * verification, rating and prices are out of the picture):
 *
 * - rewards paid ≤ reserved, per order;
 * - funded = funding balance + reserve + rewards kept by customers, and returned = what came back;
 * - accrual exactly once per order-day across crashes, and no due day missed after a clean run;
 * - penalty ≤ accrued under the default rule (and ≤ principal under every rule);
 * - the quote equals the posting;
 * - the ledger's invariants hold (verify).
 */

let t: TestApp;
let crashAt = -1;
let calls = 0;
let earn: ReturnType<typeof createEarn>;

class Crash extends Error {}
/** What the runs exercised: the property is only as good as what it reached. */
const seen = { crashes: 0, accruals: 0, redeemed: 0, matured: 0, expired: 0 };

beforeAll(async () => {
  t = await startTestApp();
  t.app.earn.job.stop(); // the app's own job would race this test's crash schedule
  const deps: EarnDeps = {
    db: t.db,
    clock: t.clock,
    log: testLogger(),
    ledger: ledgerOf(t),
    audit: t.app.audit,
    jurisdiction: t.app.jurisdiction,
    requireFeature: async () => {},
    featureTier: async () => 'none',
    tierApproved: async () => true,
    rating: async () => 'aggressive',
    ratingCaps: { checkCap: async () => {} },
    usdtValue: (_c, units) => units,
    vipInputs: async () => ({ volume30d: 0n, balance: 0n }),
    afterAccrualPost: () => {
      calls += 1;
      if (calls === crashAt) throw new Crash('crash inside an order-day');
    },
  };
  earn = createEarn(deps);
}, 120_000);
afterAll(async () => t?.close());

const HOUR = 3_600_000;
const units = (text: string) => parseUnitsOrThrow(text, { scale: 8 });

type Cmd =
  | { kind: 'buy'; who: number; amount: number }
  | { kind: 'wait'; hours: number }
  | { kind: 'job'; crash: number }
  | { kind: 'redeem'; pick: number; late: boolean };

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({
    kind: fc.constant('buy' as const),
    who: fc.nat(2),
    amount: fc.integer({ min: 100, max: 3000 }),
  }),
  fc.record({ kind: fc.constant('wait' as const), hours: fc.integer({ min: 1, max: 60 }) }),
  fc.record({ kind: fc.constant('job' as const), crash: fc.integer({ min: 0, max: 4 }) }),
  fc.record({ kind: fc.constant('redeem' as const), pick: fc.nat(20), late: fc.boolean() }),
);

const product = fc.record({
  term: fc.integer({ min: 1, max: 6 }),
  rate: fc.constantFrom('1', '3.65', '7.5', '12.3456', '50'),
  rule: fc.constantFrom('forfeit_rewards', 'forfeit_rewards', 'principal_percent', 'principal_daily'),
  penalty: fc.constantFrom('0.4', '5', '100'),
  delay: fc.constantFrom(0, 0, 1),
  funding: fc.integer({ min: 1, max: 40 }),
});

function auth(customerId: string): AuthContext {
  return { customerId, sessionId: 'ses_prop', isDemo: false, token: 'x' };
}

describe('earn properties', () => {
  it('hold over random purchases, days, redemptions and crashes', async () => {
    await fc.assert(
      fc.asyncProperty(product, fc.array(cmd, { minLength: 4, maxLength: 18 }), async (pp, cmds) => {
        const f = await earn.createFunding(staffA, {
          name: 'prop',
          source: { en: 'x', zh: 'x', ft: 'x' },
          currency: 'USDT',
          reason: 'property test',
        });
        if (!f) throw new Error('no funding');
        const funded = USDT(pp.funding);
        const r = await earn.requestFunding(staffA, f.funding_id, {
          amount: String(pp.funding),
          reason: 'prop',
        });
        await earn.decideFunding(staffB, r.request_id, 'approve', 'prop');
        const principal = pp.rule !== 'forfeit_rewards';
        const p = await earn.createProduct(
          staffA,
          productBody(f.funding_id, {
            term_days: pp.term,
            annual_rate: pp.rate,
            max_amount: '5000',
            capacity: '20000',
            redeem_rule: pp.rule as 'forfeit_rewards',
            ...(principal ? { penalty_rate: pp.penalty } : {}),
            redeem_delay_days: pp.delay,
            // Principal penalties exist only where a profile allows them (eu_retail never does).
            jurisdictions: principal ? ['permissive'] : ['permissive', 'eu_retail', 'custom'],
          }),
        );
        if (!p) throw new Error('no product');
        await earn.productState(staffA, p.product_id, { action: 'open', reason: 'prop' });
        const customers = [newId('usr'), newId('usr'), newId('usr')];
        const start = new Map<string, bigint>();
        for (const c of customers) {
          await ledgerOf(t).credit(t.db, {
            book: 'real',
            customerId: c,
            accountType: 'spot',
            currency: 'USDT',
            amountUnits: USDT(6000),
            from: 'deposits_clearing',
            reason: 'deposit.test',
            reference: { type: 'test', id: c },
            idempotencyKey: `prop-fund:${c}`,
          });
          start.set(c, USDT(6000));
        }
        const orders: { id: string; customer: string }[] = [];
        const penalties = new Map<string, bigint>();
        for (const c of cmds) {
          if (c.kind === 'buy') {
            const who = customers[c.who] as string;
            try {
              const o = await earn.buy(
                auth(who),
                { product_id: p.product_id, amount: String(c.amount), accept_terms: '1' },
                'en',
              );
              if (o) orders.push({ id: o.order_id, customer: who });
            } catch (error) {
              if (!(error instanceof Refusal)) throw error;
              expect([
                'EARN_ABOVE_MAX',
                'EARN_CAPACITY',
                'EARN_RESERVE_SHORT',
                'INSUFFICIENT_BALANCE',
                'EARN_REWARD_ZERO',
              ]).toContain(error.reason);
            }
          } else if (c.kind === 'wait') {
            t.clock.advance(c.hours * HOUR);
          } else if (c.kind === 'job') {
            calls = 0;
            crashAt = c.crash; // 0: no crash; k: the k-th order-day of this run dies after its ledger entry
            try {
              await earn.job.runOnce();
            } catch (error) {
              if (!(error instanceof Crash)) throw error;
              seen.crashes += 1;
            }
            crashAt = -1;
          } else if (orders.length > 0) {
            const o = orders[c.pick % orders.length] as { id: string; customer: string };
            let q: Awaited<ReturnType<typeof earn.quote>>;
            try {
              q = await earn.quote(auth(o.customer), o.id);
            } catch (error) {
              if (!(error instanceof Refusal)) throw error;
              expect(['EARN_ORDER_NOT_RUNNING']).toContain(error.reason);
              continue;
            }
            const row = await t.db
              .selectFrom('earn_order')
              .selectAll()
              .where('id', '=', o.id)
              .executeTakeFirstOrThrow();
            // Penalty ≤ accrued under the default rule (it is zero); never above the principal.
            if (pp.rule === 'forfeit_rewards') expect(q.penalty).toBe('0');
            expect(units(q.penalty)).toBeLessThanOrEqual(units(q.principal));
            expect(units(q.rewards_forfeited)).toBe(BigInt(row.accrued_units));
            expect(units(q.returned)).toBe(units(q.principal) - units(q.penalty));
            if (c.late) t.clock.advance(60_001);
            const spotBefore = (
              await ledgerOf(t).balance(t.db, {
                book: 'real',
                customerId: o.customer,
                accountType: 'spot',
                currency: 'USDT',
              })
            ).availableUnits;
            try {
              const sold = await earn.sell(auth(o.customer), { order_id: o.id, quote_id: q.quote_id }, 'en');
              expect(c.late).toBe(false);
              // The quote equals the posting.
              expect(sold?.redemption).toMatchObject({
                principal_returned: q.returned,
                rewards_forfeited: q.rewards_forfeited,
                penalty: q.penalty,
              });
              const spotAfter = (
                await ledgerOf(t).balance(t.db, {
                  book: 'real',
                  customerId: o.customer,
                  accountType: 'spot',
                  currency: 'USDT',
                })
              ).availableUnits;
              const returned = units(q.returned);
              expect(spotAfter - spotBefore).toBe(pp.delay === 0 ? returned : 0n);
              penalties.set(o.id, units(q.penalty));
              seen.redeemed += 1;
              expect(row.state).toBe('in_custody');
            } catch (error) {
              if (!(error instanceof Refusal)) throw error;
              expect(c.late).toBe(true);
              expect(error.reason).toBe('EARN_QUOTE_EXPIRED');
              seen.expired += 1;
            }
          }
        }
        // A clean run at the end: nothing due may be left behind.
        calls = 0;
        await earn.job.runOnce();
        const now = t.clock.now();

        const rows = await t.db
          .selectFrom('earn_order')
          .selectAll()
          .where('product_id', '=', p.product_id)
          .execute();
        let totalReserved = 0n;
        let kept = 0n;
        let returned = 0n;
        for (const o of rows) {
          const accruals = await t.db
            .selectFrom('earn_accrual')
            .selectAll()
            .where('order_id', '=', o.id)
            .orderBy('day')
            .execute();
          // Exactly once per order-day: days 1…n, one entry each under its key.
          expect(accruals.map((a) => a.day)).toEqual(Array.from({ length: o.days_accrued }, (_, i) => i + 1));
          const { rows: keys } = await sql<{ n: string }>`
            select count(*)::text as n from ledger_entry where idempotency_key like ${`earn:accrual:${o.id}:%`}`.execute(
            t.db,
          );
          expect(Number(keys[0]?.n)).toBe(o.days_accrued);
          const paid = accruals.reduce((s, a) => s + BigInt(a.amount_units), 0n);
          expect(paid).toBe(BigInt(o.accrued_units));
          // Rewards paid ≤ reserved.
          expect(paid).toBeLessThanOrEqual(BigInt(o.total_reward_units));
          totalReserved += BigInt(o.total_reward_units);
          const forfeited = BigInt(o.rewards_forfeited_units ?? '0');
          kept += paid - forfeited;
          if (o.state === 'redeeming' || o.state === 'redeemed')
            returned += forfeited + BigInt(o.total_reward_units) - paid;
          // No day left behind: an order in custody has every cut-off up to now posted.
          if (o.state === 'in_custody')
            expect((o.next_accrual_at as Date).getTime()).toBeGreaterThan(now.getTime());
          if (o.state === 'completed') expect(o.days_accrued).toBe(o.term_days);
          if (o.state === 'completed') seen.matured += 1;
          seen.accruals += accruals.length;
        }
        const fundNow = await platformUnits(t, fundCode(f.funding_id));
        const reserveNow = await platformUnits(t, reserveCode(p.product_id));
        // Reserve + paid + returned = funded (as balances: the returned part is back in the funding account).
        expect(fundNow + reserveNow + kept).toBe(funded);
        expect(fundNow).toBe(funded - totalReserved + returned);
        // Each customer: what they had, plus rewards kept, minus penalties, across spot and earn.
        for (const c of customers) {
          const mine = rows.filter((o) => o.customer_id === c);
          const keptMine = mine.reduce(
            (s, o) => s + BigInt(o.accrued_units) - BigInt(o.rewards_forfeited_units ?? '0'),
            0n,
          );
          const penaltyMine = mine.reduce((s, o) => s + (penalties.get(o.id) ?? 0n), 0n);
          const bals = await ledgerOf(t).balances(t.db, { customerId: c });
          const total = bals.reduce((s, b) => s + b.availableUnits + b.frozenUnits, 0n);
          expect(total).toBe((start.get(c) as bigint) + keptMine - penaltyMine);
        }
        expect((await ledgerOf(t).verify()).ok).toBe(true);
      }),
      { numRuns: 25 },
    );
    expect(seen.crashes).toBeGreaterThan(0);
    expect(seen.accruals).toBeGreaterThan(0);
    expect(seen.redeemed).toBeGreaterThan(0);
    expect(seen.matured).toBeGreaterThan(0);
    expect(seen.expired).toBeGreaterThan(0);
  }, 600_000);
});
