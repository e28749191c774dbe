import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ContractMath,
  executable,
  feeFor,
  fundingUsdt,
  liquidationBoundary,
  liquidationPrice,
  marginFor,
  notionalUsdt,
  optionOutcome,
  PositionBook,
  type PositionState,
  pnlUsdt,
  type Ratio,
  reachesLevel,
  releasedMargin,
  riskRate,
  type Side,
  tpSlTriggered,
} from './index.ts';

/**
 * Property tests against a reference written here, by another route: every quantity is an exact
 * rational { n, d } built from a decimal string ("65000.1" = 650001/10), multiplied out in
 * currency terms (price × lots × contract size × rate, in USDT) and only then rounded to 10^-8 with
 * a floor defined by the Euclidean remainder. Nothing from @bourse/money or the implementation's
 * helpers is used by the reference.
 */
const SEED = Number(process.env.PROPERTY_SEED ?? 20261122);
const RUNS = { seed: SEED, numRuns: 200 };

type Q = { n: bigint; d: bigint };
const q = (n: bigint, d = 1n): Q => (d < 0n ? { n: -n, d: -d } : { n, d });
const mul = (a: Q, b: Q): Q => q(a.n * b.n, a.d * b.d);
const sub = (a: Q, b: Q): Q => q(a.n * b.d - b.n * a.d, a.d * b.d);
const cmp = (a: Q, b: Q): number => {
  const l = a.n * b.d;
  const r = b.n * a.d;
  return l < r ? -1 : l > r ? 1 : 0;
};
/** ⌊n/d⌋ via the Euclidean remainder (d > 0). */
const qFloor = (a: Q): bigint => {
  const r = ((a.n % a.d) + a.d) % a.d;
  return (a.n - r) / a.d;
};
const qCeil = (a: Q): bigint => -qFloor(q(-a.n, a.d));
const qHalfUp = (a: Q): bigint => {
  // ties away from zero
  if (a.n < 0n) return -qHalfUp(q(-a.n, a.d));
  return qFloor(q(2n * a.n + a.d, 2n * a.d));
};
/** A decimal string as an exact rational. */
const dec = (s: string): Q => {
  const neg = s.startsWith('-');
  const body = neg ? s.slice(1) : s;
  const [i, f = ''] = body.split('.');
  const n = BigInt(`${i}${f}`) * (neg ? -1n : 1n);
  return q(n, 10n ** BigInt(f.length));
};
const USDT_UNIT = q(10n ** 8n);
const toUnits = (s: string, scale: number): bigint => {
  const [i, f = ''] = s.split('.');
  return BigInt(`${i}${f.padEnd(scale, '0')}`);
};

/** An instrument: scales, contract size and conversion, as the reference sees them (decimal strings). */
type Inst = { priceScale: number; size: string; rate: Q; m: ContractMath };
const instArb: fc.Arbitrary<Inst> = fc
  .record({
    priceScale: fc.integer({ min: 0, max: 8 }),
    size: fc.constantFrom('1', '100', '1000', '5000', '100000', '0.001', '10', '0.5'),
    rate: fc.oneof(
      fc.constant(q(1n)),
      fc.bigInt({ min: 1n, max: 10n ** 6n }).map((n) => q(n, 10n ** 6n)), // 0.000001 … 1
      fc.bigInt({ min: 1_000n, max: 10n ** 9n }).map((x) => q(1000n, x)), // 1 / 150.214 style
    ),
  })
  .map(({ priceScale, size, rate }) => ({
    priceScale,
    size,
    rate,
    m: { priceScale, contractSizeUnits: toUnits(size, 8), toUsdt: { num: rate.n, den: rate.d } },
  }));

/** A price as a decimal string with the instrument's scale, and its units. */
const priceArb = (scale: number) =>
  fc.bigInt({ min: 1n, max: 10n ** 12n }).map((u) => {
    const s = u.toString().padStart(scale + 1, '0');
    return scale === 0 ? s : `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}`;
  });
const lotsArb = fc.bigInt({ min: 1n, max: 10n ** 10n }).map((u) => {
  const s = u.toString().padStart(9, '0');
  return `${s.slice(0, s.length - 8)}.${s.slice(s.length - 8)}`;
});
const sideArb = fc.constantFrom<Side>('buy', 'sell');
const levelArb = fc.constantFrom('0.5', '0.8', '1', '0.95', '0.333', '0.1', '1.5');

/** Reference values in USDT (rationals), then rounded to USDT units. */
const refNotional = (i: Inst, price: string, lots: string): Q =>
  mul(mul(mul(dec(price), dec(lots)), dec(i.size)), i.rate);
const refPnl = (i: Inst, side: Side, open: string, close: string, lots: string): bigint => {
  const move = side === 'buy' ? sub(dec(close), dec(open)) : sub(dec(open), dec(close));
  return qFloor(mul(mul(mul(mul(move, dec(lots)), dec(i.size)), i.rate), USDT_UNIT));
};
/** Reference "risk rate reaches level" from the reference P&L at a price given in units. */
const refReaches = (
  i: Inst,
  side: Side,
  open: string,
  markUnits: bigint,
  lots: string,
  margin: bigint,
  level: string,
) => {
  const mark = fmt(markUnits, i.priceScale);
  const pnl = refPnl(i, side, open, mark, lots);
  const loss = pnl < 0n ? -pnl : 0n;
  return cmp(q(loss, margin), dec(level)) >= 0;
};
const fmt = (units: bigint, scale: number): string => {
  const s = units.toString().padStart(scale + 1, '0');
  return scale === 0 ? s : `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}`;
};
const ratioOf = (s: string): Ratio => {
  const r = dec(s);
  return { num: r.n, den: r.d };
};

describe('property: contract maths against the rational reference', () => {
  it('notional (half-up), margin (ceil ÷ leverage) and fee (ceil)', () => {
    fc.assert(
      fc.property(
        instArb.chain((i) =>
          fc.tuple(fc.constant(i), priceArb(i.priceScale), lotsArb, fc.integer({ min: 1, max: 100 })),
        ),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        ([i, price, lots, leverage], fee) => {
          const p = toUnits(price, i.priceScale);
          const l = toUnits(lots, 8);
          const exact = mul(refNotional(i, price, lots), USDT_UNIT);
          expect(notionalUsdt(i.m, p, l)).toBe(qHalfUp(exact));
          expect(marginFor(i.m, p, l, leverage)).toBe(qCeil(mul(exact, q(1n, BigInt(leverage)))));
          expect(feeFor(fee, l)).toBe(qCeil(mul(q(fee), dec(lots))));
        },
      ),
      RUNS,
    );
  });

  it('P&L is the exact value floored, and long P&L = −short P&L up to that rounding', () => {
    fc.assert(
      fc.property(
        instArb.chain((i) =>
          fc.tuple(fc.constant(i), priceArb(i.priceScale), priceArb(i.priceScale), lotsArb),
        ),
        sideArb,
        ([i, open, close, lots], side) => {
          const got = pnlUsdt(
            i.m,
            side,
            toUnits(open, i.priceScale),
            toUnits(close, i.priceScale),
            toUnits(lots, 8),
          );
          expect(got).toBe(refPnl(i, side, open, close, lots));
          const other = pnlUsdt(
            i.m,
            side === 'buy' ? 'sell' : 'buy',
            toUnits(open, i.priceScale),
            toUnits(close, i.priceScale),
            toUnits(lots, 8),
          );
          expect(got + other === 0n || got + other === -1n).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('risk rate = max(0, −P&L) ÷ margin, and reachesLevel agrees with the reference', () => {
    fc.assert(
      fc.property(
        instArb.chain((i) =>
          fc.tuple(fc.constant(i), priceArb(i.priceScale), priceArb(i.priceScale), lotsArb),
        ),
        sideArb,
        fc.bigInt({ min: 1n, max: 10n ** 14n }),
        levelArb,
        ([i, open, mark, lots], side, margin, level) => {
          const rate = riskRate(
            i.m,
            side,
            toUnits(open, i.priceScale),
            toUnits(mark, i.priceScale),
            toUnits(lots, 8),
            margin,
          );
          const pnl = refPnl(i, side, open, mark, lots);
          expect(cmp(q(rate.num, rate.den), q(pnl < 0n ? -pnl : 0n, margin))).toBe(0);
          expect(reachesLevel(rate, ratioOf(level))).toBe(
            refReaches(i, side, open, toUnits(mark, i.priceScale), lots, margin, level),
          );
        },
      ),
      RUNS,
    );
  });

  it('liquidation price: the grid price nearest to open that reaches the level (found by search), and the boundary holds', () => {
    fc.assert(
      fc.property(
        instArb.chain((i) => fc.tuple(fc.constant(i), priceArb(i.priceScale), lotsArb)),
        sideArb,
        fc.integer({ min: 1, max: 100 }),
        levelArb,
        fc.constantFrom(1n, 2n, 5n, 10n, 25n, 1000n),
        ([i, open, lots], side, leverage, level, tick) => {
          const o = toUnits(open, i.priceScale);
          const l = toUnits(lots, 8);
          const margin = marginFor(i.m, o, l, leverage);
          if (margin === 0n) return; // a zero conversion or dust: no position
          const got = liquidationPrice(i.m, side, o, l, margin, ratioOf(level), tick);
          const reaches = (x: bigint) => refReaches(i, side, open, x, lots, margin, level);
          // Reference: binary search over grid indices using only the reference P&L (monotone in price).
          let expected: bigint | null;
          if (side === 'buy') {
            let lo = 0n; // grid index known not to qualify or 0
            let hi = (o - 1n) / tick; // highest grid index below open
            if (hi < 1n || !reaches(tick)) expected = null;
            else {
              lo = 1n; // reaches at index lo
              while (lo < hi) {
                const mid = (lo + hi + 1n) / 2n;
                if (reaches(mid * tick)) lo = mid;
                else hi = mid - 1n;
              }
              expected = lo * tick;
            }
          } else {
            let lo = o / tick + 1n; // lowest grid index above open
            let hi = lo;
            while (!reaches(hi * tick)) hi *= 2n;
            while (lo < hi) {
              const mid = (lo + hi) / 2n;
              if (reaches(mid * tick)) hi = mid;
              else lo = mid + 1n;
            }
            expected = lo * tick;
          }
          expect(got).toBe(expected);
          if (got !== null) {
            const lv = ratioOf(level);
            expect(reachesLevel(riskRate(i.m, side, o, got, l, margin), lv)).toBe(true);
            const towards = side === 'buy' ? got + tick : got - tick;
            if (towards > 0n)
              expect(reachesLevel(riskRate(i.m, side, o, towards, l, margin), lv)).toBe(false);
          }
        },
      ),
      { ...RUNS, numRuns: 150 },
    );
  });

  it('funding: exact notional × rate, the payer rounded up and the receiver down', () => {
    fc.assert(
      fc.property(
        instArb.chain((i) => fc.tuple(fc.constant(i), priceArb(i.priceScale), lotsArb)),
        fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }).map((n) => q(n, 10n ** 8n)),
        ([i, mark, lots], rate) => {
          const r: Ratio = { num: rate.n, den: rate.d };
          const p = toUnits(mark, i.priceScale);
          const l = toUnits(lots, 8);
          const long = fundingUsdt(i.m, 'buy', p, l, r);
          const short = fundingUsdt(i.m, 'sell', p, l, r);
          const exact = mul(mul(refNotional(i, mark, lots), rate), USDT_UNIT);
          const payerUp = qCeil(exact.n < 0n ? q(-exact.n, exact.d) : exact);
          const receiverDown = qFloor(exact.n < 0n ? q(-exact.n, exact.d) : exact);
          if (exact.n >= 0n) {
            expect(long).toBe(-payerUp);
            expect(short).toBe(receiverDown);
          } else {
            expect(long).toBe(receiverDown);
            expect(short).toBe(-payerUp);
          }
          // What the long pays covers what the short receives: the platform never adds a unit.
          expect(long + short === 0n || long + short === -1n).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('options: won pays stake + ⌊stake × rate⌋, tied the stake, lost nothing', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'up' | 'down'>('up', 'down'),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 14n }),
        fc.constantFrom('0.85', '0.9', '0.7777', '1', '0', '0.123456789'),
        (direction, open, settle, stake, rate) => {
          const got = optionOutcome(direction, open, settle, stake, ratioOf(rate));
          const moved = cmp(q(settle), q(open));
          if (moved === 0) expect(got).toEqual({ status: 'tied', payoutUnits: stake });
          else if (moved > 0 === (direction === 'up'))
            expect(got).toEqual({
              status: 'won',
              payoutUnits: qFloor(mul(q(stake), sub(dec(rate), q(-1n)))),
            });
          else expect(got).toEqual({ status: 'lost', payoutUnits: 0n });
          expect(got.payoutUnits >= 0n).toBe(true);
        },
      ),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------- the position book

const BOOK_M: ContractMath = { priceScale: 1, contractSizeUnits: 100_000_000n, toUsdt: { num: 1n, den: 1n } };

/** The naive loop the book must equal: every position through tpSlTriggered, then riskRate/reachesLevel. */
function naive(
  m: ContractMath,
  level: Ratio,
  spread: bigint,
  positions: Iterable<PositionState>,
  tick: { bidUnits: bigint; askUnits: bigint; markUnits: bigint },
) {
  const ex = executable(tick.bidUnits, tick.askUnits, spread);
  const sl: string[] = [];
  const tp: string[] = [];
  const liq: string[] = [];
  for (const p of positions) {
    const t = tpSlTriggered(p.side, p.side === 'buy' ? ex.closeLong : ex.closeShort, p.tpUnits, p.slUnits);
    if (t === 'stop_loss') sl.push(p.id);
    else if (t === 'take_profit') tp.push(p.id);
    else if (
      reachesLevel(riskRate(m, p.side, p.openUnits, tick.markUnits, p.lotsUnits, p.marginUnits), level)
    )
      liq.push(p.id);
  }
  const close = (id: string, ps: Map<string, PositionState>) =>
    (ps.get(id) as PositionState).side === 'buy' ? ex.closeLong : ex.closeShort;
  return { sl: sl.sort(), tp: tp.sort(), liq: liq.sort(), close };
}

const positionArb = (id: string, around: bigint) =>
  fc
    .record({
      side: sideArb,
      open: fc.bigInt({ min: around - around / 5n, max: around + around / 5n }),
      lots: fc.bigInt({ min: 100_000n, max: 500_000_000n }),
      leverage: fc.integer({ min: 1, max: 100 }),
      tpOffset: fc.option(fc.bigInt({ min: 1n, max: around / 10n }), { freq: 2 }),
      slOffset: fc.option(fc.bigInt({ min: 1n, max: around / 10n }), { freq: 2 }),
      extraMargin: fc.bigInt({ min: 0n, max: 10n ** 10n }),
    })
    .map(({ side, open, lots, leverage, tpOffset, slOffset, extraMargin }): PositionState => {
      const margin = marginFor(BOOK_M, open, lots, leverage) + extraMargin;
      const up = (o: bigint | null) => (o === null ? null : open + o);
      const down = (o: bigint | null) => (o === null ? null : open - o > 0n ? open - o : null);
      return {
        id,
        side,
        openUnits: open,
        lotsUnits: lots,
        marginUnits: margin > 0n ? margin : 1n,
        tpUnits: side === 'buy' ? up(tpOffset) : down(tpOffset),
        slUnits: side === 'buy' ? down(slOffset) : up(slOffset),
      };
    });

const START = 650_000n;
type Step =
  | { k: 'tick'; move: bigint; half: bigint; markOff: bigint }
  | { k: 'upsert'; p: PositionState }
  | { k: 'remove'; which: number }
  /** Many changes before the next tick (the indexes' merge path): remove every n-th position, upsert a batch. */
  | { k: 'bulk'; every: number; batch: PositionState[] }
  | { k: 'level'; level: string }
  | { k: 'conversion'; num: bigint; den: bigint }
  | { k: 'spread'; spread: bigint }
  /** A tick placed exactly on one live position's stop-loss, take-profit or liquidation boundary (ties matter). */
  | { k: 'hit'; which: number; target: 'sl' | 'tp' | 'liq'; half: bigint; off: bigint };

const stepArb = (ids: readonly string[]): fc.Arbitrary<Step> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        k: fc.constant('tick' as const),
        move: fc.bigInt({ min: -8_000n, max: 8_000n }),
        half: fc.bigInt({ min: 0n, max: 50n }),
        markOff: fc.bigInt({ min: -30n, max: 30n }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(...ids)
        .chain((id) => positionArb(id, START).map((p) => ({ k: 'upsert' as const, p }))),
    },
    { weight: 1, arbitrary: fc.nat({ max: 1000 }).map((which) => ({ k: 'remove' as const, which })) },
    {
      weight: 1,
      arbitrary: fc.record({
        k: fc.constant('bulk' as const),
        every: fc.integer({ min: 2, max: 4 }),
        batch: fc
          .uniqueArray(fc.constantFrom(...ids), { minLength: 0, maxLength: 30 })
          .chain((chosen) => fc.tuple(...chosen.map((id) => positionArb(id, START)))),
      }),
    },
    { weight: 1, arbitrary: levelArb.map((level) => ({ k: 'level' as const, level })) },
    {
      weight: 1,
      arbitrary: fc.record({
        k: fc.constant('conversion' as const),
        num: fc.bigInt({ min: 90n, max: 110n }),
        den: fc.constant(100n),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.bigInt({ min: 0n, max: 40n }).map((spread) => ({ k: 'spread' as const, spread })),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        k: fc.constant('hit' as const),
        which: fc.nat({ max: 1000 }),
        target: fc.constantFrom<'sl' | 'tp' | 'liq'>('sl', 'tp', 'liq'),
        half: fc.bigInt({ min: 0n, max: 20n }),
        off: fc.bigInt({ min: -1n, max: 1n }),
      }),
    },
  );

describe('property: PositionBook', () => {
  const ids = Array.from({ length: 100 }, (_, n) => `p${String(n).padStart(3, '0')}`);
  const initial = fc
    .subarray(ids, { minLength: 0, maxLength: 100 })
    .chain((chosen) => fc.tuple(...chosen.map((id) => positionArb(id, START))));

  it('evaluate() equals the naive loop, through upserts, removals and setting changes', () => {
    fc.assert(
      fc.property(
        initial,
        fc.array(stepArb(ids), { minLength: 1, maxLength: 60, size: 'max' }),
        (start, steps) => {
          let m: ContractMath = BOOK_M;
          let level = ratioOf('0.8');
          let spread = 5n;
          const book = new PositionBook(m, level, spread, 1n);
          const live = new Map<string, PositionState>();
          for (const p of start) {
            book.upsert(p);
            live.set(p.id, p);
          }
          let price = START;
          for (const s of steps) {
            if (s.k === 'upsert') {
              book.upsert(s.p);
              live.set(s.p.id, s.p);
            } else if (s.k === 'remove') {
              const id = [...live.keys()].sort()[s.which % Math.max(1, live.size)];
              if (id !== undefined) {
                book.remove(id);
                live.delete(id);
              }
            } else if (s.k === 'bulk') {
              [...live.keys()].sort().forEach((id, n) => {
                if (n % s.every === 0) {
                  book.remove(id);
                  live.delete(id);
                }
              });
              for (const p of s.batch) {
                book.upsert(p);
                live.set(p.id, p);
              }
            } else if (s.k === 'level') {
              level = ratioOf(s.level);
              book.setLevel(level);
            } else if (s.k === 'conversion') {
              m = { ...m, toUsdt: { num: s.num, den: s.den } };
              book.setConversion(m.toUsdt);
            } else if (s.k === 'spread') {
              spread = s.spread;
              book.setSpread(spread);
            } else {
              let tick: { bidUnits: bigint; askUnits: bigint; markUnits: bigint };
              if (s.k === 'hit') {
                const p = [...live.values()].sort((a, b) => (a.id < b.id ? -1 : 1))[
                  s.which % Math.max(1, live.size)
                ];
                let target: bigint | null = null;
                if (p && s.target === 'liq')
                  target = liquidationBoundary(m, p.side, p.openUnits, p.lotsUnits, p.marginUnits, level);
                else if (p) target = s.target === 'sl' ? p.slUnits : p.tpUnits;
                if (!p || target === null || target + s.off <= 1000n) continue;
                const at = target + s.off;
                if (s.target === 'liq')
                  tick = { bidUnits: at - s.half, askUnits: at + s.half, markUnits: at };
                else if (p.side === 'buy')
                  tick = { bidUnits: at + spread, askUnits: at + spread + s.half, markUnits: at };
                else
                  tick = {
                    bidUnits: at - spread - s.half > 0n ? at - spread - s.half : 1n,
                    askUnits: at - spread,
                    markUnits: at,
                  };
                if (tick.bidUnits <= 0n || tick.askUnits <= 0n) continue;
              } else {
                price = price + s.move > 1000n ? price + s.move : 1000n;
                tick = { bidUnits: price - s.half, askUnits: price + s.half, markUnits: price + s.markOff };
              }
              const want = naive(m, level, spread, live.values(), tick);
              const expected = [
                ...want.sl.map((id) => ({ id, kind: 'stop_loss', priceUnits: want.close(id, live) })),
                ...want.tp.map((id) => ({ id, kind: 'take_profit', priceUnits: want.close(id, live) })),
                ...want.liq.map((id) => ({ id, kind: 'liquidation', priceUnits: tick.markUnits })),
              ];
              expect(book.evaluate(tick)).toEqual(expected);
              expect(book.size).toBe(live.size);
            }
          }
        },
      ),
      { ...RUNS, numRuns: 150 },
    );
  });

  it('after each liquidation pass no remaining position is at or beyond the liquidation level', () => {
    fc.assert(
      fc.property(
        initial,
        fc.array(
          fc.record({
            move: fc.bigInt({ min: -20_000n, max: 20_000n }),
            markOff: fc.bigInt({ min: -50n, max: 50n }),
          }),
          {
            minLength: 1,
            maxLength: 80,
            size: 'max',
          },
        ),
        levelArb,
        (start, path, lv) => {
          const level = ratioOf(lv);
          const book = new PositionBook(BOOK_M, level, 3n, 1n);
          const live = new Map<string, PositionState>();
          for (const p of start) {
            book.upsert(p);
            live.set(p.id, p);
          }
          let price = START;
          for (const step of path) {
            price = price + step.move > 1000n ? price + step.move : 1000n;
            const tick = { bidUnits: price, askUnits: price + 2n, markUnits: price + step.markOff };
            for (const t of book.evaluate(tick)) {
              book.remove(t.id);
              live.delete(t.id);
            }
            for (const p of live.values()) {
              const rate = riskRate(BOOK_M, p.side, p.openUnits, tick.markUnits, p.lotsUnits, p.marginUnits);
              expect(reachesLevel(rate, level)).toBe(false);
            }
            expect(book.evaluate(tick)).toEqual([]);
          }
        },
      ),
      { ...RUNS, numRuns: 150 },
    );
  });

  it('revalue() totals equal the sum over positions', () => {
    fc.assert(
      fc.property(initial, fc.bigInt({ min: 500_000n, max: 800_000n }), (start, price) => {
        const book = new PositionBook(BOOK_M, ratioOf('0.8'), 4n, 1n);
        for (const p of start) book.upsert(p);
        const tick = { bidUnits: price, askUnits: price + 3n, markUnits: price + 1n };
        const ex = executable(tick.bidUnits, tick.askUnits, 4n);
        let pnl = 0n;
        let margin = 0n;
        let best: Q = q(0n);
        for (const p of start) {
          pnl += pnlUsdt(
            BOOK_M,
            p.side,
            p.openUnits,
            p.side === 'buy' ? ex.closeLong : ex.closeShort,
            p.lotsUnits,
          );
          margin += p.marginUnits;
          const r = riskRate(BOOK_M, p.side, p.openUnits, tick.markUnits, p.lotsUnits, p.marginUnits);
          if (cmp(q(r.num, r.den), best) > 0) best = q(r.num, r.den);
        }
        const got = book.revalue(tick);
        expect(got.positions).toBe(start.length);
        expect(got.unrealizedPnlUnits).toBe(pnl);
        expect(got.marginUnits).toBe(margin);
        expect(cmp(q(got.maxRiskRate.num, got.maxRiskRate.den), best)).toBe(0);
      }),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------- no minor unit is created

describe('property: no minor unit is created', () => {
  it('margin frozen, fees, funding and P&L settled against the house sum to zero over open / partial closes / close', () => {
    fc.assert(
      fc.property(
        instArb.chain((i) => fc.tuple(fc.constant(i), priceArb(i.priceScale))),
        sideArb,
        fc.bigInt({ min: 1_000n, max: 10n ** 10n }),
        fc.integer({ min: 1, max: 100 }),
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        fc.array(
          fc.oneof(
            fc.record({
              k: fc.constant('close' as const),
              part: fc.integer({ min: 1, max: 100 }),
              move: fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }),
            }),
            fc.record({
              k: fc.constant('funding' as const),
              rate: fc.bigInt({ min: -(10n ** 5n), max: 10n ** 5n }),
              move: fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }),
            }),
          ),
          { maxLength: 12 },
        ),
        ([i, openStr], side, lotsUnits, leverage, feePerLot, ops) => {
          const open = toUnits(openStr, i.priceScale);
          // Accounts: the customer's available balance, the position's margin, the house (counterparty
          // and fee income) and the insurance fund. Every amount is computed once by @bourse/risk and
          // posted as a pair; the check is that the pieces (pro-rata releases, remainders, pnl
          // splits) add up — nothing is lost or invented along the way.
          const acc = { customer: 0n, margin: 0n, house: 0n, insurance: 0n };
          const margin0 = marginFor(i.m, open, lotsUnits, leverage);
          const fee0 = feeFor(feePerLot, lotsUnits);
          acc.customer -= margin0 + fee0;
          acc.margin += margin0;
          acc.house += fee0;
          let lots = lotsUnits;
          let price = open;
          const releases: bigint[] = [];
          const closeLots = (n: bigint, at: bigint) => {
            const released = releasedMargin(acc.margin, n, lots);
            releases.push(released);
            const pnl = pnlUsdt(i.m, side, open, at, n);
            const fee = feeFor(feePerLot, n);
            acc.margin -= released;
            const due = released + pnl - fee; // what the customer is owed back
            if (due >= 0n) {
              acc.customer += due;
              acc.house += -pnl + fee;
            } else {
              // Loss beyond margin: the customer gets nothing; the house is made whole by insurance.
              acc.house += released; // all that was left
              acc.house += -due; // the shortfall …
              acc.insurance -= -due; // … paid by the insurance fund
            }
            lots -= n;
          };
          for (const op of ops) {
            if (lots === 0n) break;
            price = price + op.move > 0n ? price + op.move : 1n;
            if (op.k === 'funding') {
              const f = fundingUsdt(i.m, side, price, lots, { num: op.rate, den: 10n ** 8n });
              // Funding moves between the position's margin and the house (paid in full from margin, or
              // as much margin as there is — the rest is covered by insurance).
              const paid = f < 0n ? (-f > acc.margin ? acc.margin : -f) : 0n;
              acc.margin += f < 0n ? -paid : f;
              acc.house += f < 0n ? paid : -f;
              if (f < 0n && -f > paid) {
                acc.house += -f - paid;
                acc.insurance -= -f - paid;
              }
            } else {
              const n = (lots * BigInt(op.part)) / 100n;
              closeLots(n === 0n ? lots : n, price);
            }
            expect(acc.customer + acc.margin + acc.house + acc.insurance).toBe(0n);
          }
          if (lots > 0n) closeLots(lots, price);
          // Fully closed: the margin account is empty, and the four parties sum to zero.
          expect(acc.margin).toBe(0n);
          expect(acc.customer + acc.house + acc.insurance).toBe(0n);
          expect(acc.customer + margin0 + fee0 >= 0n || acc.insurance < 0n).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('splitting a close never pays the customer more than closing at once', () => {
    fc.assert(
      fc.property(
        instArb.chain((i) => fc.tuple(fc.constant(i), priceArb(i.priceScale), priceArb(i.priceScale))),
        sideArb,
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 9n }), { minLength: 1, maxLength: 8 }),
        ([i, open, close], side, parts) => {
          const o = toUnits(open, i.priceScale);
          const c = toUnits(close, i.priceScale);
          const whole = pnlUsdt(
            i.m,
            side,
            o,
            c,
            parts.reduce((a, b) => a + b, 0n),
          );
          const split = parts.reduce((a, n) => a + pnlUsdt(i.m, side, o, c, n), 0n);
          expect(split <= whole).toBe(true);
          expect(whole - split < BigInt(parts.length)).toBe(true);
        },
      ),
      RUNS,
    );
  });
});
