/**
 * Leverage classes a jurisdiction profile caps. Kept equal to LEVERAGE_CLASSES in
 * packages/protocol/src/derivatives.ts (a test compares them); redeclared here so this package
 * depends on nothing but @bourse/money.
 */
export const LEVERAGE_CLASS_LIST = [
  'forex_major',
  'forex_minor',
  'gold',
  'index',
  'commodity',
  'stock',
  'crypto',
] as const;
export type LeverageClass = (typeof LEVERAGE_CLASS_LIST)[number];

/** forex_major: both currencies among these. */
export const MAJOR_CURRENCIES: readonly string[] = Object.freeze(['USD', 'EUR', 'JPY', 'GBP', 'CAD', 'CHF']);
/** index: these ETFs (by base, or symbol when the base is empty). */
export const INDEX_ETFS: readonly string[] = Object.freeze(['SPY', 'QQQ', 'DIA', 'IWM', 'VTI', 'EEM']);

/**
 * The instrument's leverage class, by the rules documented on LEVERAGE_CLASSES: forex → forex_major
 * when base and quote are both major currencies, else forex_minor; metal → gold for XAU, else
 * commodity; energy → commodity; etf → index for the index ETFs, else stock; stock → stock;
 * crypto_perp and crypto_delivery → crypto; crypto_spot (not a contract) and unknown classes → null.
 */
export function leverageClassOf(i: {
  assetClass: string;
  base: string;
  quote: string;
  symbol: string;
}): LeverageClass | null {
  switch (i.assetClass) {
    case 'forex':
      return MAJOR_CURRENCIES.includes(i.base) && MAJOR_CURRENCIES.includes(i.quote)
        ? 'forex_major'
        : 'forex_minor';
    case 'metal':
      return i.base === 'XAU' ? 'gold' : 'commodity';
    case 'energy':
      return 'commodity';
    case 'etf':
      return INDEX_ETFS.includes(i.base || i.symbol) ? 'index' : 'stock';
    case 'stock':
      return 'stock';
    case 'crypto_perp':
    case 'crypto_delivery':
      return 'crypto';
    default:
      return null;
  }
}

const freezeCaps = (caps: Record<LeverageClass, number>): Readonly<Record<LeverageClass, number>> =>
  Object.freeze(caps);

/** Built-in jurisdiction profiles' leverage caps. `eu_retail` follows the ESMA retail limits. */
export const JURISDICTION_CAPS: Readonly<{
  permissive: Readonly<Record<LeverageClass, number>>;
  eu_retail: Readonly<Record<LeverageClass, number>>;
}> = Object.freeze({
  permissive: freezeCaps({
    forex_major: 100,
    forex_minor: 100,
    gold: 100,
    index: 100,
    commodity: 100,
    stock: 100,
    crypto: 100,
  }),
  eu_retail: freezeCaps({
    forex_major: 30,
    forex_minor: 20,
    gold: 20,
    index: 20,
    commodity: 10,
    stock: 5,
    crypto: 2,
  }),
});

function wholeOrThrow(value: number, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new RangeError(`${name} must be a finite number`);
  return Math.floor(value);
}

/**
 * min(instrument max, operator max, jurisdiction cap, and — for a real-book customer — the cap of
 * their risk rating), floored to a whole number, kept within 1…100.
 */
export function effectiveMaxLeverage(
  instrumentMax: number,
  operatorMax: number,
  jurisdictionCap: number,
  ratingCap?: number,
): number {
  const m = Math.min(
    wholeOrThrow(instrumentMax, 'instrumentMax'),
    wholeOrThrow(operatorMax, 'operatorMax'),
    wholeOrThrow(jurisdictionCap, 'jurisdictionCap'),
    ratingCap === undefined ? 100 : wholeOrThrow(ratingCap, 'ratingCap'),
  );
  return Math.max(1, Math.min(100, m));
}

/** The selector's usual steps. */
export const LEVERAGE_STEPS: readonly number[] = Object.freeze([1, 2, 3, 5, 10, 20, 25, 30, 50, 75, 100]);

/** The steps ≤ max, plus max itself; ascending, unique. max is clamped to 1…100 like effectiveMaxLeverage. */
export function leverageChoices(max: number): number[] {
  const top = Math.max(1, Math.min(100, wholeOrThrow(max, 'max')));
  const out = LEVERAGE_STEPS.filter((s) => s <= top);
  if (out[out.length - 1] !== top) out.push(top);
  return out;
}
