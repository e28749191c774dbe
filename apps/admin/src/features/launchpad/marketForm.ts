import { scaleOf } from '@bourse/money';
import type { AdminLaunchpadMarketBody, AdminLaunchpadProjectData } from '@bourse/protocol';

/**
 * The form that opens a listed coin's spot market (`POST launchpad/projects/:id/market`): its fields
 * as text, and defaults a staff member starts from. The server checks every value again (the spot
 * market's own rules: `SPOT_MARKET_SCALE`, `ORDER_QTY_LOT`, `INSTRUMENT_INVALID`…).
 */
export type MarketFields = Omit<AdminLaunchpadMarketBody, 'reason' | 'token' | 'lang' | 'rtoken'>;

export const MARKET_FIELDS = [
  'price_tick',
  'lot_size',
  'min_quantity',
  'min_notional',
  'max_notional',
  'maker_fee_rate',
  'taker_fee_rate',
  'price_band_bps',
] as const satisfies readonly (keyof MarketFields)[];

/**
 * A tick giving the issue price four significant digits (a power of ten), at most `maxDecimals`
 * places: a spot market's price and lot decimals together fit in the quote currency's scale.
 */
export function tickFor(price: string, maxDecimals: number): string {
  const [whole = '', frac = ''] = price.split('.');
  const digits = whole.replace(/^0+/, '');
  const lead = frac.search(/[1-9]/);
  const exponent = digits !== '' ? digits.length - 1 : lead < 0 ? 0 : -(lead + 1);
  const e = Math.max(exponent - 3, -maxDecimals);
  return e >= 0 ? `1${'0'.repeat(e)}` : `0.${'0'.repeat(-e - 1)}1`;
}

const decimalsOf = (text: string) => (text.includes('.') ? text.length - text.indexOf('.') - 1 : 0);

/**
 * Where a staff member starts: a tick of four significant digits of the issue price, and lots as
 * fine as 0.01 when the coin and the quote scale allow (the tick's and the lot's decimals together
 * within USDT's scale, as the spot market requires).
 */
export function marketDefaults(p: Pick<AdminLaunchpadProjectData, 'price' | 'coin_scale'>): MarketFields {
  const quoteScale = scaleOf('USDT');
  const tick = tickFor(p.price, quoteScale);
  const lotDecimals = Math.max(0, Math.min(p.coin_scale, 2, quoteScale - decimalsOf(tick)));
  const lot = lotDecimals === 0 ? '1' : `0.${'0'.repeat(lotDecimals - 1)}1`;
  return {
    price_tick: tick,
    lot_size: lot,
    min_quantity: lot,
    min_notional: '1',
    max_notional: '1000000',
    maker_fee_rate: '0.001',
    taker_fee_rate: '0.002',
    price_band_bps: '2000',
  };
}

/** A distributed project whose listing date has come and whose market is not open yet. */
export function mayOpenMarket(
  p: Pick<AdminLaunchpadProjectData, 'state' | 'listing_at' | 'market_symbol'>,
  nowMs: number,
): boolean {
  return p.state === 'distributed' && p.listing_at <= nowMs && p.market_symbol === null;
}
