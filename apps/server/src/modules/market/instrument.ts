import { divRound, parseDecimal, parseUnitsOrThrow, toDecimalString } from '@bourse/money';
import {
  ASSET_CLASSES,
  type AssetClass,
  INSTRUMENT_STATUSES,
  type InstrumentData,
  type InstrumentStatus,
  SYMBOL_PATTERN,
} from '@bourse/protocol';
import { parseSchedule, type Schedule } from './schedule.ts';
import type { MarketTables } from './tables.ts';

/** Sizes and volumes are bigint units at this scale (base asset); turnovers at TURNOVER_SCALE (quote). */
export const QTY_SCALE = 8;
export const TURNOVER_SCALE = 8;
/** The finest price tick the catalogue accepts (decimal places). */
export const PRICE_SCALE_MAX = 12;
export const NAME_MAX = 64;
export const ASSET_CODE_PATTERN = /^[A-Z0-9]{1,12}$/;
const SYMBOL_RE = new RegExp(SYMBOL_PATTERN);

export type InstrumentRow = MarketTables['market_instrument'];

/** 10^(priceScale + QTY_SCALE − TURNOVER_SCALE) per price scale: price × size back to the turnover scale. */
const TURNOVER_DIVISORS: readonly bigint[] = Array.from(
  { length: PRICE_SCALE_MAX + 1 },
  (_, scale) => 10n ** BigInt(scale + QTY_SCALE - TURNOVER_SCALE),
);

/** An instrument as the engine holds it: decimals parsed once into integer units. */
export type Instrument = Readonly<{
  /** Dense position in the loaded catalogue: the index of every per-instrument array. */
  index: number;
  id: string;
  symbol: string;
  name: string;
  assetClass: AssetClass;
  base: string;
  quote: string;
  priceTick: string;
  priceScale: number;
  /** The tick in units of 10^-priceScale: price units = ticks × tickUnits. */
  tickUnits: bigint;
  lotSize: string;
  lotUnits: bigint;
  contractSize: string;
  maxLeverage: number;
  schedule: Schedule;
  status: InstrumentStatus;
  refTicks: bigint;
  feedSymbol: string;
  expiryAt: Date | null;
  rank: number;
  /** Lower-case symbol, symbol without separators, name and base, for search. */
  searchText: string;
}>;

export function scaleOfDecimal(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

function canonicalDecimal(text: string, scale: number): string {
  return toDecimalString(parseUnitsOrThrow(text, { scale }), scale);
}

/** A trusted row (from the database) into the engine's form; an inconsistent row is a bug. */
export function toInstrument(row: InstrumentRow, index: number): Instrument {
  const priceTick = canonicalDecimal(row.price_tick, PRICE_SCALE_MAX);
  const priceScale = scaleOfDecimal(priceTick);
  const tickUnits = parseUnitsOrThrow(priceTick, { scale: priceScale });
  const refUnits = parseUnitsOrThrow(canonicalDecimal(row.ref_price, PRICE_SCALE_MAX), { scale: priceScale });
  if (refUnits % tickUnits !== 0n) throw new Error(`${row.symbol}: ref_price is not a whole number of ticks`);
  const schedule = parseSchedule(row.trading_hours);
  if (!schedule.ok) throw new Error(`${row.symbol}: ${schedule.error}`);
  const lotSize = canonicalDecimal(row.lot_size, QTY_SCALE);
  return Object.freeze({
    index,
    id: row.id,
    symbol: row.symbol,
    name: row.name,
    assetClass: row.asset_class as AssetClass,
    base: row.base,
    quote: row.quote,
    priceTick,
    priceScale,
    tickUnits,
    lotSize,
    lotUnits: parseUnitsOrThrow(lotSize, { scale: QTY_SCALE }),
    contractSize: canonicalDecimal(row.contract_size, QTY_SCALE),
    maxLeverage: row.max_leverage,
    schedule: schedule.schedule,
    status: row.status,
    refTicks: refUnits / tickUnits,
    feedSymbol: row.feed_symbol ?? row.symbol,
    expiryAt: row.expiry_at,
    rank: row.rank,
    searchText: `${row.symbol}|${row.symbol.replace(/[/._-]/g, '')}|${row.name}|${row.base}`.toLowerCase(),
  });
}

/** Price of `ticks` as a decimal string padded to the instrument's scale ("1.08500"). */
export function ticksToPrice(instrument: Instrument, ticks: bigint): string {
  return fixedPoint(ticks * instrument.tickUnits, instrument.priceScale, true);
}

/**
 * `units / 10^scale` as decimal text, exactly (bigint and string only). The hot path of every
 * ticker on the wire: the same text as @bourse/money's formatUnits — padded to `scale` digits
 * when `pad`, else canonical (trailing zeros dropped) — without its option checks
 * (instrument.test.ts compares the two).
 */
export function fixedPoint(units: bigint, scale: number, pad: boolean): string {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString();
  if (scale > 0) {
    if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
    const cut = digits.length - scale;
    let fraction = digits.slice(cut);
    if (!pad) {
      let end = fraction.length;
      while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
      fraction = fraction.slice(0, end);
    }
    digits = fraction === '' ? digits.slice(0, cut) : `${digits.slice(0, cut)}.${fraction}`;
  }
  return negative ? `-${digits}` : digits;
}

/** A decimal price into ticks; null when it is not on the instrument's tick grid or not positive. */
export function priceToTicks(instrument: Instrument, text: string): bigint | null {
  const parsed = parseDecimal(text, { scale: instrument.priceScale, allowZero: false, maxIntegerDigits: 20 });
  if (!parsed.ok || parsed.units % instrument.tickUnits !== 0n) return null;
  return parsed.units / instrument.tickUnits;
}

/** The nearest tick to a decimal price of any precision (external sources quote finer than our tick). */
export function nearestTicks(instrument: Instrument, text: string): bigint | null {
  const parsed = parseDecimal(text, { scale: PRICE_SCALE_MAX, allowZero: false, maxIntegerDigits: 20 });
  if (!parsed.ok) return null;
  const tickAtMax = instrument.tickUnits * 10n ** BigInt(PRICE_SCALE_MAX - instrument.priceScale);
  const ticks = divRound(parsed.units, tickAtMax, 'halfEven');
  return ticks > 0n ? ticks : null;
}

export function qtyToString(units: bigint): string {
  return fixedPoint(units, QTY_SCALE, false);
}

/** Quote value of `sizeUnits` at `priceTicks`, at TURNOVER_SCALE, rounded down (never overstated). */
export function turnoverUnits(instrument: Instrument, priceTicks: bigint, sizeUnits: bigint): bigint {
  const exact = priceTicks * instrument.tickUnits * sizeUnits; // scale priceScale + QTY_SCALE
  return divRound(exact, TURNOVER_DIVISORS[instrument.priceScale] as bigint, 'floor');
}

export function instrumentData(instrument: Instrument): InstrumentData {
  return {
    symbol: instrument.symbol,
    name: instrument.name,
    class: instrument.assetClass,
    base: instrument.base,
    quote: instrument.quote,
    price_tick: instrument.priceTick,
    price_scale: instrument.priceScale,
    lot_size: instrument.lotSize,
    contract_size: instrument.contractSize,
    max_leverage: instrument.maxLeverage,
    trading_hours: instrument.schedule.text,
    status: instrument.status,
    expiry_at: instrument.expiryAt ? instrument.expiryAt.getTime() : null,
    rank: instrument.rank,
  };
}

// ---- Catalogue rows from CSV ------------------------------------------------------------------

export const CATALOGUE_COLUMNS = [
  'symbol',
  'name',
  'class',
  'base',
  'quote',
  'price_tick',
  'lot_size',
  'contract_size',
  'max_leverage',
  'trading_hours',
  'status',
  'ref_price',
  'feed_symbol',
  'expiry',
  'rank',
] as const;
export type CatalogueColumn = (typeof CATALOGUE_COLUMNS)[number];
/** A catalogue row as imported: everything but ids and times. */
export type CatalogueEntry = Omit<InstrumentRow, 'id' | 'created_at' | 'updated_at'>;
export type EntryResult = { ok: true; entry: CatalogueEntry } | { ok: false; field: CatalogueColumn };

function positiveDecimal(text: string, scale: number): string | null {
  const parsed = parseDecimal(text, { scale, allowZero: false, maxIntegerDigits: 15 });
  return parsed.ok ? toDecimalString(parsed.units, scale) : null;
}

function wholeNumber(text: string, min: number, max: number): number | null {
  if (!/^[0-9]{1,7}$/.test(text)) return null;
  const value = Number.parseInt(text, 10);
  return value >= min && value <= max ? value : null;
}

/** Validates one CSV row; the first bad field is named. Optional columns may be empty. */
export function validateEntry(get: (column: CatalogueColumn) => string): EntryResult {
  const bad = (field: CatalogueColumn): EntryResult => ({ ok: false, field });
  const symbol = get('symbol');
  if (!SYMBOL_RE.test(symbol)) return bad('symbol');
  const name = get('name');
  if (name.length < 1 || name.length > NAME_MAX) return bad('name');
  const assetClass = get('class');
  if (!(ASSET_CLASSES as readonly string[]).includes(assetClass)) return bad('class');
  const base = get('base');
  if (!ASSET_CODE_PATTERN.test(base)) return bad('base');
  const quote = get('quote');
  if (!ASSET_CODE_PATTERN.test(quote)) return bad('quote');
  const priceTick = positiveDecimal(get('price_tick'), PRICE_SCALE_MAX);
  if (!priceTick) return bad('price_tick');
  const lotSize = positiveDecimal(get('lot_size'), QTY_SCALE);
  if (!lotSize) return bad('lot_size');
  const contractSize = positiveDecimal(get('contract_size') || '1', QTY_SCALE);
  if (!contractSize) return bad('contract_size');
  const maxLeverage = wholeNumber(get('max_leverage'), 1, 100);
  if (maxLeverage === null) return bad('max_leverage');
  const hours = parseSchedule(get('trading_hours'));
  if (!hours.ok) return bad('trading_hours');
  const status = get('status') || 'active';
  if (!(INSTRUMENT_STATUSES as readonly string[]).includes(status)) return bad('status');
  const refPrice = positiveDecimal(get('ref_price'), PRICE_SCALE_MAX);
  if (!refPrice) return bad('ref_price');
  const tick = parseUnitsOrThrow(priceTick, { scale: PRICE_SCALE_MAX });
  if (parseUnitsOrThrow(refPrice, { scale: PRICE_SCALE_MAX }) % tick !== 0n) return bad('ref_price');
  const feedSymbol = get('feed_symbol');
  if (feedSymbol.length > 48) return bad('feed_symbol');
  const expiryText = get('expiry');
  const expiry = expiryText === '' ? null : new Date(expiryText);
  if (expiry && (!/^\d{4}-\d{2}-\d{2}/.test(expiryText) || Number.isNaN(expiry.getTime())))
    return bad('expiry');
  if ((assetClass === 'crypto_delivery') !== (expiry !== null)) return bad('expiry');
  const rank = get('rank') === '' ? 1000 : wholeNumber(get('rank'), 0, 1_000_000);
  if (rank === null) return bad('rank');
  return {
    ok: true,
    entry: {
      symbol,
      name,
      asset_class: assetClass,
      base,
      quote,
      price_tick: priceTick,
      lot_size: lotSize,
      contract_size: contractSize,
      max_leverage: maxLeverage,
      trading_hours: hours.schedule.text,
      status: status as InstrumentStatus,
      ref_price: refPrice,
      feed_symbol: feedSymbol === '' ? null : feedSymbol,
      expiry_at: expiry,
      rank,
    },
  };
}
