import type { AssetClass, TickerData } from '@bourse/protocol';
import { compareDecimal, type Move, type Ticker } from '../../lib/marketStore.ts';

/**
 * One row of the market list: the catalogue's ticker (names, class, scale) with the live ticker's
 * prices. `rank` is the row's place in the catalogue's popularity order (getTickers sort=rank).
 */
export type MarketRow = TickerData & { move: Move; rank: number };
type Ranked = TickerData & { rank: number };

export type MarketTab = 'favourites' | AssetClass;
export type SortKey = 'rank' | 'price' | 'change' | 'volume';
export type SortDir = 'asc' | 'desc';
export type Sort = { key: SortKey; dir: SortDir };

/** The live ticker wins over the catalogue's (older) snapshot. */
export function mergeRow(base: TickerData, live: Ticker | undefined, rank: number): MarketRow {
  if (!live) return { ...base, move: null, rank };
  return {
    ...base,
    rank,
    last: live.last,
    bid: live.bid,
    ask: live.ask,
    mark: live.mark,
    open_24h: live.open,
    high_24h: live.high,
    low_24h: live.low,
    change_pct_24h: live.change_pct,
    volume_24h: live.volume,
    turnover_24h: live.turnover,
    updated_at: live.updated_at,
    state: live.state,
    stale: live.state === 'stale',
    move: live.move,
  };
}

/** Upper case without separators: "btc/usdt", "BTCUSDT" and "btc-usdt" all find BTC/USDT. */
const squash = (text: string) => text.toUpperCase().replace(/[/._\-\s]/g, '');

/** Search over symbol (with or without separators), name and base; empty search matches all. */
export function matchesSearch(row: Pick<TickerData, 'symbol' | 'name' | 'base'>, search: string): boolean {
  const needle = search.trim();
  if (!needle) return true;
  const upper = needle.toUpperCase();
  const squashed = squash(needle);
  return (
    (squashed.length > 0 && squash(row.symbol).includes(squashed)) ||
    row.name.toUpperCase().includes(upper) ||
    row.base.toUpperCase() === upper
  );
}

export function filterRows<T extends TickerData>(
  rows: readonly T[],
  options: { tab: MarketTab; search: string; favourites: ReadonlySet<string> },
): T[] {
  const { tab, search, favourites } = options;
  return rows.filter(
    (row) =>
      (tab === 'favourites' ? favourites.has(row.symbol) : row.class === tab) && matchesSearch(row, search),
  );
}

function sortValue(row: TickerData, key: SortKey): string {
  if (key === 'price') return row.last;
  if (key === 'change') return row.change_pct_24h;
  return row.volume_24h;
}

/**
 * Sorted copy. Prices are compared as exact decimals (never floats); "volume" is the 24 h volume in
 * the instrument's base units, as the column shows. Ties keep the catalogue's popularity order.
 */
export function sortRows<T extends Ranked>(rows: readonly T[], sort: Sort): T[] {
  const byRank = (a: T, b: T) => a.rank - b.rank || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0);
  const sign = sort.dir === 'asc' ? 1 : -1;
  if (sort.key === 'rank') return [...rows].sort((a, b) => sign * byRank(a, b));
  return [...rows].sort(
    (a, b) => sign * compareDecimal(sortValue(a, sort.key), sortValue(b, sort.key)) || byRank(a, b),
  );
}
