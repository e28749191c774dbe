import { describe, expect, it } from 'vitest';
import { marketStore } from './marketStore.ts';

describe('marketStore', () => {
  it('keeps the latest ticker per symbol and ignores stale or repeated messages', () => {
    marketStore.ingest({
      channel: 'tickers',
      seq: 1,
      data: [{ symbol: 'BTCUSDT', last: '100.5', change_pct: '1.2' }],
    });
    marketStore.ingest({
      channel: 'tickers',
      seq: 2,
      data: { ETHUSDT: { symbol: 'ETHUSDT', last: '10.00' } },
    });
    marketStore.ingest({ channel: 'tickers', seq: 2, data: [{ symbol: 'BTCUSDT', last: '1' }] });
    marketStore.ingest({ channel: 'tickers', seq: 3, data: { symbol: 'BTCUSDT', last: '101.0' } });
    const { tickers, list } = marketStore.getState();
    expect(tickers.get('BTCUSDT')).toEqual({ symbol: 'BTCUSDT', last: '101.0', change_pct: '1.2' });
    expect(tickers.get('ETHUSDT')?.last).toBe('10.00');
    expect(list).toHaveLength(2);
  });

  it('leaves tickers alone for other channels and malformed payloads', () => {
    const before = marketStore.getState().list;
    marketStore.ingest({ channel: 'depth.BTCUSDT', seq: 1, data: { bids: [] } });
    marketStore.ingest({ channel: 'tickers', seq: 4, data: [{ price: '1' }] });
    expect(marketStore.getState().list).toBe(before);
  });
});
