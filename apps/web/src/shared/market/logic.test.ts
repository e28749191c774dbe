import type { TickerData } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import type { Ticker } from '../../lib/marketStore.ts';
import { filterRows, type MarketRow, matchesSearch, mergeRow, sortRows } from './logic.ts';

function row(symbol: string, over: Partial<TickerData> = {}, rank = 0): MarketRow {
  const base: TickerData = {
    symbol,
    name: `${symbol} name`,
    class: 'crypto_spot',
    base: symbol.split('/')[0] ?? symbol,
    quote: 'USDT',
    price_scale: 2,
    last: '1.00',
    bid: '1.00',
    ask: '1.00',
    mark: '1.00',
    open_24h: '1.00',
    high_24h: '1.00',
    low_24h: '1.00',
    change_24h: '0.00',
    change_pct_24h: '0.00',
    volume_24h: '0',
    turnover_24h: '0',
    updated_at: 1,
    state: 'live',
    stale: false,
    source: 'sim',
    ...over,
  };
  return mergeRow(base, undefined, rank);
}

const symbols = (rows: MarketRow[]) => rows.map((r) => r.symbol);

describe('market list logic', () => {
  const rows = [
    row('BTC/USDT', { name: 'Bitcoin', last: '97000.10', change_pct_24h: '1.20', volume_24h: '12.5' }, 0),
    row('ETH/USDT', { name: 'Ether', last: '3400.00', change_pct_24h: '-2.50', volume_24h: '800' }, 1),
    row('SOL/USDT', { name: 'Solana', last: '210.5', change_pct_24h: '10.01', volume_24h: '800' }, 2),
    row('EUR/USD', { class: 'forex', name: 'Euro / US Dollar', base: 'EUR', last: '1.05123' }, 3),
    row('AAPL', { class: 'stock', name: 'Apple Inc.', base: 'AAPL', last: '230.10' }, 4),
  ];

  it('searches symbol with or without separators, name and base, case-insensitively', () => {
    expect(matchesSearch(rows[0] as MarketRow, 'btcusdt')).toBe(true);
    expect(matchesSearch(rows[0] as MarketRow, 'btc-usdt')).toBe(true);
    expect(matchesSearch(rows[0] as MarketRow, 'bitc')).toBe(true);
    expect(matchesSearch(rows[0] as MarketRow, 'ether')).toBe(false);
    expect(matchesSearch(rows[3] as MarketRow, 'eur')).toBe(true);
    expect(matchesSearch(rows[3] as MarketRow, '   ')).toBe(true);
  });

  it('filters by tab (class or favourites) and search together', () => {
    const favourites = new Set(['ETH/USDT', 'AAPL']);
    expect(symbols(filterRows(rows, { tab: 'crypto_spot', search: '', favourites }))).toEqual([
      'BTC/USDT',
      'ETH/USDT',
      'SOL/USDT',
    ]);
    expect(symbols(filterRows(rows, { tab: 'favourites', search: '', favourites }))).toEqual([
      'ETH/USDT',
      'AAPL',
    ]);
    expect(symbols(filterRows(rows, { tab: 'favourites', search: 'apple', favourites }))).toEqual(['AAPL']);
    // A search covers every instrument, whatever the tab.
    expect(symbols(filterRows(rows, { tab: 'forex', search: 'btc', favourites }))).toEqual(['BTC/USDT']);
  });

  it('ranks a search: exact symbol or base, then symbol prefix, then symbol contains, then name', () => {
    const catalogue = [
      row('BTC/USDT', { name: 'Bitcoin / Tether' }, 0),
      row('USDT/TRY', { class: 'forex', name: 'Tether / Lira', base: 'USDT' }, 1),
      row('ETHFI/USDT', { name: 'Ether.fi / Tether', base: 'ETHFI' }, 2),
      row('ETH/USDT', { name: 'Ethereum / Tether' }, 3),
      row('ETH/USDT-PERP', { class: 'crypto_perp', name: 'Ethereum perpetual', base: 'ETH' }, 4),
      row('SETH/USDT', { name: 'Staked ETH / Tether', base: 'SETH' }, 5),
      row('XAU/USD', { class: 'metal', name: 'Gold spot', base: 'XAU' }, 6),
    ];
    const search = (text: string, nameOf?: (r: MarketRow) => string) =>
      symbols(filterRows(catalogue, { tab: 'stock', search: text, favourites: new Set(), nameOf }));
    // "eth": ETH first (exact base), then symbol prefixes, then contains, then names; never Tether.
    expect(search('eth')).toEqual(['ETH/USDT', 'ETH/USDT-PERP', 'ETHFI/USDT', 'SETH/USDT']);
    expect(search('ETH/USDT')).toEqual(['ETH/USDT', 'ETH/USDT-PERP', 'SETH/USDT']);
    expect(search('tether')).toEqual(['BTC/USDT', 'USDT/TRY', 'ETHFI/USDT', 'ETH/USDT', 'SETH/USDT']);
    expect(search('gold')).toEqual(['XAU/USD']);
    // By name in the customer's language.
    const zh = (r: MarketRow) => (r.symbol === 'XAU/USD' ? '现货黄金' : r.name);
    expect(search('黄金', zh)).toEqual(['XAU/USD']);
    expect(search('黄金')).toEqual([]);
  });

  it('sorts by price, change and volume both ways, exactly, ties by popularity', () => {
    const crypto = rows.slice(0, 3);
    expect(symbols(sortRows(crypto, { key: 'price', dir: 'desc' }))).toEqual([
      'BTC/USDT',
      'ETH/USDT',
      'SOL/USDT',
    ]);
    expect(symbols(sortRows(crypto, { key: 'price', dir: 'asc' }))).toEqual([
      'SOL/USDT',
      'ETH/USDT',
      'BTC/USDT',
    ]);
    expect(symbols(sortRows(crypto, { key: 'change', dir: 'desc' }))).toEqual([
      'SOL/USDT',
      'BTC/USDT',
      'ETH/USDT',
    ]);
    expect(symbols(sortRows(crypto, { key: 'change', dir: 'asc' }))).toEqual([
      'ETH/USDT',
      'BTC/USDT',
      'SOL/USDT',
    ]);
    // ETH and SOL tie on volume: popularity order breaks the tie.
    expect(symbols(sortRows(crypto, { key: 'volume', dir: 'desc' }))).toEqual([
      'ETH/USDT',
      'SOL/USDT',
      'BTC/USDT',
    ]);
    expect(symbols(sortRows(rows, { key: 'rank', dir: 'asc' }))).toEqual(symbols(rows));
  });

  it('sorts 3,000 rows quickly and correctly', () => {
    const many = Array.from({ length: 3000 }, (_, i) =>
      row(`S${i}`, { last: `${(i * 7919) % 100000}.${String(i % 100).padStart(2, '0')}` }, i),
    );
    const started = performance.now();
    const sorted = sortRows(filterRows(many, { tab: 'crypto_spot', search: 's1', favourites: new Set() }), {
      key: 'price',
      dir: 'asc',
    });
    expect(performance.now() - started).toBeLessThan(200);
    for (let i = 1; i < sorted.length; i++) {
      const a = sorted[i - 1] as MarketRow;
      const b = sorted[i] as MarketRow;
      expect(Number(a.last) <= Number(b.last)).toBe(true);
    }
    expect(sorted.every((r) => r.symbol.startsWith('S1'))).toBe(true);
  });

  it('lets the live ticker win over the catalogue snapshot', () => {
    const live: Ticker = {
      symbol: 'BTC/USDT',
      last: '1.50',
      bid: '1.49',
      ask: '1.51',
      mark: '1.50',
      open: '1.00',
      high: '2.00',
      low: '0.90',
      change_pct: '50.00',
      volume: '3',
      turnover: '4',
      updated_at: 99,
      state: 'stale',
      move: 'up',
    };
    const merged = mergeRow(rows[0] as MarketRow, live, 7);
    expect(merged).toMatchObject({
      last: '1.50',
      change_pct_24h: '50.00',
      state: 'stale',
      stale: true,
      move: 'up',
      rank: 7,
    });
    expect(merged.name).toBe('Bitcoin');
  });
});
