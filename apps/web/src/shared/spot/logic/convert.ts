import { mulDiv, ROUND_PAYOUT, scaleOf } from '@bourse/money';
import type { SpotMarketData } from '@bourse/protocol';
import { feeOf, floorToStep, marketCheckPrice, ONE, type RuleBreak, ruleBreaks, units } from './amounts.ts';
import { buyWithQuote, type Fill, fillBase, levelsOf } from './quote.ts';
import { rulesOf } from './rules.ts';

export type ConvertQuote = {
  /** The market order that does it. */
  side: 'buy' | 'sell';
  /** Base quantity of the order. */
  qty: bigint;
  fill: Fill;
  /** What leaves the customer (from-currency) and what arrives (to-currency), after the fee. */
  pay: bigint;
  receive: bigint;
  /** In the quote currency. */
  fee: bigint;
  /** 1 from = `rate` to. */
  rate: bigint | null;
  breaks: RuleBreak[];
};

/**
 * A conversion quote from the live book. Selling the base (`from` = base): the amount is a base
 * quantity, floored to lots; you receive its value less the taker fee. Buying the base with the
 * quote (`from` = quote): the amount is a budget that covers value plus fee; you receive whole lots.
 */
export function quoteConversion(options: {
  market: SpotMarketData;
  from: string;
  amount: bigint;
  bids: ReadonlyArray<readonly [string, string]>;
  asks: ReadonlyArray<readonly [string, string]>;
  available: bigint;
  /** The market module's reference price: the server checks (and freezes) a market order at it. */
  reference: bigint | null;
}): ConvertQuote {
  const { market, from, amount } = options;
  const rules = rulesOf(market);
  const checkAt = (side: 'buy' | 'sell', fallback: bigint | null) =>
    options.reference === null
      ? fallback
      : marketCheckPrice({
          side,
          reference: options.reference,
          bandBps: market.price_band_bps,
          tick: rules.tick,
        });
  const takerRate = units(market.taker_fee_rate) ?? 0n;
  const quoteScale = scaleOf(market.quote);
  if (from === market.base) {
    const qty = floorToStep(amount, rules.lot);
    const fill = fillBase(levelsOf(options.bids), qty, 'sell');
    const fee = feeOf(fill.value, takerRate, quoteScale);
    return {
      side: 'sell',
      qty,
      fill,
      pay: qty,
      receive: fill.value > fee ? fill.value - fee : 0n,
      fee,
      rate: fill.avgPrice,
      breaks:
        qty === 0n
          ? []
          : ruleBreaks({
              rules,
              side: 'sell',
              price: null,
              qty,
              estimatePrice: checkAt('sell', fill.avgPrice),
              available: options.available,
              quoteScale,
            }),
    };
  }
  const fill = buyWithQuote(levelsOf(options.asks), amount, rules.lot, takerRate, quoteScale);
  const fee = feeOf(fill.value, takerRate, quoteScale);
  const rate =
    fill.avgPrice === null || fill.avgPrice === 0n ? null : mulDiv(ONE, ONE, fill.avgPrice, ROUND_PAYOUT);
  return {
    side: 'buy',
    qty: fill.qty,
    fill,
    pay: fill.value + fee,
    receive: fill.qty,
    fee,
    rate,
    breaks:
      fill.qty === 0n
        ? []
        : ruleBreaks({
            rules,
            side: 'buy',
            price: null,
            qty: fill.qty,
            estimatePrice: checkAt('buy', fill.avgPrice),
            available: options.available,
            buyFeeRate: takerRate,
            quoteScale,
          }),
  };
}
