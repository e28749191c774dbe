import type { AssetClass, ContractInstrumentData, ContractSide } from '@bourse/protocol';
import { ONE, show, units } from '../../shared/spot/logic/amounts.ts';

/**
 * What the contract screens work out themselves: only which rule an input breaks (so it can be
 * named before submitting) and how a server number is displayed. Margin, fees, P&L, risk rate and
 * liquidation prices are never computed here; they come from the server's answers.
 */

/** The picker's groups, in order, and the asset classes each holds. */
export const CONTRACT_GROUPS = [
  ['perpetual', ['crypto_perp']],
  ['delivery', ['crypto_delivery']],
  ['forex', ['forex']],
  ['metal', ['metal']],
  ['energy', ['energy']],
  ['stock', ['stock']],
  ['etf', ['etf']],
] as const satisfies ReadonlyArray<readonly [string, readonly AssetClass[]]>;
export type ContractGroup = (typeof CONTRACT_GROUPS)[number][0];

/** Instruments grouped for the picker, in the given (popularity) order within each group. */
export function groupContracts(
  items: readonly ContractInstrumentData[],
): { group: ContractGroup; items: ContractInstrumentData[] }[] {
  return CONTRACT_GROUPS.map(([group, classes]) => ({
    group,
    items: items.filter((i) => (classes as readonly string[]).includes(i.asset_class)),
  })).filter((g) => g.items.length > 0);
}

/**
 * The instrument shown when `?symbol=` is absent: the most popular metal (the catalogue arrives in
 * popularity order), else the most popular contract, else the first one.
 */
export function defaultContract(
  contracts: readonly ContractInstrumentData[],
  popularity: readonly string[],
): string | null {
  const known = new Set(contracts.map((c) => c.symbol));
  const bySymbol = new Map(contracts.map((c) => [c.symbol, c]));
  const ranked = popularity.filter((s) => known.has(s));
  return (
    ranked.find((s) => bySymbol.get(s)?.asset_class === 'metal') ??
    contracts.find((c) => c.asset_class === 'metal')?.symbol ??
    ranked[0] ??
    contracts[0]?.symbol ??
    null
  );
}

/** The leverage the selector starts at: the highest choice up to 10×, else the lowest choice. */
export function defaultLeverage(choices: readonly number[]): number {
  const sorted = [...choices].sort((a, b) => a - b);
  const upTo10 = sorted.filter((c) => c <= 10);
  return upTo10[upTo10.length - 1] ?? sorted[0] ?? 1;
}

export type LotsBreak = 'invalid' | 'step' | 'min' | 'max';

/** Which lots rule an input breaks (null when it keeps them all, or when it is empty). */
export function lotsBreak(
  lots: string,
  instrument: Pick<ContractInstrumentData, 'lot_step' | 'min_lots' | 'max_lots'>,
): LotsBreak | null {
  if (lots.trim() === '') return null;
  const value = units(lots);
  if (value === null || value === 0n) return 'invalid';
  const step = units(instrument.lot_step) ?? 0n;
  if (step > 0n && value % step !== 0n) return 'step';
  const min = units(instrument.min_lots);
  if (min !== null && value < min) return 'min';
  const max = units(instrument.max_lots);
  if (max !== null && value > max) return 'max';
  return null;
}

/** Whether a price input is a positive multiple of the tick (null when empty). */
export function priceBreak(price: string, tick: string): 'invalid' | 'tick' | null {
  if (price.trim() === '') return null;
  const value = units(price);
  if (value === null || value === 0n) return 'invalid';
  const step = units(tick) ?? 0n;
  if (step > 0n && value % step !== 0n) return 'tick';
  return null;
}

export type TpSlBreak = 'tpInvalid' | 'slInvalid' | 'tpSide' | 'slSide';

/**
 * The side rule for take-profit and stop-loss: for a buy, take-profit above and stop-loss below the
 * reference price; for a sell the reverse. The server checks the same rule against its own price.
 */
export function tpSlBreaks(options: {
  side: ContractSide;
  tp: string;
  sl: string;
  reference: string | null | undefined;
}): TpSlBreak[] {
  const out: TpSlBreak[] = [];
  const ref = units(options.reference ?? null);
  const tp = options.tp.trim();
  const sl = options.sl.trim();
  if (tp !== '') {
    const value = units(tp);
    if (value === null || value === 0n) out.push('tpInvalid');
    else if (ref !== null && (options.side === 'buy' ? value <= ref : value >= ref)) out.push('tpSide');
  }
  if (sl !== '') {
    const value = units(sl);
    if (value === null || value === 0n) out.push('slInvalid');
    else if (ref !== null && (options.side === 'buy' ? value >= ref : value <= ref)) out.push('slSide');
  }
  return out;
}

/** An amount input (margin top-up): a positive decimal with at most `decimals` digits, not above `max`. */
export function amountBreak(amount: string, max: string, decimals = 2): 'invalid' | 'max' | null {
  const text = amount.trim();
  if (text === '') return null;
  const value = units(text);
  const dot = text.indexOf('.');
  if (value === null || value === 0n || (dot >= 0 && text.length - dot - 1 > decimals)) return 'invalid';
  const cap = units(max);
  if (cap !== null && value > cap) return 'max';
  return null;
}

/** Partial close: lots on the instrument's step, above zero, not above the open lots. */
export function closeLotsBreak(lots: string, open: string, step: string): 'invalid' | 'step' | 'max' | null {
  const text = lots.trim();
  if (text === '') return null;
  const value = units(text);
  if (value === null || value === 0n) return 'invalid';
  const s = units(step) ?? 0n;
  if (s > 0n && value % s !== 0n) return 'step';
  const cap = units(open);
  if (cap !== null && value > cap) return 'max';
  return null;
}

/** A decimal fraction as a percent string with two decimals ("0.4215" → "42.15"), exact. */
export function fractionPct(rate: string | null | undefined): string | null {
  const text = rate?.trim() ?? '';
  const negative = text.startsWith('-');
  const value = units(negative ? text.slice(1) : text);
  if (value === null) return null;
  const shown = show(value * 100n, 4);
  return negative && value !== 0n ? `-${shown}` : shown;
}

/**
 * How far the risk rate has come towards the liquidation level, 0…100, for the bar under it (a
 * display proportion of two server numbers; nothing is decided on it).
 */
export function riskProgress(rate: string | null | undefined, level: string): number {
  const r = units(rate ?? null);
  const l = units(level);
  if (r === null || l === null || l === 0n) return 0;
  const pct = (r * 100n * ONE) / l / ONE;
  return pct > 100n ? 100 : Number(pct);
}

/** Whether a decimal string is above zero (balances). */
export function positive(value: string | null | undefined): boolean {
  const v = units(value ?? null);
  return v !== null && v > 0n;
}

/** Decimal places of a step ("0.01" → 2). */
export function stepDecimals(step: string): number {
  const dot = step.indexOf('.');
  return dot < 0 ? 0 : step.slice(dot + 1).replace(/0+$/, '').length;
}

/**
 * The order form's checks on what is typed: the rule each input breaks, the reference price TP/SL are
 * held against (the limit price, or the last trade for a market order), whether the order can be
 * previewed (`quotable`) and whether it can be sent (`ready`: also no unreadable TP/SL).
 */
export function contractOrderChecks(options: {
  instrument: Pick<ContractInstrumentData, 'lot_step' | 'min_lots' | 'max_lots' | 'price_tick'>;
  side: ContractSide;
  type: 'market' | 'limit';
  price: string;
  lots: string;
  tp: string;
  sl: string;
  last: string | null | undefined;
}) {
  const { instrument, side, type, price, lots, tp, sl } = options;
  const lotsProblem = lotsBreak(lots, instrument);
  const priceProblem = type === 'limit' ? priceBreak(price, instrument.price_tick) : null;
  const reference =
    type === 'limit' ? (priceProblem === null && price.trim() !== '' ? price.trim() : null) : options.last;
  const sideBreaks = tpSlBreaks({ side, tp, sl, reference });
  const quotable =
    lots.trim() !== '' &&
    lotsProblem === null &&
    (type === 'market' || (price.trim() !== '' && priceProblem === null));
  const ready = quotable && !sideBreaks.some((b) => b.endsWith('Invalid'));
  return { lotsProblem, priceProblem, reference, sideBreaks, quotable, ready };
}
