import { describe, expect, it } from 'vitest';
import {
  type ContractMath,
  liquidationPrice,
  marginFor,
  PositionBook,
  ratio,
  ratioFromDecimal,
} from './index.ts';

// BTC/USDT-PERP: price scale 1 (tick 0.1), 1 lot = 1 BTC.
const BTC: ContractMath = { priceScale: 1, contractSizeUnits: 100_000_000n, toUsdt: { num: 1n, den: 1n } };
const LOT = 100_000_000n;
const tick = (bid: bigint, mark = bid) => ({ bidUnits: bid, askUnits: bid + 2n, markUnits: mark });

describe('PositionBook', () => {
  const long100x = {
    id: 'a-long',
    side: 'buy' as const,
    openUnits: 650_000n,
    lotsUnits: LOT,
    marginUnits: marginFor(BTC, 650_000n, LOT, 100), // 650 USDT → liquidation at 64480.0 (level 0.8)
    tpUnits: 660_000n,
    slUnits: null,
  };
  const short10x = {
    id: 'b-short',
    side: 'sell' as const,
    openUnits: 650_000n,
    lotsUnits: LOT,
    marginUnits: marginFor(BTC, 650_000n, LOT, 10),
    tpUnits: null,
    slUnits: 652_000n,
  };

  it('orders stop-loss, take-profit, then liquidations, and prices each on the right price', () => {
    const book = new PositionBook(BTC, ratioFromDecimal('0.8'), 5n, 1n);
    book.upsert(long100x);
    book.upsert(short10x);
    expect(book.size).toBe(2);
    expect(book.evaluate(tick(650_000n))).toEqual([]);
    // Short's stop-loss on ask + spread = 651_998 + 2 + 5 ≥ 652_000.
    expect(book.evaluate(tick(651_993n))).toEqual([
      { id: 'b-short', kind: 'stop_loss', priceUnits: 652_000n },
    ]);
    // Stop-losses come before take-profits: the short's, then the long's take-profit on bid − spread = 660_000.
    expect(book.evaluate(tick(660_005n))).toEqual([
      { id: 'b-short', kind: 'stop_loss', priceUnits: 660_012n },
      { id: 'a-long', kind: 'take_profit', priceUnits: 660_000n },
    ]);
    // The long is liquidated on the mark exactly at its boundary, not one unit above.
    expect(
      liquidationPrice(BTC, 'buy', 650_000n, LOT, long100x.marginUnits, ratioFromDecimal('0.8'), 1n),
    ).toBe(644_800n);
    book.remove('b-short');
    expect(book.evaluate(tick(644_900n, 644_801n))).toEqual([]);
    expect(book.evaluate(tick(644_900n, 644_800n))).toEqual([
      { id: 'a-long', kind: 'liquidation', priceUnits: 644_800n },
    ]);
  });

  it('recomputes liquidation boundaries when the level or conversion changes', () => {
    const book = new PositionBook(BTC, ratioFromDecimal('0.8'), 0n, 1n);
    book.upsert({ ...long100x, tpUnits: null });
    expect(book.evaluate(tick(645_000n, 645_000n))).toEqual([]); // 500 USDT lost = 76.9 %
    book.setLevel(ratioFromDecimal('0.75'));
    expect(book.evaluate(tick(645_000n, 645_000n)).map((t) => t.kind)).toEqual(['liquidation']);
    book.setLevel(ratioFromDecimal('0.8'));
    book.setConversion(ratio(11n, 10n)); // the same move now loses 550 USDT = 84.6 %
    expect(book.evaluate(tick(645_000n, 645_000n)).map((t) => t.kind)).toEqual(['liquidation']);
  });

  it('revalues P&L at the close price and the risk rate at mark', () => {
    const book = new PositionBook(BTC, ratioFromDecimal('0.8'), 5n, 1n);
    book.upsert(long100x);
    book.upsert(short10x);
    const r = book.revalue(tick(649_000n, 649_000n));
    // long closes at 648_995: −100.5 USDT; short closes at 649_007: +99.3 USDT
    expect(r.unrealizedPnlUnits).toBe(-120_000_000n);
    expect(r.marginUnits).toBe(650n * 100_000_000n + 6_500n * 100_000_000n);
    expect(r.maxRiskRate).toEqual({ num: 100n * 100_000_000n, den: 650n * 100_000_000n });
    expect(r.positions).toBe(2);
  });

  it('refuses broken positions and ticks', () => {
    const book = new PositionBook(BTC, ratioFromDecimal('0.8'), 5n, 1n);
    expect(() => book.upsert({ ...long100x, marginUnits: 0n })).toThrow(RangeError);
    expect(() => book.upsert({ ...long100x, lotsUnits: 0n })).toThrow(RangeError);
    expect(() => book.evaluate({ bidUnits: 0n, askUnits: 1n, markUnits: 1n })).toThrow(RangeError);
    expect(() => new PositionBook(BTC, ratio(0n, 1n), 0n, 1n)).toThrow(RangeError);
  });
});
