// The one place every contract and option risk number is computed (see README.md): pure,
// synchronous, deterministic, bigint only, browser-safe.
export {
  type BookTick,
  PositionBook,
  type PositionState,
  type Revaluation,
  type Trigger,
} from './book.ts';
export {
  type ContractMath,
  checkTpSl,
  executable,
  feeFor,
  fundingUsdt,
  LOTS_SCALE,
  liquidationBoundary,
  liquidationPrice,
  MAX_LEVERAGE,
  MAX_PRICE_SCALE,
  MIN_EXECUTABLE_PRICE,
  marginFor,
  notionalQuote,
  notionalUsdt,
  pnlUsdt,
  releasedMargin,
  riskRate,
  type Side,
  type TpSlRefusal,
  tpSlTriggered,
  USDT_SCALE,
  usdtFactor,
} from './contract.ts';
export {
  effectiveMaxLeverage,
  INDEX_ETFS,
  JURISDICTION_CAPS,
  LEVERAGE_CLASS_LIST,
  LEVERAGE_STEPS,
  type LeverageClass,
  leverageChoices,
  leverageClassOf,
  MAJOR_CURRENCIES,
} from './leverage.ts';
export { type OptionDirectionInput, optionOutcome } from './options.ts';
export {
  compareRatio,
  formatRatio,
  formatRatioPercent,
  type Ratio,
  ratio,
  ratioFromDecimal,
  reachesLevel,
} from './ratio.ts';
