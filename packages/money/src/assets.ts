/**
 * The scale (number of decimal places of the minor unit) of every asset the
 * platform knows. Amounts are stored as bigint counts of that minor unit, in
 * ledgers, databases and events, without the scale next to them: changing a
 * scale would silently multiply or divide every stored balance by a power of
 * ten. So an entry, once shipped, is never changed or removed. Scales are
 * deliberately generous (fiat at 8, not 2) so that prices, fees and FX
 * conversions keep precision; display rounding happens only in formatting.
 */
export const ASSET_SCALES = Object.freeze({
  // Fiat
  USD: 8,
  EUR: 8,
  HKD: 8,
  CNY: 8,
  // Stablecoins
  USDT: 8,
  USDC: 8,
  // Crypto
  BTC: 8,
  ETH: 18,
  TRX: 6,
  BNB: 18,
  SOL: 9,
} as const);

export type AssetCode = keyof typeof ASSET_SCALES;

/**
 * The scale to use when *adding* a new crypto asset to ASSET_SCALES and its
 * native precision is not a better fit. It is not a fallback at lookup time:
 * an asset missing from the registry is a bug, not something to guess.
 */
export const DEFAULT_CRYPTO_SCALE = 8;

/** Largest scale any asset or computation in this package accepts (ETH's wei). */
export const MAX_SCALE = 18;

export function isKnownAsset(asset: string): asset is AssetCode {
  // hasOwn, not `in`: 'constructor' or '__proto__' must not look like assets.
  return Object.hasOwn(ASSET_SCALES, asset);
}

/** Scale of a registered asset; throws for anything else (codes are case-sensitive). */
export function scaleOf(asset: string): number {
  if (!isKnownAsset(asset)) {
    throw new RangeError(`Unknown asset: ${JSON.stringify(asset)}`);
  }
  return ASSET_SCALES[asset];
}
