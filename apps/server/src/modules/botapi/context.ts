import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ApiKeys, KeyPrincipal } from '../apikeys/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
import type { Spot } from '../spot/index.ts';
import { binanceRefuse, INVALID_SYMBOL } from './errors.ts';
import { binanceSymbol, type EngineMaxima } from './views.ts';
import type { BotLimits } from './weights.ts';

export type BotApiDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  spot: Spot;
  market: Market;
  ledger: Ledger;
  keys: ApiKeys;
  maxima: EngineMaxima;
  /** Tests lower the limits; production uses Binance's (weights.ts BOT_LIMITS). */
  limits?: BotLimits;
};

/** Query and form fields of a call, merged (Binance reads both). */
export type Params = Record<string, string | undefined>;

/** Our symbol (`BTC/USDT`) for a Binance one (`BTCUSDT`), or -1121. */
export function symbolOf(deps: BotApiDeps, binance: string | undefined): string {
  if (binance === undefined || binance === '') binanceRefuse(INVALID_SYMBOL);
  const m = deps.spot.markets().find((x) => binanceSymbol(x.symbol) === binance);
  if (!m) binanceRefuse(INVALID_SYMBOL);
  return m.symbol;
}

/** Spot's view of a key's customer: always the real book (keys are for real accounts). */
export function authFor(p: KeyPrincipal): AuthContext {
  return { customerId: p.customerId, sessionId: p.keyId, isDemo: false, token: '' };
}

/** `symbols=["BTCUSDT","ETHUSDT"]` (Binance's JSON array form), or null. */
export function symbolsParam(deps: BotApiDeps, text: string | undefined): string[] | null {
  if (text === undefined || text === '') return null;
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    binanceRefuse({ status: 400, code: -1100, msg: "Illegal characters found in parameter 'symbols'." });
  }
  if (!Array.isArray(list) || list.length === 0 || list.some((s) => typeof s !== 'string'))
    binanceRefuse({ status: 400, code: -1100, msg: "Illegal characters found in parameter 'symbols'." });
  return (list as string[]).map((s) => symbolOf(deps, s));
}

/** A whole-number parameter within [min, max], or its default; -1100 otherwise. */
export function intParam(
  text: string | undefined,
  field: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (text === undefined || text === '') return fallback;
  if (!/^\d{1,15}$/.test(text))
    binanceRefuse({ status: 400, code: -1100, msg: `Illegal characters found in parameter '${field}'.` });
  const n = Number(text);
  if (n < min || n > max)
    binanceRefuse({
      status: 400,
      code: -1100,
      msg: `Illegal characters found in parameter '${field}'; legal range is '${min}' to '${max}'.`,
    });
  return n;
}
