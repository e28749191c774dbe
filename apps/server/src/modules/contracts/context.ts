import type { LeverageClass } from '@bourse/protocol';
import { effectiveMaxLeverage, executable, leverageClassOf } from '@bourse/risk';
import type { Logger } from 'pino';
import type { Db, Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import type { reasonEnvelope } from '../../http/envelope.ts';
import { Refusal, refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
import type { Book } from './core.ts';
import { type Conversion, conversionFrom, IDENTITY, type InstrumentInfo, storedPrice } from './math.ts';
import { loadSettings } from './repo.ts';
import { parseSetting, type Setting } from './settings.ts';

/**
 * What every use case of the contracts service works with: its dependencies, the instrument and
 * its setting, and the prices now (customer requests act on the live ticker; the engine acts on
 * recorded ticks, see round.ts).
 */

/** What contracts need from the jurisdiction profile (modules/jurisdiction implements it). */
export type LeverageCaps = { leverageCap(cls: LeverageClass): Promise<number> };

/**
 * What contracts need from the customer's risk rating (modules/suitability implements it; wiring.ts
 * injects it): refuse a real-book order above the rating's leverage or margin cap, and the rating's
 * leverage cap for display.
 */
export type RatingCaps = {
  checkCap(
    customerId: string,
    req: { productClass: 'contracts'; amountUnits?: bigint; leverage?: number },
  ): Promise<void>;
  maxLeverage(customerId: string): Promise<number>;
};

export type Lang = Parameters<typeof reasonEnvelope>[0];

export type ContractsDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  market: Market;
  jurisdiction: LeverageCaps;
  ratingCaps: RatingCaps;
};

export type ContractsContext = ContractsDeps & {
  /** The spread of each symbol as last read (display only; every action reads the setting in its transaction). */
  readonly spreads: Map<string, bigint>;
};

export type Priced = { i: InstrumentInfo; s: Setting };

const USD_QUOTES = new Set(['USD', 'USDT']);

export function createContext(deps: ContractsDeps): ContractsContext {
  return { ...deps, spreads: new Map() };
}

export function instrumentOf(ctx: ContractsContext, symbol: string): InstrumentInfo {
  return ctx.market.instrument(symbol);
}

/** The instrument and its setting; refuses CONTRACT_UNAVAILABLE when it has none. */
export async function settingOf(ctx: ContractsContext, q: Db | Tx, symbol: string): Promise<Priced> {
  const [row] = await loadSettings(q, symbol);
  if (!row) refuse('CONTRACT_UNAVAILABLE', { symbol });
  const i = instrumentOf(ctx, symbol);
  return { i, s: parseSetting(row, i) };
}

/** Every setting (or one symbol's) whose instrument is still in the catalogue; refreshes the spreads. */
export async function allSettings(ctx: ContractsContext, symbol?: string): Promise<Priced[]> {
  const rows = await loadSettings(ctx.db, symbol);
  const out: Priced[] = [];
  for (const row of rows) {
    let i: InstrumentInfo;
    try {
      i = instrumentOf(ctx, row.symbol);
    } catch (error) {
      if (error instanceof Refusal) continue; // no longer in the catalogue
      throw error;
    }
    const s = parseSetting(row, i);
    ctx.spreads.set(s.symbol, s.spreadUnits);
    out.push({ i, s });
  }
  return out;
}

/** The catalogue pair converting `quote` to USD: `USD/<Q>` (inverse) or `<Q>/USD`. */
export function pairOf(
  market: Market,
  quote: string,
): { symbol: string; inverse: boolean; scale: number } | null {
  for (const [symbol, inverse] of [
    [`USD/${quote}`, true],
    [`${quote}/USD`, false],
  ] as const) {
    try {
      return { symbol, inverse, scale: market.instrument(symbol).priceScale };
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
    }
  }
  return null;
}

/** Quote → USDT now, from the pair's current bid/ask (USD and USDT → 1). */
export function conversionNow(market: Market, i: InstrumentInfo): Conversion {
  if (USD_QUOTES.has(i.quote)) return IDENTITY;
  const pair = pairOf(market, i.quote);
  if (!pair) refuse('CONTRACT_UNAVAILABLE', { symbol: i.symbol });
  const t = market.ticker(pair.symbol);
  const p = market.instrument(pair.symbol);
  return conversionFrom(pair, storedPrice(p, t.bid), storedPrice(p, t.ask));
}

/** conversionNow, or null when there is none now (displays show no figure rather than refuse). */
export function conversionOrNull(market: Market, i: InstrumentInfo): Conversion | null {
  try {
    return conversionNow(market, i);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return null;
  }
}

/** The instrument's, operator's and jurisdiction's maximum; with `ratingCap`, the customer's rating's too (display). */
export async function maxLeverageOf(
  ctx: ContractsContext,
  i: InstrumentInfo,
  s: Setting,
  ratingCap?: number,
): Promise<number> {
  const cls = leverageClassOf(i);
  const cap = cls ? await ctx.jurisdiction.leverageCap(cls) : 1;
  return effectiveMaxLeverage(i.maxLeverage, s.maxLeverage, cap, ratingCap);
}

/** The rating's leverage cap of a real-book customer (undefined: anonymous or demo, not capped by a rating). */
export async function ratingCapOf(
  ctx: ContractsContext,
  auth: AuthContext | null,
): Promise<number | undefined> {
  return auth && !auth.isDemo ? ctx.ratingCaps.maxLeverage(auth.customerId) : undefined;
}

/** Refuses a real-book order above the customer's rating caps (the demo book is play money: not capped). */
export async function checkRatingCap(
  ctx: ContractsContext,
  auth: AuthContext | null,
  order: { leverage: number; marginUnits: bigint },
): Promise<void> {
  if (!auth || auth.isDemo) return;
  await ctx.ratingCaps.checkCap(auth.customerId, {
    productClass: 'contracts',
    leverage: order.leverage,
    amountUnits: order.marginUnits,
  });
}

export function parseLeverage(text: string, max: number): number {
  const value = Number.parseInt(text, 10);
  if (!Number.isInteger(value) || value < 1 || value > max) refuse('LEVERAGE_INVALID', { max });
  return value;
}

export function bookOf(auth: AuthContext): Book {
  return auth.isDemo ? 'demo' : 'real';
}

/** The executable prices now (refuses MARKET_CLOSED naming the hours, PRICE_STALE …). */
export function pricesNow(market: Market, i: InstrumentInfo, s: Setting) {
  const price = market.priceForTrading(i.symbol);
  return {
    price,
    exec: executable(price.bidTicks * i.tickUnits, price.askTicks * i.tickUnits, s.spreadUnits),
    markUnits: price.markTicks * i.tickUnits,
  };
}

export function nextFundingAt(s: Setting, nowMs: number): number | null {
  if (s.fundingIntervalHours === null) return null;
  const every = s.fundingIntervalHours * 3_600_000;
  return (Math.floor(nowMs / every) + 1) * every;
}
