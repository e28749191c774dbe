import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { customer, fund, ledgerOf, USDT } from '../assets/testing.ts';
import type { PlatformCode } from '../ledger/index.ts';
import { marketRef, replayJournal } from './testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  await t.app.market.step();
});
afterAll(async () => t?.close());

const RUNS = Number(process.env.SPOT_PROPERTY_RUNS ?? 6);

type Step =
  | {
      kind: 'limit';
      who: number;
      side: 'buy' | 'sell';
      priceOffset: number;
      lots: number;
      tif: 'GTC' | 'IOC' | 'FOK';
    }
  | { kind: 'market'; who: number; side: 'buy' | 'sell'; lots: number }
  | { kind: 'cancel'; who: number; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('limit' as const),
      who: fc.nat(3),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      priceOffset: fc.integer({ min: -5, max: 5 }),
      lots: fc.integer({ min: 1, max: 40 }),
      tif: fc.constantFrom('GTC' as const, 'GTC' as const, 'IOC' as const, 'FOK' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('market' as const),
      who: fc.nat(3),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      lots: fc.integer({ min: 1, max: 20 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('cancel' as const), who: fc.nat(3), pick: fc.nat(50) }),
  },
);

describe('spot invariants under random order streams (fast-check)', () => {
  it('ledger verifies, frozen = open-order needs, fees balance and the book equals its journal replay', async () => {
    const mark = Number(t.app.market.ticker('SOL/USDT').mark);
    const base = Math.round(mark * 100);
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 10, maxLength: 60 }),
        fc.boolean(),
        async (steps, concurrent) => {
          const people = await Promise.all([0, 1, 2, 3].map(() => customer(t)));
          for (const p of people) {
            await fund(t, p.id, 'USDT', USDT(5_000));
            await fund(t, p.id, 'SOL', 20n * 10n ** 9n);
          }
          const placed: Array<{ who: number; id: string }> = [];
          const run = async (s: Step) => {
            const p = people[s.who] as { token: string };
            let answer: Awaited<ReturnType<typeof call>>;
            if (s.kind === 'cancel') {
              const mine = placed.filter((o) => o.who === s.who);
              if (mine.length === 0) return;
              answer = await call(t.app, {
                call: 'cancelOrder',
                fields: { order_id: (mine[s.pick % mine.length] as { id: string }).id },
                headers: { token: p.token },
              });
              expect(['NOT_FOUND', 'ORDER_NOT_OPEN', undefined]).toContain(answer.reason);
              return;
            }
            const fields: Record<string, string> =
              s.kind === 'limit'
                ? {
                    symbol: 'SOL/USDT',
                    side: s.side,
                    price: ((base + s.priceOffset) / 100).toFixed(2),
                    quantity: (s.lots / 10).toFixed(3),
                    tif: s.tif,
                  }
                : { symbol: 'SOL/USDT', side: s.side, type: 'market', quantity: (s.lots / 10).toFixed(3) };
            answer = await call(t.app, { call: 'createOrder', fields, headers: { token: p.token } });
            expect(answer.status, JSON.stringify(answer)).toBe(200);
            if (answer.code === 1) placed.push({ who: s.who, id: answer.data.order_id });
            else expect(['INSUFFICIENT_BALANCE', 'ORDER_NOTIONAL_BELOW_MIN']).toContain(answer.reason);
          };
          if (concurrent) await Promise.all(steps.map(run));
          else for (const s of steps) await run(s);
          expect(await t.app.spot.checkFrozen()).toEqual([]);
          expect((await ledgerOf(t).verify()).ok).toBe(true);
          // Every trade's fees are in the market's fee account: the sum of the trades' fees equals what
          // the ledger holds there, and none went to the shared fee_income.
          const trades = await t.db
            .selectFrom('spot_trade')
            .select(['maker_fee_units', 'taker_fee_units', 'book'])
            .where('symbol', '=', 'SOL/USDT')
            .execute();
          const fees = trades
            .filter((r) => r.book === 'real')
            .reduce((sum, r) => sum + BigInt(r.maker_fee_units) + BigInt(r.taker_fee_units), 0n);
          const usdtIn = async (platform: PlatformCode) =>
            (await ledgerOf(t).platformBalances(t.db, { book: 'real', platform })).find(
              (b: { currency: string }) => b.currency === 'USDT',
            )?.availableUnits ?? 0n;
          expect(await usdtIn('spot_fees_sol_usdt')).toBe(fees);
          expect(await usdtIn('fee_income')).toBe(0n);
          const replay = await replayJournal(t.db, await marketRef(t.db, 'SOL/USDT'), 'real');
          expect(replay.hash()).toBe(t.app.spot.runner('SOL/USDT', 'real').hash());
        },
      ),
      { numRuns: RUNS },
    );
  }, 300_000);
});
