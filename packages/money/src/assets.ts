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

/**
 * Assets listed while the platform runs (a launchpad coin): each registered once with its scale,
 * from the row that owns it, at start and when created. A code never changes scale: registering a
 * known code with another scale throws, and a built-in code cannot be registered.
 */
const LISTED = new Map<string, number>();
const LISTED_CODE = /^[A-Z][A-Z0-9]{1,9}$/;

export function registerAsset(code: string, scale: number): void {
  if (!LISTED_CODE.test(code)) throw new RangeError(`Bad asset code: ${JSON.stringify(code)}`);
  if (!Number.isInteger(scale) || scale < 0 || scale > MAX_SCALE)
    throw new RangeError(`Bad scale for ${code}`);
  if (Object.hasOwn(ASSET_SCALES, code)) throw new RangeError(`${code} is a built-in asset`);
  const known = LISTED.get(code);
  if (known !== undefined && known !== scale) throw new RangeError(`${code} is listed with scale ${known}`);
  LISTED.set(code, scale);
}

export function isKnownAsset(asset: string): asset is AssetCode {
  // hasOwn, not `in`: 'constructor' or '__proto__' must not look like assets.
  return Object.hasOwn(ASSET_SCALES, asset) || LISTED.has(asset);
}

/** Scale of a registered asset; throws for anything else (codes are case-sensitive). */
export function scaleOf(asset: string): number {
  if (Object.hasOwn(ASSET_SCALES, asset)) return ASSET_SCALES[asset as AssetCode];
  const listed = LISTED.get(asset);
  if (listed === undefined) throw new RangeError(`Unknown asset: ${JSON.stringify(asset)}`);
  return listed;
}
