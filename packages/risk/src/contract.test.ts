import { LEVERAGE_CLASSES } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import {
  type ContractMath,
  checkTpSl,
  effectiveMaxLeverage,
  executable,
  feeFor,
  formatRatio,
  formatRatioPercent,
  fundingUsdt,
  JURISDICTION_CAPS,
  LEVERAGE_CLASS_LIST,
  leverageChoices,
  leverageClassOf,
  liquidationBoundary,
  liquidationPrice,
  marginFor,
  notionalQuote,
  notionalUsdt,
  optionOutcome,
  pnlUsdt,
  ratio,
  ratioFromDecimal,
  reachesLevel,
  releasedMargin,
  riskRate,
  tpSlTriggered,
} from './index.ts';

const ONE = ratio(1n, 1n);
const USDT = (s: string) => {
  const [i, f = ''] = s.replace('-', '').split('.');
  const v = BigInt(i as string) * 100_000_000n + BigInt(f.padEnd(8, '0'));
  return s.startsWith('-') ? -v : v;
};
const LOTS = USDT; // both at 10^-8

// BTC/USDT-PERP: tick 0.1 (scale 1), 1 lot = 1 BTC.
const BTC: ContractMath = { priceScale: 1, contractSizeUnits: LOTS('1'), toUsdt: ONE };
// EUR/USD: scale 5, 1 lot = 100,000 EUR.
const EURUSD: ContractMath = { priceScale: 5, contractSizeUnits: LOTS('100000'), toUsdt: ONE };
// USD/JPY: scale 3, 1 lot = 100,000 USD, quoted in JPY; 1 JPY = 1/150.214 USDT.
const USDJPY: ContractMath = {
  priceScale: 3,
  contractSizeUnits: LOTS('100000'),
  toUsdt: ratioFromDecimal('0.0066571'),
};
const USDJPY_EXACT: ContractMath = { ...USDJPY, toUsdt: ratio(1000n, 150214n) };
// XAU/USD: scale 2, 1 lot = 100 oz.
const XAU: ContractMath = { priceScale: 2, contractSizeUnits: LOTS('100'), toUsdt: ONE };
// AAPL: scale 2, 1 lot = 1 share.
const AAPL: ContractMath = { priceScale: 2, contractSizeUnits: LOTS('1'), toUsdt: ONE };
const LEVEL = ratioFromDecimal('0.8');

describe('ratios', () => {
  it('parses decimals exactly and reduces', () => {
    expect(ratioFromDecimal('0.8')).toEqual({ num: 4n, den: 5n });
    expect(ratioFromDecimal('-0.0001')).toEqual({ num: -1n, den: 10_000n });
    expect(ratioFromDecimal('150.214')).toEqual({ num: 75107n, den: 500n });
    expect(ratioFromDecimal('0')).toEqual({ num: 0n, den: 1n });
    expect(ratio(6n, -4n)).toEqual({ num: -3n, den: 2n });
  });
  it.each(['', '1e-3', '0.8%', ' 1', 'abc', '0.0000000000000000001'])('rejects %j', (text) => {
    expect(() => ratioFromDecimal(text)).toThrow();
  });
  it('rejects a zero denominator', () => {
    expect(() => ratio(1n, 0n)).toThrow(RangeError);
  });
  it('compares exactly', () => {
    expect(reachesLevel({ num: 8n, den: 10n }, LEVEL)).toBe(true);
    expect(reachesLevel({ num: 799_999n, den: 1_000_000n }, LEVEL)).toBe(false);
    expect(reachesLevel({ num: 0n, den: 7n }, LEVEL)).toBe(false);
  });
  it('formats half-up', () => {
    expect(formatRatio({ num: 4215n, den: 10_000n }, 4)).toBe('0.4215');
    expect(formatRatioPercent({ num: 4215n, den: 10_000n }, 2)).toBe('42.15');
    expect(formatRatioPercent({ num: 421_450n, den: 1_000_000n }, 2)).toBe('42.15'); // 42.145 → up
    expect(formatRatioPercent({ num: 421_449n, den: 1_000_000n }, 2)).toBe('42.14');
    expect(formatRatio({ num: 0n, den: 3n }, 4)).toBe('0.0000');
    expect(formatRatio({ num: 2n, den: 3n }, 4)).toBe('0.6667');
    expect(formatRatioPercent({ num: 3n, den: 2n }, 0)).toBe('150');
  });
});

describe('BTC perpetual, 100x, 1 lot = 1 BTC', () => {
  const open = 650_000n; // 65000.0
  const lots = LOTS('1');
  it('notional, margin and fee', () => {
    expect(notionalUsdt(BTC, open, lots)).toBe(USDT('65000'));
    expect(notionalQuote(BTC, open, lots)).toEqual({ units: 65000n, scale: 0 });
    expect(marginFor(BTC, open, lots, 100)).toBe(USDT('650'));
    expect(marginFor(BTC, open, LOTS('0.001'), 100)).toBe(USDT('0.65'));
    expect(feeFor(USDT('0.5'), lots)).toBe(USDT('0.5'));
  });
  it('a long opened and closed at a profit and at a loss', () => {
    expect(pnlUsdt(BTC, 'buy', open, 651_000n, lots)).toBe(USDT('100'));
    expect(pnlUsdt(BTC, 'buy', open, 649_999n, lots)).toBe(USDT('-0.1'));
    expect(pnlUsdt(BTC, 'sell', open, 651_000n, lots)).toBe(USDT('-100'));
  });
  it('risk rate and liquidation at 80 %: 520 USDT of loss at 64480.0', () => {
    const margin = USDT('650');
    expect(riskRate(BTC, 'buy', open, 660_000n, lots, margin)).toEqual({ num: 0n, den: margin });
    expect(riskRate(BTC, 'buy', open, 647_000n, lots, margin)).toEqual({ num: USDT('300'), den: margin });
    expect(liquidationBoundary(BTC, 'buy', open, lots, margin, LEVEL)).toBe(644_800n);
    expect(liquidationPrice(BTC, 'buy', open, lots, margin, LEVEL, 1n)).toBe(644_800n);
    expect(reachesLevel(riskRate(BTC, 'buy', open, 644_800n, lots, margin), LEVEL)).toBe(true);
    expect(reachesLevel(riskRate(BTC, 'buy', open, 644_801n, lots, margin), LEVEL)).toBe(false);
    expect(liquidationPrice(BTC, 'sell', open, lots, margin, LEVEL, 1n)).toBe(655_200n);
    // A coarser grid (tick 5.0 = 50 units): the highest multiple of 50 at or below 64480.0 / the lowest above 65520.0.
    expect(liquidationPrice(BTC, 'buy', open + 1n, lots, margin, LEVEL, 50n)).toBe(644_800n);
    expect(liquidationPrice(BTC, 'sell', open + 1n, lots, margin, LEVEL, 50n)).toBe(655_250n);
  });
  it('1x long has no positive liquidation price at level 1; a short always has one', () => {
    const margin = USDT('65000');
    expect(liquidationPrice(BTC, 'buy', open, lots, margin, ONE, 1n)).toBeNull();
    expect(liquidationPrice(BTC, 'sell', open, lots, margin, ONE, 1n)).toBe(1_300_000n);
  });
});

describe('EUR/USD, 0.01 lots of 100,000 EUR', () => {
  const lots = LOTS('0.01');
  it('notional, margin at 30x (rounded up), P&L both sides', () => {
    expect(notionalQuote(EURUSD, 108_512n, lots)).toEqual({ units: 108512n, scale: 2 });
    expect(notionalUsdt(EURUSD, 108_512n, lots)).toBe(USDT('1085.12'));
    expect(marginFor(EURUSD, 108_512n, lots, 30)).toBe(3_617_066_667n); // 36.170666… ↑
    expect(pnlUsdt(EURUSD, 'buy', 108_512n, 108_600n, lots)).toBe(USDT('0.88'));
    expect(pnlUsdt(EURUSD, 'sell', 108_512n, 108_600n, lots)).toBe(USDT('-0.88'));
  });
});

describe('USD/JPY, quote JPY converted at 1/150.214', () => {
  const lots = LOTS('0.1');
  it('notional is 10,000 USDT at 150.214', () => {
    expect(notionalQuote(USDJPY_EXACT, 150_214n, lots)).toEqual({ units: 1_502_140n, scale: 0 });
    expect(notionalUsdt(USDJPY_EXACT, 150_214n, lots)).toBe(USDT('10000'));
    expect(marginFor(USDJPY_EXACT, 150_214n, lots, 100)).toBe(USDT('100'));
  });
  it('P&L floors toward −∞ in both directions', () => {
    // +2860 JPY = 19.039503641… USDT → 19.03950364
    expect(pnlUsdt(USDJPY_EXACT, 'buy', 150_214n, 150_500n, lots)).toBe(1_903_950_364n);
    // −2140 JPY = −14.246341888… USDT → −14.24634189 (not truncated to …88)
    expect(pnlUsdt(USDJPY_EXACT, 'buy', 150_214n, 150_000n, lots)).toBe(-1_424_634_189n);
    expect(pnlUsdt(USDJPY_EXACT, 'sell', 150_214n, 150_000n, lots)).toBe(1_424_634_188n);
  });
  it('a decimal conversion rate is used as given', () => {
    // 1,502,140 JPY × 0.0066571 = 9999.896194 USDT
    expect(notionalUsdt(USDJPY, 150_214n, lots)).toBe(999_989_619_400n);
  });
});

describe('XAU/USD and stocks', () => {
  it('gold: 0.01 lot = 1 oz', () => {
    const lots = LOTS('0.01');
    expect(notionalUsdt(XAU, 265_035n, lots)).toBe(USDT('2650.35'));
    expect(marginFor(XAU, 265_035n, lots, 20)).toBe(USDT('132.5175'));
    expect(pnlUsdt(XAU, 'sell', 265_035n, 264_035n, lots)).toBe(USDT('10'));
    expect(feeFor(USDT('7'), lots)).toBe(USDT('0.07'));
  });
  it('AAPL at 5x', () => {
    expect(marginFor(AAPL, 22_987n, LOTS('1'), 5)).toBe(USDT('45.974'));
    expect(marginFor(AAPL, 22_987n, LOTS('3'), 7)).toBe(USDT('98.51571429')); // 98.515714285… ↑
    expect(pnlUsdt(AAPL, 'buy', 22_987n, 23_000n, LOTS('10'))).toBe(USDT('1.3'));
  });
});

describe('rounding directions', () => {
  it('fees round up, margin rounds up, notional half-up', () => {
    expect(feeFor(1n, 3n)).toBe(1n); // 3e-8 of a unit → 1
    expect(feeFor(0n, LOTS('5'))).toBe(0n);
    expect(marginFor(BTC, 1n, 1n, 3)).toBe(1n);
    expect(notionalUsdt(BTC, 4n, 1n)).toBe(0n); // 0.4 × 1e-8 BTC = 0.4 units → 0
    expect(notionalUsdt(BTC, 5n, 1n)).toBe(1n); // 0.5 units → 1 (half-up)
    expect(notionalUsdt(BTC, 1n, 5n * 10n ** 8n + 0n)).toBe(50_000_000n);
  });
  it('margin release is pro rata floored; the last close releases the remainder', () => {
    expect(releasedMargin(100n, 1n, 3n)).toBe(33n);
    expect(releasedMargin(67n, 2n, 2n)).toBe(67n);
    expect(() => releasedMargin(1n, 3n, 2n)).toThrow(RangeError);
  });
  it('rejects bad inputs', () => {
    expect(() => marginFor(BTC, 1n, 1n, 0)).toThrow(RangeError);
    expect(() => marginFor(BTC, 1n, 1n, 101)).toThrow(RangeError);
    expect(() => marginFor(BTC, 1n, 1n, 2.5)).toThrow(RangeError);
    expect(() => riskRate(BTC, 'buy', 1n, 1n, 1n, 0n)).toThrow(RangeError);
    expect(() => notionalUsdt({ ...BTC, priceScale: 13 }, 1n, 1n)).toThrow(RangeError);
    expect(() => liquidationPrice(BTC, 'buy', 1n, 1n, 1n, LEVEL, 0n)).toThrow(RangeError);
    expect(() => liquidationPrice(BTC, 'buy', 1n, 1n, 1n, ratio(0n, 1n), 1n)).toThrow(RangeError);
  });
});

describe('executable prices', () => {
  it('widens by the spread', () => {
    expect(executable(1000n, 1002n, 3n)).toEqual({
      openBuy: 1005n,
      openSell: 997n,
      closeLong: 997n,
      closeShort: 1005n,
    });
    expect(executable(1000n, 1002n, 0n)).toEqual({
      openBuy: 1002n,
      openSell: 1000n,
      closeLong: 1000n,
      closeShort: 1002n,
    });
  });
  it('never gives a price ≤ 0', () => {
    expect(executable(5n, 6n, 5n).openSell).toBe(1n);
    expect(executable(5n, 6n, 50n).closeLong).toBe(1n);
  });
});

describe('take-profit and stop-loss', () => {
  it('validates a buy (tp above, sl below, strictly)', () => {
    expect(checkTpSl('buy', 100n, 101n, 99n)).toBeNull();
    expect(checkTpSl('buy', 100n, null, null)).toBeNull();
    expect(checkTpSl('buy', 100n, 100n, null)).toEqual({ reason: 'TP_MUST_BE_ABOVE', priceUnits: 100n });
    expect(checkTpSl('buy', 100n, null, 100n)).toEqual({ reason: 'SL_MUST_BE_BELOW', priceUnits: 100n });
    expect(checkTpSl('buy', 100n, 90n, 110n)?.reason).toBe('TP_MUST_BE_ABOVE');
  });
  it('validates a sell (tp below, sl above, strictly)', () => {
    expect(checkTpSl('sell', 100n, 99n, 101n)).toBeNull();
    expect(checkTpSl('sell', 100n, 100n, null)).toEqual({ reason: 'TP_MUST_BE_BELOW', priceUnits: 100n });
    expect(checkTpSl('sell', 100n, null, 100n)).toEqual({ reason: 'SL_MUST_BE_ABOVE', priceUnits: 100n });
  });
  it('triggers on the close price', () => {
    expect(tpSlTriggered('buy', 110n, 110n, 90n)).toBe('take_profit');
    expect(tpSlTriggered('buy', 109n, 110n, 90n)).toBeNull();
    expect(tpSlTriggered('buy', 90n, 110n, 90n)).toBe('stop_loss');
    expect(tpSlTriggered('sell', 90n, 90n, 110n)).toBe('take_profit');
    expect(tpSlTriggered('sell', 110n, 90n, 110n)).toBe('stop_loss');
    expect(tpSlTriggered('sell', 100n, null, null)).toBeNull();
    expect(tpSlTriggered('buy', 100n, 100n, 100n)).toBe('stop_loss'); // both: stop-loss wins
  });
});

describe('funding', () => {
  const lots = LOTS('0.003');
  // notional at 65000.0 × 0.003 = 195 USDT; 0.0001 → 0.0195 USDT exactly
  it('positive rate: longs pay, shorts receive', () => {
    const rate = ratioFromDecimal('0.0001');
    expect(fundingUsdt(BTC, 'buy', 650_000n, lots, rate)).toBe(-USDT('0.0195'));
    expect(fundingUsdt(BTC, 'sell', 650_000n, lots, rate)).toBe(USDT('0.0195'));
  });
  it('negative rate: shorts pay, longs receive; odd fractions round against the customer', () => {
    const rate = ratioFromDecimal('-0.00000003');
    // 195 USDT × 3e-8 = 0.00000585 USDT = 585 units; at 65000.1: 195.0003 × 3e-8 = 585.0009 units
    expect(fundingUsdt(BTC, 'buy', 650_000n, lots, rate)).toBe(585n);
    expect(fundingUsdt(BTC, 'sell', 650_000n, lots, rate)).toBe(-585n);
    expect(fundingUsdt(BTC, 'buy', 650_001n, lots, rate)).toBe(585n);
    expect(fundingUsdt(BTC, 'sell', 650_001n, lots, rate)).toBe(-586n);
  });
  it('zero rate moves nothing', () => {
    expect(fundingUsdt(BTC, 'buy', 650_000n, lots, ratio(0n, 1n))).toBe(0n);
  });
});

describe('options', () => {
  const rate = ratioFromDecimal('0.85');
  it('up: won, lost, tied', () => {
    expect(optionOutcome('up', 100n, 101n, USDT('10'), rate)).toEqual({
      status: 'won',
      payoutUnits: USDT('18.5'),
    });
    expect(optionOutcome('up', 100n, 99n, USDT('10'), rate)).toEqual({ status: 'lost', payoutUnits: 0n });
    expect(optionOutcome('up', 100n, 100n, USDT('10'), rate)).toEqual({
      status: 'tied',
      payoutUnits: USDT('10'),
    });
  });
  it('down: won, lost, tied', () => {
    expect(optionOutcome('down', 100n, 99n, USDT('10'), rate)).toEqual({
      status: 'won',
      payoutUnits: USDT('18.5'),
    });
    expect(optionOutcome('down', 100n, 101n, USDT('10'), rate)).toEqual({ status: 'lost', payoutUnits: 0n });
    expect(optionOutcome('down', 100n, 100n, USDT('10'), rate)).toEqual({
      status: 'tied',
      payoutUnits: USDT('10'),
    });
  });
  it('the profit is floored', () => {
    expect(optionOutcome('up', 1n, 2n, 3n, rate)).toEqual({ status: 'won', payoutUnits: 5n }); // 3 + floor(2.55)
  });
});

describe('leverage classes and jurisdiction caps', () => {
  it('matches the protocol list', () => {
    expect([...LEVERAGE_CLASS_LIST]).toEqual([...LEVERAGE_CLASSES]);
    for (const caps of Object.values(JURISDICTION_CAPS))
      expect(Object.keys(caps).sort()).toEqual([...LEVERAGE_CLASSES].sort());
  });
  it.each([
    ['forex', 'EUR', 'USD', 'EUR/USD', 'forex_major'],
    ['forex', 'USD', 'JPY', 'USD/JPY', 'forex_major'],
    ['forex', 'GBP', 'JPY', 'GBP/JPY', 'forex_major'],
    ['forex', 'AUD', 'USD', 'AUD/USD', 'forex_minor'],
    ['forex', 'USD', 'CNH', 'USD/CNH', 'forex_minor'],
    ['metal', 'XAU', 'USD', 'XAU/USD', 'gold'],
    ['metal', 'XAG', 'USD', 'XAG/USD', 'commodity'],
    ['energy', 'WTI', 'USD', 'WTI', 'commodity'],
    ['etf', 'SPY', 'USD', 'SPY', 'index'],
    ['etf', 'EEM', 'USD', 'EEM', 'index'],
    ['etf', 'GLD', 'USD', 'GLD', 'stock'],
    ['stock', 'AAPL', 'USD', 'AAPL', 'stock'],
    ['stock', '0700', 'HKD', '0700.HK', 'stock'],
    ['crypto_perp', 'BTC', 'USDT', 'BTC/USDT-PERP', 'crypto'],
    ['crypto_delivery', 'BTC', 'USDT', 'BTC/USDT-261225', 'crypto'],
    ['crypto_spot', 'BTC', 'USDT', 'BTC/USDT', null],
  ])('%s %s/%s (%s) → %s', (assetClass, base, quote, symbol, expected) => {
    expect(leverageClassOf({ assetClass, base, quote, symbol })).toBe(expected);
  });
  it('caps', () => {
    expect(Object.values(JURISDICTION_CAPS.permissive).every((v) => v === 100)).toBe(true);
    expect(JURISDICTION_CAPS.eu_retail).toEqual({
      forex_major: 30,
      forex_minor: 20,
      gold: 20,
      index: 20,
      commodity: 10,
      stock: 5,
      crypto: 2,
    });
    expect(Object.isFrozen(JURISDICTION_CAPS.eu_retail)).toBe(true);
  });
  it('effective maximum and choices', () => {
    expect(effectiveMaxLeverage(100, 50, 30)).toBe(30);
    expect(effectiveMaxLeverage(20, 100, 100)).toBe(20);
    expect(effectiveMaxLeverage(0, 100, 100)).toBe(1);
    expect(effectiveMaxLeverage(500, 500, 500)).toBe(100);
    // the customer's risk rating caps it too (modules/suitability)
    expect(effectiveMaxLeverage(100, 100, 100, 10)).toBe(10);
    expect(effectiveMaxLeverage(100, 50, 30, 100)).toBe(30);
    expect(effectiveMaxLeverage(100, 100, 100, 0)).toBe(1);
    expect(leverageChoices(100)).toEqual([1, 2, 3, 5, 10, 20, 25, 30, 50, 75, 100]);
    expect(leverageChoices(30)).toEqual([1, 2, 3, 5, 10, 20, 25, 30]);
    expect(leverageChoices(2)).toEqual([1, 2]);
    expect(leverageChoices(1)).toEqual([1]);
    expect(leverageChoices(7)).toEqual([1, 2, 3, 5, 7]);
    expect(leverageChoices(40)).toEqual([1, 2, 3, 5, 10, 20, 25, 30, 40]);
  });
});
