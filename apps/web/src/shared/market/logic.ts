import { compareDecimal } from '@bourse/money';
import type { AssetClass, TickerData } from '@bourse/protocol';
import type { Move, Ticker } from '../../lib/marketStore.ts';

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

/** Words of a name, upper case: "Bitcoin / Tether" → BITCOIN, TETHER. */
const words = (text: string) =>
  text
    .toUpperCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/**
 * How well a row matches a search, lower first; null: no match. 0 exact symbol (with or without
 * separators) or base asset, 1 symbol prefix, 2 symbol contains, 3 a word of the name starts with it
 * (Chinese names: contains). "eth" ranks ETH/USDT first and never matches Tether (a word inside).
 * `name` is the name in the customer's language (the catalogue name when none).
 */
export function searchScore(
  row: Pick<TickerData, 'symbol' | 'name' | 'base'>,
  search: string,
  name: string = row.name,
): number | null {
  const needle = search.trim();
  if (!needle) return 0;
  const upper = needle.toUpperCase();
  const squashed = squash(needle);
  const symbol = squash(row.symbol);
  if (squashed.length > 0) {
    if (symbol === squashed || row.base.toUpperCase() === upper) return 0;
    if (symbol.startsWith(squashed)) return 1;
    if (symbol.includes(squashed)) return 2;
  }
  for (const candidate of name === row.name ? [name] : [name, row.name]) {
    if (CJK.test(upper) ? candidate.includes(needle) : words(candidate).some((w) => w.startsWith(upper)))
      return 3;
    if (words(upper).length > 1 && candidate.toUpperCase().includes(upper)) return 3;
  }
  return null;
}

/** Search over symbol (with or without separators), name and base; empty search matches all. */
export function matchesSearch(
  row: Pick<TickerData, 'symbol' | 'name' | 'base'>,
  search: string,
  name?: string,
): boolean {
  return searchScore(row, search, name) !== null;
}

/**
 * The rows a list shows: without a search, the tab's (a class or the favourites); with one, every
 * instrument that matches, whatever the tab, best match first (ties keep the given order).
 */
export function filterRows<T extends TickerData>(
  rows: readonly T[],
  options: {
    tab: MarketTab;
    search: string;
    favourites: ReadonlySet<string>;
    nameOf?: (row: T) => string;
  },
): T[] {
  const { tab, search, favourites, nameOf } = options;
  if (!search.trim())
    return rows.filter((row) => (tab === 'favourites' ? favourites.has(row.symbol) : row.class === tab));
  const scored: Array<{ row: T; score: number; at: number }> = [];
  rows.forEach((row, at) => {
    const score = searchScore(row, search, nameOf?.(row));
    if (score !== null) scored.push({ row, score, at });
  });
  return scored.sort((a, b) => a.score - b.score || a.at - b.at).map((x) => x.row);
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
