import { isKnownAsset, parseDecimal, scaleOf, toDecimalString } from '@bourse/money';
import { type AdminLaunchpadProjectBody, LAUNCHPAD_LIMITS } from '@bourse/protocol';
import { refuse } from '../../http/refusal.ts';
import type { ProjectRow } from './repo.ts';

/**
 * The launchpad's arithmetic, all in integers: quantities in lots, USDT and coins in minor units,
 * the fee in basis points of the cost, rounded down (the customer never pays a fraction of a unit
 * more than the rate). Project input is validated here, each bad value named by its field.
 */

export const USDT = { code: 'USDT', scale: scaleOf('USDT') } as const;
/** The most a fee rate may say, in basis points (LAUNCHPAD_LIMITS.feeRateMax percent). */
const FEE_BPS_MAX = 500;

export function coinsOfLots(p: Pick<ProjectRow, 'lot_units' | 'coin_scale'>, lots: bigint): string {
  return toDecimalString(lots * BigInt(p.lot_units), p.coin_scale);
}

export function feeRateText(bps: number): string {
  return toDecimalString(BigInt(bps), 2);
}

/** The fee on a cost: floor(cost × bps / 10,000). */
export function feeOf(costUnits: bigint, bps: number): bigint {
  return (costUnits * BigInt(bps)) / 10_000n;
}

/** What `lots` cost and what subscribing them freezes (cost + fee; the margin is the whole cost). */
export function costOf(p: Pick<ProjectRow, 'lot_price_units' | 'fee_bps'>, lots: bigint) {
  const cost = lots * BigInt(p.lot_price_units);
  const fee = feeOf(cost, p.fee_bps);
  return { cost, fee, frozen: cost + fee };
}

/** A customer's quantity in coins → lots; refuses what is not a whole number of lots. */
export function lotsOf(p: Pick<ProjectRow, 'lot_units' | 'coin_scale' | 'coin'>, quantity: string): bigint {
  const parsed = parseDecimal(quantity.trim(), {
    scale: p.coin_scale,
    allowZero: false,
    maxIntegerDigits: 16,
  });
  if (!parsed.ok) {
    if (parsed.error === 'NEGATIVE' || parsed.error === 'ZERO')
      refuse('AMOUNT_NOT_POSITIVE', { field: 'quantity' });
    if (parsed.error === 'TOO_PRECISE')
      refuse('LAUNCHPAD_LOT_STEP', {
        step: toDecimalString(BigInt(p.lot_units), p.coin_scale),
        coin: p.coin,
      });
    if (parsed.error === 'TOO_LARGE') refuse('AMOUNT_TOO_LARGE', { field: 'quantity', max: '1e16' });
    refuse('AMOUNT_INVALID', { field: 'quantity' });
  }
  const lot = BigInt(p.lot_units);
  if (parsed.units % lot !== 0n)
    refuse('LAUNCHPAD_LOT_STEP', { step: toDecimalString(lot, p.coin_scale), coin: p.coin });
  return parsed.units / lot;
}

function positive(field: string, text: string, scale: number): bigint {
  const parsed = parseDecimal(text.trim(), { scale, allowZero: false, maxIntegerDigits: 20 });
  if (!parsed.ok) refuse('LAUNCHPAD_PROJECT_INVALID', { field });
  return parsed.units;
}

/** A coin amount that must be a whole, positive number of lots. */
function lotsField(field: string, text: string, scale: number, lot: bigint, allowZero = false): bigint {
  const parsed = parseDecimal(text.trim(), { scale, allowZero, maxIntegerDigits: 20 });
  if (!parsed.ok || parsed.units % lot !== 0n) refuse('LAUNCHPAD_PROJECT_INVALID', { field });
  const lots = parsed.units / lot;
  if (lots > BigInt(LAUNCHPAD_LIMITS.lotsMax)) refuse('LAUNCHPAD_PROJECT_INVALID', { field });
  return lots;
}

export type ProjectFigures = Pick<
  ProjectRow,
  | 'price_units'
  | 'lot_units'
  | 'lot_price_units'
  | 'circulation_units'
  | 'supply_lots'
  | 'soft_cap_lots'
  | 'cap_lots'
  | 'min_lots'
  | 'fee_bps'
  | 'opens_at'
  | 'closes_at'
  | 'listing_at'
  | 'release_at'
>;

/** Every figure of a new project, checked; the first bad one is refused by name. */
export function projectFigures(b: AdminLaunchpadProjectBody, now: Date): ProjectFigures {
  if (isKnownAsset(b.coin)) refuse('LAUNCHPAD_COIN_TAKEN', { coin: b.coin });
  const scale = b.coin_scale;
  const price = positive('price', b.price, USDT.scale);
  const lot = positive('lot_size', b.lot_size, scale);
  // The price of one lot must be a whole number of USDT units: every cost is then exact.
  const lotPriceScaled = price * lot;
  const unit = 10n ** BigInt(scale);
  if (lotPriceScaled % unit !== 0n) refuse('LAUNCHPAD_PROJECT_INVALID', { field: 'lot_size' });
  const circulation = positive('circulation', b.circulation, scale);
  const supply = lotsField('supply', b.supply, scale, lot);
  if (supply * lot > circulation) refuse('LAUNCHPAD_PROJECT_INVALID', { field: 'circulation' });
  const softCap = lotsField('soft_cap', b.soft_cap, scale, lot, true);
  if (softCap > supply) refuse('LAUNCHPAD_PROJECT_INVALID', { field: 'soft_cap' });
  const cap = lotsField('per_customer_cap', b.per_customer_cap, scale, lot);
  if (cap > supply) refuse('LAUNCHPAD_PROJECT_INVALID', { field: 'per_customer_cap' });
  const min = lotsField('min_subscription', b.min_subscription, scale, lot);
  if (min > cap) refuse('LAUNCHPAD_PROJECT_INVALID', { field: 'min_subscription' });
  const margin = parseDecimal(b.margin_ratio.trim(), { scale: 2 });
  if (!margin.ok || margin.units !== 10_000n) refuse('LAUNCHPAD_PROJECT_INVALID', { field: 'margin_ratio' });
  const fee = parseDecimal(b.fee_rate.trim(), { scale: 2, allowZero: true });
  if (!fee.ok || fee.units > BigInt(FEE_BPS_MAX)) refuse('LAUNCHPAD_PROJECT_INVALID', { field: 'fee_rate' });
  if (b.opens_at <= now.getTime()) refuse('LAUNCHPAD_PROJECT_INVALID', { field: 'opens_at' });
  if (b.closes_at <= b.opens_at) refuse('LAUNCHPAD_PROJECT_INVALID', { field: 'closes_at' });
  if (b.listing_at < b.closes_at) refuse('LAUNCHPAD_PROJECT_INVALID', { field: 'listing_at' });
  return {
    price_units: price.toString(),
    lot_units: lot.toString(),
    lot_price_units: (lotPriceScaled / unit).toString(),
    circulation_units: circulation.toString(),
    supply_lots: supply.toString(),
    soft_cap_lots: softCap.toString(),
    cap_lots: cap.toString(),
    min_lots: min.toString(),
    fee_bps: Number(fee.units),
    opens_at: new Date(b.opens_at),
    closes_at: new Date(b.closes_at),
    listing_at: new Date(b.listing_at),
    release_at: new Date(b.listing_at + b.lockup_days * 86_400_000),
  };
}
