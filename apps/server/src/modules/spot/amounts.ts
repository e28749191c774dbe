/**
 * The spot maths now lives in @bourse/risk (packages/risk/src/spot.ts), shared with the web's
 * previews; this file keeps the module's old import path working.
 */
export {
  baseText,
  baseUnits,
  type MarketMath,
  mathOf,
  normalizeDecimal,
  notionalUnits,
  parseRate,
  priceText,
  qtyText,
  quoteText,
  RATE_MAX,
  RATE_SCALE,
  type Rate,
  scaleOfText,
  scaleProblem,
  spotFee as feeOf,
  toSteps,
} from '@bourse/risk';
