import { scaleOf, toDecimalString } from '@bourse/money';
import type {
  FundHoldingData,
  FundLegData,
  FundModelData,
  FundOrderData,
  Lang,
  RequiredTier,
} from '@bourse/protocol';
import type { FundsDeps } from './context.ts';
import { NAV_BASE } from './models.ts';
import { marksOf, navNow, valuesAt } from './nav.ts';
import { assetText, CASH, USDT_SCALE, usdt, weightsOf } from './plan.ts';
import type { LegRow, ModelRow, OrderRow } from './repo.ts';
import * as repo from './repo.ts';

/** What the web and the back office read: models and orders marked to the reference prices now. */

const pick = (texts: Record<string, string>, lang: Lang) => texts[lang] ?? texts.en ?? '';

/** A model's wire form without the profile's rule (the back office's; `webModel` adds it for customers). */
export function modelData(deps: FundsDeps, m: ModelRow, lang: Lang): Omit<FundModelData, 'profile_tier'> {
  const fee_rates: Record<string, string> = {};
  for (const w of m.weights) if (w.symbol) fee_rates[w.symbol] = deps.spot.market(w.symbol).takerFeeRate;
  return {
    model_id: m.id,
    name: pick(m.names, lang),
    description: pick(m.descriptions, lang),
    state: m.state,
    currency: 'USDT',
    weights: m.weights.map((w) => ({ asset: w.asset, symbol: w.symbol, weight_bps: w.weight_bps })),
    drift_bps: m.drift_bps,
    min_amount: usdt(BigInt(m.min_amount_units)),
    max_amount: usdt(BigInt(m.max_amount_units)),
    min_rating: m.min_rating,
    nav: usdt(navNow(deps, m)),
    nav_at: deps.clock.now().getTime(),
    started_at: m.created_at.getTime(),
    fee_rates,
  };
}

/** What a customer reads of a model: with the active profile's `earn` rule (read once per answer). */
export function webModel(deps: FundsDeps, m: ModelRow, lang: Lang, profileTier: RequiredTier): FundModelData {
  return { ...modelData(deps, m, lang), profile_tier: profileTier };
}

export function legData(l: LegRow): FundLegData {
  return {
    phase: l.phase,
    rebalance_id: l.rebalance_id,
    asset: l.asset,
    symbol: l.symbol,
    side: l.side,
    quantity: assetText(l.asset, BigInt(l.quantity_units)),
    filled: assetText(l.asset, BigInt(l.filled_units)),
    value: usdt(BigInt(l.value_units)),
    fee: usdt(BigInt(l.fee_units)),
    state: l.state,
    spot_order_id: l.spot_order_id,
    refusal: l.refusal,
    at: l.updated_at.getTime(),
  };
}

/** Percent with two decimals of a / b (0 when b is 0), toward zero. */
function pct(a: bigint, b: bigint): string {
  if (b === 0n) return '0.00';
  const v = (a * 10_000n) / b;
  const sign = v < 0n ? '-' : '';
  const abs = v < 0n ? -v : v;
  return `${sign}${toDecimalString(abs, 2)}`;
}

/** Orders with their holdings and legs, marked to the reference prices now (three queries a page). */
export async function ordersData(
  deps: FundsDeps,
  rows: readonly OrderRow[],
  lang: Lang,
): Promise<FundOrderData[]> {
  const ids = rows.map((r) => r.id);
  const [held, legs, models] = await Promise.all([
    repo.holdings(deps.db, ids),
    repo.legs(deps.db, ids),
    repo.models(deps.db),
  ]);
  const modelOf = new Map(models.map((m) => [m.id, m]));
  return rows.map((o) => {
    const model = modelOf.get(o.model_id) as ModelRow;
    const quantities = Object.fromEntries(
      held.filter((h) => h.order_id === o.id).map((h) => [h.asset, h.quantity_units]),
    );
    const prices = marksOf(deps, o.weights);
    const values = valuesAt(o.weights, quantities, prices);
    const weights = weightsOf(values);
    let value = 0n;
    for (const v of values.values()) value += v;
    const holdings: FundHoldingData[] = o.weights
      .filter((w) => w.symbol !== null)
      .map((w) => ({
        asset: w.asset,
        quantity: assetText(w.asset, BigInt(quantities[w.asset] ?? '0')),
        price: prices.get(w.symbol as string) ?? '0',
        value: usdt(values.get(w.asset) ?? 0n),
        weight_bps: weights.get(w.asset) ?? 0,
        target_bps: w.weight_bps,
      }));
    const cost = BigInt(o.cost_units ?? o.amount_units);
    const proceeds = o.proceeds_units === null ? null : BigInt(o.proceeds_units);
    const worth = proceeds ?? value;
    const orderLegs = legs.filter((l) => l.order_id === o.id);
    return {
      order_id: o.id,
      client_oid: o.client_oid,
      model_id: o.model_id,
      model_name: pick(model.names, lang),
      book: o.book,
      state: o.state,
      amount: usdt(BigInt(o.amount_units)),
      cost: usdt(cost),
      fees: usdt(BigInt(o.fee_units)),
      units: toDecimalString(BigInt(o.units ?? '0'), USDT_SCALE),
      nav_at_purchase: usdt(BigInt(o.nav_units)),
      nav: usdt(navNow(deps, model)),
      value: usdt(o.state === 'redeemed' ? 0n : value),
      pnl: usdt(worth - cost),
      pnl_pct: pct(worth - cost, cost),
      holdings,
      cash: usdt(BigInt(quantities[CASH] ?? '0')),
      proceeds: proceeds === null ? null : usdt(proceeds),
      returned_in_kind: orderLegs
        .filter((l) => l.phase === 'redeem' && BigInt(l.quantity_units) > BigInt(l.filled_units))
        .map((l) => ({
          asset: l.asset,
          quantity: assetText(l.asset, BigInt(l.quantity_units) - BigInt(l.filled_units)),
        })),
      legs: orderLegs.map(legData),
      created_at: o.created_at.getTime(),
      bought_at: o.bought_at?.getTime() ?? null,
      redeemed_at: o.redeemed_at?.getTime() ?? null,
    };
  });
}

/** The model's hypothetical holdings per unit (for the back office). */
export function positionsData(m: ModelRow): Array<{ asset: string; quantity: string }> {
  return Object.entries(m.positions).map(([asset, q]) => ({
    asset,
    quantity: toDecimalString(BigInt(q) / NAV_BASE, scaleOf(asset)),
  }));
}
