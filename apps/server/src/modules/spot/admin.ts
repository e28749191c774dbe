import { isKnownAsset, parseDecimal } from '@bourse/money';
import type { SpotKillSwitchData, SpotMarketAdminData } from '@bourse/protocol';
import {
  type MarketMath,
  mathOf,
  normalizeDecimal,
  parseRate,
  RATE_MAX,
  scaleProblem,
  toSteps,
} from '@bourse/risk';
import { inTransaction } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import {
  adminMarket,
  BOOKS,
  type LoadedMarket,
  loadedMarket,
  loadMarkets,
  marketData,
  marketOf,
  marketRowOf,
  reconcileBook,
  type SpotState,
} from './markets.ts';
import { insertMarket, selectMarket, settingKey, updateMarket, writeSetting } from './repo.ts';

/** The back office: halt, enable, change and create markets, the kill switch — each audited. */

export type MarketUpdateBody = {
  maker_fee_rate?: string;
  taker_fee_rate?: string;
  min_quantity?: string;
  min_notional?: string;
  max_notional?: string;
  price_band_bps?: string;
  reason?: string;
};

export type MarketCreateBody = {
  symbol: string;
  price_tick: string;
  lot_size: string;
  min_quantity: string;
  min_notional: string;
  max_notional: string;
  maker_fee_rate: string;
  taker_fee_rate: string;
  price_band_bps: string;
  enable?: string;
};

export function adminMarkets(s: SpotState) {
  return { items: [...s.markets.values()].map(adminMarket), kill_switch: s.kill };
}

export async function halt(s: SpotState, staff: StaffContext, symbol: string, reason: string) {
  marketOf(s, symbol).status = 'halted'; // matching stops now; the row follows
  marketOf(s, symbol).haltReason = reason;
  return saveMarket(s, staff, symbol, { status: 'halted', halt_reason: reason }, 'spot.market.halt', reason);
}

export async function enable(s: SpotState, staff: StaffContext, symbol: string, reason?: string) {
  marketOf(s, symbol);
  return saveMarket(s, staff, symbol, { status: 'enabled', halt_reason: null }, 'spot.market.enable', reason);
}

/** Changes a market's fees, minimums, maximum or band; maker ≤ taker and min ≤ max notional hold after it. */
export async function update(s: SpotState, staff: StaffContext, symbol: string, body: MarketUpdateBody) {
  const m = marketOf(s, symbol);
  const change: Record<string, unknown> = {};
  const maker =
    body.maker_fee_rate !== undefined ? checkRate('maker_fee_rate', body.maker_fee_rate) : m.makerFeeRate;
  const taker =
    body.taker_fee_rate !== undefined ? checkRate('taker_fee_rate', body.taker_fee_rate) : m.takerFeeRate;
  checkMakerAtMostTaker(maker, taker);
  change.maker_fee_rate = maker;
  change.taker_fee_rate = taker;
  if (body.min_quantity !== undefined) {
    const q = toSteps(body.min_quantity, m.math.qtyScale, m.math.lotUnits);
    if (!q.ok) refuse('ORDER_QTY_LOT', { lot: m.lotSize });
    change.min_quantity = normalizeDecimal(body.min_quantity);
  }
  for (const field of ['min_notional', 'max_notional'] as const) {
    const v = body[field];
    if (v === undefined) continue;
    checkNotional(m.math, field, v);
    change[field] = normalizeDecimal(v);
  }
  if (body.price_band_bps !== undefined) change.price_band_bps = checkBandBps(body.price_band_bps);
  const notional = (v: string) => parseDecimal(v, { scale: m.math.quoteScale, maxIntegerDigits: 20 });
  const minN = notional(String(change.min_notional ?? m.minNotional));
  const maxN = notional(String(change.max_notional ?? m.maxNotional));
  if (minN.ok && maxN.ok && (maxN.units <= 0n || minN.units > maxN.units))
    refuse('BAD_INPUT', { field: 'max_notional' });
  return saveMarket(s, staff, symbol, change, 'spot.market.update', body.reason);
}

/** A market for a catalogue `crypto_spot` instrument whose currencies the ledger knows; halted unless `enable=1`. */
export async function createMarket(s: SpotState, staff: StaffContext, body: MarketCreateBody) {
  if (s.markets.has(body.symbol)) refuse('SPOT_MARKET_EXISTS', { symbol: body.symbol });
  // Refuses INSTRUMENT_UNKNOWN for a symbol the catalogue lacks.
  const instrument = s.market.instrument(body.symbol);
  if (instrument.assetClass !== 'crypto_spot') refuse('INSTRUMENT_UNKNOWN', { symbol: body.symbol });
  for (const field of ['price_tick', 'lot_size'] as const) {
    const p = parseDecimal(body[field], { scale: 18, allowZero: false });
    if (!p.ok) refuse('AMOUNT_INVALID', { field });
  }
  for (const currency of [instrument.base, instrument.quote]) {
    if (!isKnownAsset(currency)) refuse('CURRENCY_UNKNOWN', { currency });
  }
  const math = mathOf({
    base: instrument.base,
    quote: instrument.quote,
    priceTick: normalizeDecimal(body.price_tick),
    lotSize: normalizeDecimal(body.lot_size),
  });
  const problem = scaleProblem(math);
  if (problem) refuse('SPOT_MARKET_SCALE', problem);
  const maker = checkRate('maker_fee_rate', body.maker_fee_rate);
  const taker = checkRate('taker_fee_rate', body.taker_fee_rate);
  checkMakerAtMostTaker(maker, taker);
  const minQ = toSteps(body.min_quantity, math.qtyScale, math.lotUnits);
  if (!minQ.ok) refuse('ORDER_QTY_LOT', { lot: normalizeDecimal(body.lot_size) });
  const bps = checkBandBps(body.price_band_bps);
  for (const field of ['min_notional', 'max_notional'] as const) checkNotional(math, field, body[field]);
  const now = s.clock.now();
  const enabled = body.enable === '1';
  await inTransaction(s.db, async (tx) => {
    await insertMarket(tx, {
      symbol: instrument.symbol,
      base: instrument.base,
      quote: instrument.quote,
      price_tick: normalizeDecimal(body.price_tick),
      lot_size: normalizeDecimal(body.lot_size),
      min_quantity: normalizeDecimal(body.min_quantity),
      min_notional: normalizeDecimal(body.min_notional),
      max_notional: normalizeDecimal(body.max_notional),
      maker_fee_rate: maker,
      taker_fee_rate: taker,
      price_band_bps: bps,
      status: enabled ? 'enabled' : 'halted',
      halt_reason: enabled ? null : 'new market',
      created_at: now,
      updated_at: now,
    });
    await s.audit.record(tx, {
      actorId: staff.staffId,
      action: 'spot.market.create',
      targetType: 'spot_market',
      targetId: instrument.symbol,
      after: body,
    });
  });
  await loadMarkets(s);
  s.bookLeases?.controlsChanged();
  const m = marketOf(s, instrument.symbol);
  // SPOT_LEASES: the next lease round takes (and recovers) the new books; else this process owns them.
  if (!s.bookLeases) for (const b of BOOKS) await m.runners[b].recover();
  return adminMarket(m);
}

/**
 * Engaging flips the in-memory flag first (matching stops with the next batch, before the audit row
 * is written); releasing only counts once recorded.
 */
export async function setKillSwitch(
  s: SpotState,
  staff: StaffContext,
  engaged: boolean,
  reason: string,
): Promise<SpotKillSwitchData> {
  const before = s.kill;
  const next: SpotKillSwitchData = {
    engaged,
    reason: engaged ? reason : null,
    engaged_at: engaged ? s.clock.now().getTime() : null,
  };
  s.kill = next;
  try {
    await inTransaction(s.db, async (tx) => {
      await writeSetting(tx, 'kill_switch', next, s.clock.now());
      await s.audit.record(tx, {
        actorId: staff.staffId,
        action: engaged ? 'spot.kill_switch.engage' : 'spot.kill_switch.release',
        targetType: 'spot',
        targetId: 'kill_switch',
        before,
        after: next,
        reason,
      });
    });
  } catch (error) {
    if (!engaged) s.kill = before; // engaging stays on (the safe side)
    throw error;
  }
  s.killSeen = settingKey(next);
  s.bookLeases?.controlsChanged();
  return s.kill;
}

/** Writes a market change with its audit row, then reloads it (and journals a band or minimum change). */
async function saveMarket(
  s: SpotState,
  staff: StaffContext,
  symbol: string,
  change: Partial<Record<string, unknown>>,
  action: string,
  reason?: string,
): Promise<SpotMarketAdminData> {
  const before = marketData(marketOf(s, symbol));
  await inTransaction(s.db, async (tx) => {
    await updateMarket(tx, symbol, change, s.clock.now());
    const row = await selectMarket(tx, symbol);
    await s.audit.record(tx, {
      actorId: staff.staffId,
      action,
      targetType: 'spot_market',
      targetId: symbol,
      before,
      after: marketData(loadedMarket(s, marketRowOf(row), marketOf(s, symbol))),
      ...(reason ? { reason } : {}),
    });
  });
  const row = await selectMarket(s.db, symbol);
  const next: LoadedMarket = loadedMarket(s, marketRowOf(row), marketOf(s, symbol));
  s.markets.set(symbol, next);
  // The books this process runs journal a band or minimum change now; with SPOT_LEASES the owners of
  // the others read the row when told (or at their next lease round) and journal it themselves.
  for (const b of BOOKS) await reconcileBook(s, symbol, b);
  s.bookLeases?.controlsChanged();
  return adminMarket(next);
}

function checkRate(field: string, text: string): string {
  const p = parseDecimal(text, { scale: 8 });
  if (!p.ok) refuse('AMOUNT_INVALID', { field });
  if (p.units > 10_000_000n) refuse('SPOT_FEE_RATE_RANGE', { field, max: RATE_MAX });
  return normalizeDecimal(text);
}

function checkMakerAtMostTaker(maker: string, taker: string): void {
  if (parseRate(maker).num > parseRate(taker).num)
    refuse('SPOT_FEE_RATE_RANGE', { field: 'maker_fee_rate', max: taker });
}

function checkBandBps(text: string): number {
  const bps = Number(text);
  if (bps < 1 || bps > 10_000) refuse('BAD_INPUT', { field: 'price_band_bps' });
  return bps;
}

function checkNotional(math: MarketMath, field: 'min_notional' | 'max_notional', text: string): void {
  const p = parseDecimal(text, { scale: math.quoteScale, maxIntegerDigits: 20 });
  if (!p.ok) refuse('AMOUNT_INVALID', { field });
}
