import { scaleOf } from '@bourse/money';
import type { SpotMarketData, SpotOrderType, SpotSide } from '@bourse/protocol';
import { feePreview, marketCheckPrice, ruleBreaks, units } from '../../../shared/spot/logic/amounts.ts';
import { fillBase, type Level } from '../../../shared/spot/logic/quote.ts';
import { rulesOf } from '../../../shared/spot/logic/rules.ts';

/**
 * The spot order form's figures for what is typed: the price and quantity in units, a market order's
 * fill estimate against the book (`levels`, best first on the side it takes), the price the order is
 * checked at (a limit's own price; for a market order the reference — mark, last, else the best level —
 * and a buy plus the price band), the value and fee preview, the rules it breaks, and whether it can be
 * sent. `buyFeeRate` is the higher of the two rates, frozen with a buy.
 */
export function spotOrderFigures(options: {
  market: SpotMarketData;
  side: SpotSide;
  kind: SpotOrderType;
  price: string;
  qty: string;
  levels: Level[];
  /** The ticker's mark (else last) price in units, null when neither is known. */
  tickerReference: bigint | null;
  available: bigint;
}) {
  const { market, side, kind, levels, available } = options;
  const rules = rulesOf(market);
  const makerRate = units(market.maker_fee_rate) ?? 0n;
  const takerRate = units(market.taker_fee_rate) ?? 0n;
  const buyFeeRate = takerRate > makerRate ? takerRate : makerRate;
  const quoteScale = scaleOf(market.quote);
  const priceUnits = kind === 'limit' ? units(options.price) : null;
  const qtyUnits = units(options.qty);
  const estimate = kind === 'market' && qtyUnits !== null ? fillBase(levels, qtyUnits, side) : null;
  const best = levels[0]?.price ?? null;
  const at = kind === 'limit' ? priceUnits : (estimate?.avgPrice ?? best);
  const reference = options.tickerReference ?? best;
  const checkAt =
    kind === 'limit'
      ? priceUnits
      : reference === null
        ? null
        : marketCheckPrice({ side, reference, bandBps: market.price_band_bps, tick: rules.tick });
  const fee =
    qtyUnits === null
      ? null
      : feePreview({ kind, price: at, qty: qtyUnits, makerRate, takerRate, quoteScale });
  const breaks =
    qtyUnits === null || qtyUnits === 0n || (kind === 'limit' && (priceUnits === null || priceUnits === 0n))
      ? []
      : ruleBreaks({
          rules,
          side,
          price: priceUnits,
          qty: qtyUnits,
          estimatePrice: checkAt,
          available,
          buyFeeRate,
          quoteScale,
        });
  const ready =
    qtyUnits !== null && qtyUnits > 0n && (kind === 'market' || (priceUnits !== null && priceUnits > 0n));
  return { rules, buyFeeRate, priceUnits, qtyUnits, estimate, checkAt, fee, breaks, ready };
}
