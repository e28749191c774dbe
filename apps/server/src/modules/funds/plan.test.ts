import { baseUnits, mathOf, notionalUnits, parseRate, spotFee } from '@bourse/risk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NAV_BASE, NAV_ONE, navOf, positionsFor, positionsValue } from './models.ts';
import {
  budgets,
  driftOf,
  type PlanMarket,
  planBuy,
  priceTicksUp,
  rebalanceTargets,
  unitsOf,
  weightsOf,
  worthOf,
} from './plan.ts';
import type { StoredWeight } from './tables.ts';

/** The money rules of an ETF order, pure: fast-check over amounts, prices, fee rates and weights. */

const BTC: PlanMarket = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  math: mathOf({ base: 'BTC', quote: 'USDT', priceTick: '0.01', lotSize: '0.00001' }),
  takerFeeRate: '0.002',
  minQtyLots: 1n,
  minNotionalUnits: 5n * 10n ** 8n,
};
const ETH: PlanMarket = {
  symbol: 'ETH/USDT',
  base: 'ETH',
  math: mathOf({ base: 'ETH', quote: 'USDT', priceTick: '0.01', lotSize: '0.0001' }),
  takerFeeRate: '0.002',
  minQtyLots: 1n,
  minNotionalUnits: 5n * 10n ** 8n,
};
const WEIGHTS: StoredWeight[] = [
  { asset: 'BTC', symbol: 'BTC/USDT', weight_bps: 4000 },
  { asset: 'ETH', symbol: 'ETH/USDT', weight_bps: 3000 },
  { asset: 'USDT', symbol: null, weight_bps: 3000 },
];

const price = fc
  .tuple(fc.integer({ min: 1, max: 500_000 }), fc.integer({ min: 0, max: 99 }))
  .map(([i, c]) => `${i}.${String(c).padStart(2, '0')}`);
const usdtUnits = fc.bigInt({ min: 0n, max: 10n ** 15n });
const rate = fc.constantFrom('0', '0.001', '0.002', '0.005', '0.01');

describe('ETF order money (pure)', () => {
  it('a buy never costs more than its budget at the reference price, and one more lot would', () => {
    fc.assert(
      fc.property(usdtUnits, price, rate, fc.constantFrom(BTC, ETH), (budget, p, r, base) => {
        const m = { ...base, takerFeeRate: r };
        const plan = planBuy(m, budget, p);
        const ticks = priceTicksUp(m.math, p);
        const fee = parseRate(r);
        if (plan.tooSmall) {
          expect(plan.quantityUnits).toBe(0n);
          return;
        }
        const v = notionalUnits(m.math, ticks, plan.qtyLots);
        expect(plan.valueUnits).toBe(v);
        expect(plan.feeUnits).toBe(spotFee(v, fee));
        expect(v + spotFee(v, fee)).toBeLessThanOrEqual(budget);
        expect(plan.quantityUnits).toBe(baseUnits(m.math, plan.qtyLots));
        const next = notionalUnits(m.math, ticks, plan.qtyLots + 1n);
        expect(next + spotFee(next, fee)).toBeGreaterThan(budget);
      }),
      { numRuns: 500 },
    );
  });

  it('budgets never add up to more than the amount; the remainder is cash', () => {
    fc.assert(
      fc.property(usdtUnits, (amount) => {
        const b = budgets(WEIGHTS, amount);
        let total = 0n;
        for (const v of b.values()) total += v;
        expect(total).toBeLessThanOrEqual(amount);
        expect(amount - total).toBeLessThan(BigInt(WEIGHTS.length));
      }),
    );
  });

  it('the model starts at NAV 1.0000 and moves with prices; after a reset to targets its drift is small', () => {
    fc.assert(
      fc.property(price, price, price, price, (p1, p2, q1, q2) => {
        const start = new Map([
          ['BTC/USDT', p1],
          ['ETH/USDT', p2],
        ]);
        const positions = positionsFor(WEIGHTS, NAV_BASE * NAV_ONE, start);
        expect(navOf(positionsValue(WEIGHTS, positions, start))).toBe(NAV_ONE);
        const later = new Map([
          ['BTC/USDT', q1],
          ['ETH/USDT', q2],
        ]);
        const value = positionsValue(WEIGHTS, positions, later);
        const reset = positionsFor(WEIGHTS, value, later);
        expect(positionsValue(WEIGHTS, reset, later)).toBe(value);
        const values = new Map<string, bigint>();
        for (const w of WEIGHTS)
          values.set(
            w.asset,
            w.symbol
              ? worthOf(w.asset, BigInt(reset[w.asset] ?? '0'), later.get(w.symbol) ?? '0')
              : BigInt(reset.USDT ?? '0'),
          );
        expect(driftOf(values, WEIGHTS)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('a rebalance sells only over-weight assets and buys only under-weight ones, by the gap', () => {
    fc.assert(
      fc.property(usdtUnits, usdtUnits, usdtUnits, (btc, eth, cash) => {
        const values = new Map([
          ['BTC', btc],
          ['ETH', eth],
          ['USDT', cash],
        ]);
        const total = btc + eth + cash;
        const trades = rebalanceTargets(values, WEIGHTS);
        const sells = trades.filter((t) => t.side === 'sell');
        const firstBuy = trades.findIndex((t) => t.side === 'buy');
        if (firstBuy >= 0) expect(trades.slice(firstBuy).every((t) => t.side === 'buy')).toBe(true);
        for (const t of trades) {
          const w = WEIGHTS.find((x) => x.asset === t.asset) as StoredWeight;
          const target = (total * BigInt(w.weight_bps)) / 10_000n;
          const now = values.get(t.asset) ?? 0n;
          expect(t.valueUnits).toBe(t.side === 'sell' ? now - target : target - now);
          expect(t.valueUnits).toBeGreaterThan(0n);
        }
        expect(sells.every((s) => (values.get(s.asset) ?? 0n) >= s.valueUnits)).toBe(true);
        const weights = weightsOf(values);
        let sum = 0;
        for (const v of weights.values()) sum += v;
        expect(sum).toBeLessThanOrEqual(10_000);
      }),
    );
  });

  it('units are the cost over the NAV at purchase, rounded down', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 14n }),
        fc.bigInt({ min: 1n, max: 10n ** 10n }),
        (cost, nav) => {
          const units = unitsOf(cost, nav);
          expect(units * nav).toBeLessThanOrEqual(cost * NAV_ONE);
          expect((units + 1n) * nav).toBeGreaterThan(cost * NAV_ONE);
        },
      ),
    );
  });
});
