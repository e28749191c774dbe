import type { Logger } from 'pino';
import { type Instrument, nearestTicks, QTY_SCALE } from '../instrument.ts';
import { type FeedTick, midTicks, type PriceFeed } from './types.ts';

/**
 * Real crypto prices through the ccxt library: `fetchTickers` polled every CCXT_POLL_MS, one call
 * per market family (spot, linear, inverse) of the instruments it covers — crypto instruments
 * whose `feed_symbol` (ccxt's unified symbol, e.g. `BTC/USDT:USDT`) the exchange lists.
 *
 * ccxt hands prices over as JS numbers; each is turned back into its decimal text once with
 * ccxt's `numberToString` (exact for the at most 15 significant digits exchanges quote) and
 * snapped to our tick. A ticker carries 24 h volume, not trades: a tick's size is the rise of
 * the exchange's 24 h base volume since the previous poll (0 when it fell). An unchanged quote is
 * re-confirmed with a zero-size tick every CCXT_LIMITS.reconfirmMs, so a quiet but live market
 * never looks stale; a failing exchange produces nothing, and its instruments go stale.
 */
export const CCXT_LIMITS = {
  reconfirmMs: 10_000,
  requestTimeoutMs: 10_000,
  /** One error line per this many ms at most: a dead exchange must not flood the log. */
  errorLogEveryMs: 60_000,
} as const;

/** The slice of a ccxt exchange this adapter uses (ccxt's own types are loose). */
type CcxtTicker = {
  symbol: string;
  timestamp?: number;
  last?: number;
  bid?: number;
  ask?: number;
  markPrice?: number;
  baseVolume?: number;
};
type CcxtMarket = { spot?: boolean; linear?: boolean; inverse?: boolean; type?: string };
type CcxtExchange = {
  urls: Record<string, unknown>;
  markets?: Record<string, CcxtMarket>;
  loadMarkets(): Promise<Record<string, CcxtMarket>>;
  fetchTickers(symbols?: string[]): Promise<Record<string, CcxtTicker>>;
  numberToString(value: number): string;
  close?(): Promise<void>;
};

/** Per-exchange options: only the market families we need (Binance would also load options and coin-margined markets). */
const EXCHANGE_OPTIONS: Readonly<Record<string, Record<string, unknown>>> = {
  binance: { fetchMarkets: { types: ['spot', 'linear'] }, fetchCurrencies: false, fetchMargins: false },
};

/** Rewrites every API URL to `${base}/${host}${path}`: a recording stand-in (tests) or a mirror. */
export function redirectUrls(api: unknown, base: string): unknown {
  if (typeof api === 'string') return api.replace(/^https?:\/\//, `${base.replace(/\/+$/, '')}/`);
  if (api && typeof api === 'object') {
    return Object.fromEntries(Object.entries(api).map(([k, v]) => [k, redirectUrls(v, base)]));
  }
  return api;
}

/**
 * A ccxt exchange. ccxt's rate limiter spaces requests by the exchange's published weights
 * (Binance: about 2 s per all-symbol ticker request); it is off when the API goes to an override
 * (a local stand-in or a mirror, which sets its own limits).
 */
export async function createCcxtExchange(options: { exchange: string; apiOverride: string | null }) {
  // ccxt is an optional dependency, loaded only here (FEED=ccxt); config.ts refuses FEED=ccxt without it.
  const ccxt = (await import('ccxt')) as unknown as Record<string, unknown>;
  const Exchange = ccxt[options.exchange];
  if (typeof Exchange !== 'function') throw new Error(`ccxt has no exchange "${options.exchange}"`);
  const exchange = new (Exchange as new (config: object) => CcxtExchange)({
    enableRateLimit: options.apiOverride === null,
    timeout: CCXT_LIMITS.requestTimeoutMs,
    options: EXCHANGE_OPTIONS[options.exchange] ?? {},
  });
  if (options.apiOverride) exchange.urls.api = redirectUrls(exchange.urls.api, options.apiOverride);
  return exchange;
}

type Last = {
  price: bigint;
  bid: bigint;
  ask: bigint;
  mark: bigint;
  volume: bigint | null;
  /** Time of the last tick (the exchange's, never later than our clock). */
  atMs: number;
  /** When we last reported this instrument (for the re-confirmation). */
  reportedMs: number;
};

/** Decimal text to units at `scale`, dropping finer digits. */
function unitsDown(text: string, scale: number): bigint | null {
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  if (!match) return null;
  return BigInt(`${match[1]}${(match[2] ?? '').slice(0, scale).padEnd(scale, '0')}`);
}

export function createCcxtFeed(options: {
  exchangeId: string;
  exchange: CcxtExchange;
  intervalMs: number;
  log: Logger;
}): PriceFeed {
  const { exchange } = options;
  const source = `ccxt:${options.exchangeId}`;
  let instruments: Instrument[] = [];
  const last = new Map<string, Last>();
  let marketsLoaded = false;
  let lastErrorLogMs = 0;

  const isCrypto = (i: Instrument) => i.assetClass.startsWith('crypto_');
  // One fetchTickers per market type and settlement (exchanges refuse mixed requests).
  const family = (m: CcxtMarket) =>
    `${m.type ?? (m.spot ? 'spot' : 'swap')}|${m.inverse ? 'inverse' : 'linear'}`;

  function toTick(instrument: Instrument, ticker: CcxtTicker, nowMs: number): FeedTick | null {
    if (typeof ticker.last !== 'number' || !(ticker.last > 0)) return null;
    const text = (n: number | undefined) =>
      typeof n === 'number' && n > 0 ? exchange.numberToString(n) : null;
    const price = nearestTicks(instrument, text(ticker.last) ?? '');
    if (price === null) return null;
    let bid = nearestTicks(instrument, text(ticker.bid) ?? '') ?? price;
    let ask = nearestTicks(instrument, text(ticker.ask) ?? '') ?? price;
    if (bid > ask) [bid, ask] = [ask, bid];
    const mark = nearestTicks(instrument, text(ticker.markPrice) ?? '') ?? midTicks(bid, ask);
    const volume = unitsDown(text(ticker.baseVolume) ?? '', QTY_SCALE);
    const previous = last.get(instrument.symbol);
    const atMs = Math.min(nowMs, ticker.timestamp ?? nowMs);
    const changed =
      !previous ||
      previous.price !== price ||
      previous.bid !== bid ||
      previous.ask !== ask ||
      previous.mark !== mark;
    const rise =
      previous?.volume != null && volume !== null && volume > previous.volume ? volume - previous.volume : 0n;
    if (!changed && rise === 0n && previous && nowMs - previous.reportedMs < CCXT_LIMITS.reconfirmMs)
      return null;
    const tickMs = Math.max(atMs, previous?.atMs ?? 0);
    last.set(instrument.symbol, { price, bid, ask, mark, volume, atMs: tickMs, reportedMs: nowMs });
    return {
      instrument,
      atMs: tickMs,
      priceTicks: price,
      bidTicks: bid,
      askTicks: ask,
      markTicks: mark,
      sizeUnits: rise,
      source,
    };
  }

  function logFailure(error: unknown, nowMs: number): void {
    if (nowMs - lastErrorLogMs < CCXT_LIMITS.errorLogEveryMs) return;
    lastErrorLogMs = nowMs;
    options.log.error({ err: error, source }, 'ccxt feed: poll failed; its instruments will go stale');
  }

  async function poll(nowMs: number): Promise<FeedTick[]> {
    if (!marketsLoaded) {
      await exchange.loadMarkets();
      marketsLoaded = true;
    }
    const markets = exchange.markets ?? {};
    const groups = new Map<string, Instrument[]>();
    for (const instrument of instruments) {
      const market = markets[instrument.feedSymbol];
      if (!market || instrument.status !== 'active') continue;
      const key = family(market);
      groups.set(key, [...(groups.get(key) ?? []), instrument]);
    }
    const ticks: FeedTick[] = [];
    let failure: unknown = null;
    for (const group of groups.values()) {
      let tickers: Record<string, CcxtTicker>;
      try {
        tickers = await exchange.fetchTickers(group.map((i) => i.feedSymbol));
      } catch (error) {
        failure = error; // The other groups still count; this one's instruments go stale.
        continue;
      }
      for (const instrument of group) {
        const ticker = tickers[instrument.feedSymbol];
        const tick = ticker ? toTick(instrument, ticker, nowMs) : null;
        if (tick) ticks.push(tick);
      }
    }
    if (failure) logFailure(failure, nowMs);
    return ticks;
  }

  return {
    source,
    intervalMs: options.intervalMs,
    covers: isCrypto,
    setInstruments(list) {
      instruments = list.filter(isCrypto);
    },
    async poll(nowMs) {
      try {
        return await poll(nowMs);
      } catch (error) {
        logFailure(error, nowMs);
        return [];
      }
    },
    async close() {
      await exchange.close?.();
    },
  };
}
