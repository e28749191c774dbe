import { divRound } from '@bourse/money';
import type { AssetClass, PriceState, TickerData, TickerSort, TickersPage, WsTicker } from '@bourse/protocol';
import { fixedPoint, qtyToString, TURNOVER_SCALE, ticksToPrice } from './instrument.ts';
import type { InstrumentState } from './state.ts';

/** Change over 24 h in basis points, rounded half-to-even; 0 when there is no opening price. */
export function changeBps(s: InstrumentState): bigint {
  const open = s.stats.open;
  return open > 0n ? divRound((s.last - open) * 10_000n, open, 'halfEven') : 0n;
}

function percent(bps: bigint): string {
  return fixedPoint(bps, 2, true);
}

/** The HTTP ticker; `state` is the price state now (the stream's copy is refreshed each second). */
export function tickerData(s: InstrumentState, state: PriceState = s.state): TickerData {
  const i = s.instrument;
  return {
    symbol: i.symbol,
    name: i.name,
    class: i.assetClass,
    base: i.base,
    quote: i.quote,
    price_scale: i.priceScale,
    last: ticksToPrice(i, s.last),
    bid: ticksToPrice(i, s.bid),
    ask: ticksToPrice(i, s.ask),
    mark: ticksToPrice(i, s.mark),
    open_24h: ticksToPrice(i, s.stats.open),
    high_24h: ticksToPrice(i, s.stats.high),
    low_24h: ticksToPrice(i, s.stats.low),
    change_24h: ticksToPrice(i, s.last - s.stats.open),
    change_pct_24h: percent(changeBps(s)),
    volume_24h: qtyToString(s.stats.volume),
    turnover_24h: fixedPoint(s.stats.turnover, TURNOVER_SCALE, false),
    updated_at: s.lastTickMs,
    state,
    stale: state === 'stale',
    source: s.source,
  };
}

export function wsTicker(s: InstrumentState): WsTicker {
  const i = s.instrument;
  return {
    s: i.symbol,
    p: ticksToPrice(i, s.last),
    b: ticksToPrice(i, s.bid),
    a: ticksToPrice(i, s.ask),
    m: ticksToPrice(i, s.mark),
    o: ticksToPrice(i, s.stats.open),
    h: ticksToPrice(i, s.stats.high),
    l: ticksToPrice(i, s.stats.low),
    c: percent(changeBps(s)),
    v: qtyToString(s.stats.volume),
    q: fixedPoint(s.stats.turnover, TURNOVER_SCALE, false),
    t: s.lastTickMs,
    x: s.state,
  };
}

/** Prices of different instruments compared exactly: units at a common scale. */
const COMMON_SCALE = 18;
function lastValue(s: InstrumentState): bigint {
  return s.last * s.instrument.tickUnits * 10n ** BigInt(COMMON_SCALE - s.instrument.priceScale);
}

type Key = (s: InstrumentState) => bigint | number | string;
const KEYS: Readonly<Record<TickerSort, Key>> = {
  rank: (s) => s.instrument.rank,
  symbol: (s) => s.instrument.symbol,
  last: lastValue,
  change: changeBps,
  volume: (s) => s.stats.volume,
  turnover: (s) => s.stats.turnover,
};

export type TickerQuery = {
  assetClass?: AssetClass;
  search?: string;
  symbols?: readonly string[];
  sort: TickerSort;
  descending: boolean;
  page: number;
  pageSize: number;
  stateOf: (s: InstrumentState) => PriceState;
};

/**
 * Filter, sort and page over the in-memory states: a few milliseconds for 3,000 instruments.
 * Keys are computed once per row, and ties fall back to rank then symbol so pages are stable.
 */
export function queryTickers(states: readonly InstrumentState[], query: TickerQuery): TickersPage {
  const needle = query.search?.trim().toLowerCase() ?? '';
  const only = query.symbols ? new Set(query.symbols) : null;
  const rows: Array<{ s: InstrumentState; key: bigint | number | string }> = [];
  const key = KEYS[query.sort];
  for (const s of states) {
    if (query.assetClass && s.instrument.assetClass !== query.assetClass) continue;
    if (only && !only.has(s.instrument.symbol)) continue;
    if (needle && !s.instrument.searchText.includes(needle)) continue;
    rows.push({ s, key: key(s) });
  }
  const direction = query.descending ? -1 : 1;
  rows.sort((a, b) => {
    if (a.key !== b.key) return (a.key < b.key ? -1 : 1) * direction;
    const rank = a.s.instrument.rank - b.s.instrument.rank;
    return rank !== 0 ? rank : a.s.instrument.symbol < b.s.instrument.symbol ? -1 : 1;
  });
  const start = (query.page - 1) * query.pageSize;
  return {
    total: rows.length,
    page: query.page,
    page_size: query.pageSize,
    items: rows.slice(start, start + query.pageSize).map((r) => tickerData(r.s, query.stateOf(r.s))),
  };
}
