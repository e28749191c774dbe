import { ratio } from '@bourse/risk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PositionRow, positionOf } from './core.ts';
import { evaluateEach, InstrumentBooks, type TickPrices } from './evaluate.ts';
import type { InstrumentInfo } from './math.ts';

/**
 * The engine's per-instrument evaluation through `@bourse/risk`'s PositionBook (InstrumentBooks)
 * against the reference that checks every position one by one (evaluateEach, what the engine did
 * before): the same actions — kind, position and price — on every tick of random paths, with
 * positions at several liquidation levels, with and without TP/SL, some with no margin left, some
 * opened on a later tick, and a conversion rate that moves (a non-USD quote).
 */
const SEED = Number(process.env.PROPERTY_SEED ?? 20261121);
const I: InstrumentInfo = {
  id: 'ins_test',
  symbol: 'EUR/JPY',
  name: 'test',
  assetClass: 'forex',
  base: 'EUR',
  quote: 'JPY',
  priceTick: '0.001',
  priceScale: 3,
  tickUnits: 1n,
  lotSize: '0.01',
  lotUnits: 1_000_000n,
  contractSize: '1000',
  maxLeverage: 100,
  expiryAt: null,
};
const price = (units: bigint) => {
  const s = units.toString().padStart(4, '0');
  return `${s.slice(0, -3)}.${s.slice(-3)}`;
};
const AT = new Date('2026-11-23T10:00:00Z');

function row(input: {
  n: number;
  side: 'buy' | 'sell';
  openUnits: bigint;
  lots: number;
  marginUnits: bigint;
  tp: bigint | null;
  sl: bigint | null;
  level: string;
  openSeq: number;
}): PositionRow {
  const lots = (BigInt(input.lots) * 1_000_000n).toString();
  return {
    id: `cpo_${String(input.n).padStart(5, '0')}`,
    customer_id: 'cus_x',
    book: 'real',
    symbol: I.symbol,
    instrument_id: I.id,
    order_id: `cor_${input.n}`,
    side: input.side,
    leverage: 10,
    lots_units: lots,
    opened_lots_units: lots,
    open_price: price(input.openUnits),
    open_price_source: 'test',
    open_price_at: AT,
    open_tick_seq: String(input.openSeq),
    open_rate: '0.0066',
    margin_units: input.marginUnits.toString(),
    fee_units: '0',
    funding_units: '0',
    realized_pnl_units: '0',
    tp_price: input.tp === null ? null : price(input.tp),
    sl_price: input.sl === null ? null : price(input.sl),
    fee_per_lot: '0',
    liquidation_level: input.level,
    status: 'open',
    close_reason: null,
    close_price: null,
    close_price_source: null,
    close_price_at: null,
    opened_at: AT,
    closed_at: null,
    updated_at: AT,
  };
}

const positionArb = fc.record({
  side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
  open: fc.integer({ min: 150_000, max: 170_000 }),
  lots: fc.integer({ min: 1, max: 500 }),
  marginUnits: fc.oneof(
    { weight: 12, arbitrary: fc.bigInt({ min: 1n, max: 2_000_000_000n }) },
    { weight: 1, arbitrary: fc.constant(0n) },
  ),
  tp: fc.option(fc.integer({ min: 100, max: 8_000 }), { freq: 2 }),
  sl: fc.option(fc.integer({ min: 100, max: 8_000 }), { freq: 2 }),
  level: fc.constantFrom('0.8', '0.5', '1', '0.95'),
  openSeq: fc.integer({ min: 0, max: 6 }),
});
const tickArb = fc.record({
  mid: fc.integer({ min: 140_000, max: 180_000 }),
  half: fc.integer({ min: 0, max: 20 }),
  markOff: fc.integer({ min: -10, max: 10 }),
  rateDen: fc.constantFrom(150n, 151n, 149n),
});

describe('InstrumentBooks (PositionBook) gives exactly the per-position evaluation', () => {
  it('on random books and paths, tick by tick', () => {
    const kinds: Record<string, number> = {};
    fc.assert(
      fc.property(
        fc.array(positionArb, { minLength: 0, maxLength: 60 }),
        fc.array(tickArb, { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 0, max: 5 }),
        fc.constantFrom(0, 1, 3),
        (specs, path, spread, bookAfterTicks) => {
          const positions = specs.map((s, n) => {
            const open = BigInt(s.open);
            const up = (d: number) => open + BigInt(d);
            const down = (d: number) => open - BigInt(d);
            return positionOf(
              row({
                n,
                side: s.side,
                openUnits: open,
                lots: s.lots,
                marginUnits: s.marginUnits,
                tp: s.tp === null ? null : s.side === 'buy' ? up(s.tp) : down(s.tp),
                sl: s.sl === null ? null : s.side === 'buy' ? down(s.sl) : up(s.sl),
                level: s.level,
                openSeq: s.openSeq,
              }),
              I,
            );
          });
          const spreadUnits = BigInt(spread);
          const books = new InstrumentBooks(I, spreadUnits, positions, { bookAfterTicks });
          let remaining = positions;
          let acted = 0;
          path.forEach((t, k) => {
            const mid = BigInt(t.mid);
            const tick: TickPrices = {
              seq: BigInt(k + 1),
              bidUnits: mid - BigInt(t.half),
              askUnits: mid + BigInt(t.half),
              markUnits: mid + BigInt(t.markOff),
            };
            const toUsdt = ratio(1n, t.rateDen);
            const expected = evaluateEach({ i: I, positions: remaining, tick, spreadUnits, toUsdt });
            const got = books.evaluate(tick, toUsdt);
            expect(got).toEqual(expected);
            const closed = new Set(got.map((a) => a.id));
            for (const id of closed) books.remove(id);
            remaining = remaining.filter((p) => !closed.has(p.id));
            acted += got.length;
            for (const a of got) kinds[a.kind] = (kinds[a.kind] ?? 0) + 1;
          });
          expect(books.size).toBe(remaining.length);
          return acted >= 0;
        },
      ),
      { seed: SEED, numRuns: 400 },
    );
    // every kind of action happened, many times
    for (const kind of ['take_profit', 'stop_loss', 'liquidation'])
      expect(kinds[kind] ?? 0).toBeGreaterThan(50);
  });

  it('a stop-loss beyond the liquidation price: the liquidation comes first only when the SL has not hit', () => {
    // long 1 lot at 160.000, margin 100 JPY-worth → liquidation near the open; SL far below
    const p = positionOf(
      row({
        n: 1,
        side: 'buy',
        openUnits: 160_000n,
        lots: 100,
        marginUnits: 100_000_000n,
        tp: null,
        sl: 150_000n,
        level: '0.8',
        openSeq: 0,
      }),
      I,
    );
    const books = new InstrumentBooks(I, 0n, [p], { bookAfterTicks: 0 });
    const tick = { seq: 1n, bidUnits: 159_000n, askUnits: 159_000n, markUnits: 159_000n };
    const rate = ratio(1n, 150n);
    const got = books.evaluate(tick, rate);
    expect(got).toEqual(evaluateEach({ i: I, positions: [p], tick, spreadUnits: 0n, toUsdt: rate }));
    expect(got.map((a) => a.kind)).toEqual(['liquidation']);
  });
});
