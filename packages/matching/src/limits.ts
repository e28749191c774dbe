import type { BookConfig, StpMode } from './types.ts';

/**
 * Why prices and quantities are plain `number`s, and why that is exact.
 *
 * A JS number holds every integer up to `Number.MAX_SAFE_INTEGER` (2^53 − 1) exactly; `bigint`
 * arithmetic allocates and is several times slower on the hot path. The engine only ever adds,
 * subtracts and compares quantities, and the largest quantity it ever forms is a price level's (or
 * a FOK check's) sum of resting quantities, which is at most `maxOpenOrders × maxQtyLots`. A book's
 * config is refused unless that product is ≤ 2^53 − 1, and every command's quantity is checked with
 * `Number.isSafeInteger` and against `maxQtyLots` before it touches the book. So every sum stays exact.
 *
 * Prices are compared and offset by the band only; the one product is `referencePrice × bandBps`,
 * bounded by `MAX_PRICE_TICKS_LIMIT × MAX_BAND_BPS` < 2^53. Notional (price × quantity) is never
 * computed here: the order flow computes it in `bigint` minor units.
 */
export const MAX_PRICE_TICKS_LIMIT = 2 ** 39; // ≈ 5.5 × 10^11 ticks
export const MAX_BAND_BPS = 10_000;
/** Order and user ids are opaque strings of at most this many characters. */
export const MAX_ID_LENGTH = 64;
export const DEFAULT_MAX_OPEN_ORDERS = 1_000_000;
/** Largest `maxQtyLots` that keeps sums exact with the default `maxOpenOrders`: ≈ 9 × 10^9 lots. */
export const DEFAULT_MAX_QTY_LOTS = Math.floor(Number.MAX_SAFE_INTEGER / DEFAULT_MAX_OPEN_ORDERS);

export const STP_MODES: readonly StpMode[] = ['cancel-taker', 'cancel-maker', 'cancel-both'];

const positiveInt = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/** Throws on a config that could make the engine's arithmetic inexact or its rules meaningless. */
export function validateConfig(config: BookConfig): BookConfig {
  const problems: string[] = [];
  if (typeof config.market !== 'string' || config.market.length === 0) problems.push('market');
  if (!positiveInt(config.minQtyLots)) problems.push('minQtyLots');
  if (!positiveInt(config.maxQtyLots) || config.maxQtyLots < config.minQtyLots) problems.push('maxQtyLots');
  if (!positiveInt(config.maxOpenOrders)) problems.push('maxOpenOrders');
  if (
    positiveInt(config.maxQtyLots) &&
    positiveInt(config.maxOpenOrders) &&
    config.maxQtyLots > Math.floor(Number.MAX_SAFE_INTEGER / config.maxOpenOrders)
  ) {
    problems.push('maxQtyLots × maxOpenOrders exceeds Number.MAX_SAFE_INTEGER');
  }
  if (!positiveInt(config.maxPriceTicks) || config.maxPriceTicks > MAX_PRICE_TICKS_LIMIT) {
    problems.push('maxPriceTicks');
  }
  const band = config.band as { ticks?: unknown; bps?: unknown } | undefined;
  if (!band || 'ticks' in band === 'bps' in band) problems.push('band: exactly one of ticks or bps');
  else if ('ticks' in band && !(positiveInt(band.ticks) && band.ticks <= MAX_PRICE_TICKS_LIMIT)) {
    problems.push('band.ticks');
  } else if ('bps' in band && !(positiveInt(band.bps) && band.bps <= MAX_BAND_BPS)) problems.push('band.bps');
  if (!STP_MODES.includes(config.stpDefault)) problems.push('stpDefault');
  if (problems.length > 0) throw new RangeError(`invalid matching book config: ${problems.join(', ')}`);
  return Object.freeze({ ...config, band: Object.freeze({ ...config.band }) });
}
