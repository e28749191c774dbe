import { compareDecimal } from '@bourse/money';
import type { WsTicker } from '@bourse/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { marketStore, parseWsTicker } from './marketStore.ts';
import { createMarketSocket, reconnectDelay } from './ws.ts';

const wsTicker = (s: string, p: string, over: Partial<WsTicker> = {}): WsTicker => ({
  s,
  p,
  b: p,
  a: p,
  m: p,
  o: '100.00',
  h: '110.00',
  l: '90.00',
  c: '1.25',
  v: '12.5',
  q: '1250.00',
  t: 1_700_000_000_000,
  x: 'live',
  ...over,
});

const tickers = (seq: number, items: WsTicker[], snapshot = false) => ({
  channel: 'tickers',
  seq,
  ...(snapshot ? { snapshot: true } : {}),
  data: { time: 1, items },
});

beforeEach(() => marketStore.reset());

describe('marketStore parses the protocol shapes', () => {
  it('takes a tickers snapshot and later deltas (short keys) into full tickers', () => {
    expect(
      marketStore.ingest(tickers(7, [wsTicker('BTC/USDT', '100.50'), wsTicker('ETH/USDT', '10.00')], true)),
    ).toBe('applied');
    expect(marketStore.ingest(tickers(8, [wsTicker('BTC/USDT', '101.00', { c: '-0.40', x: 'stale' })]))).toBe(
      'applied',
    );
    const { tickers: map, list } = marketStore.getState();
    expect(list).toHaveLength(2);
    expect(map.get('BTC/USDT')).toEqual({
      symbol: 'BTC/USDT',
      last: '101.00',
      bid: '101.00',
      ask: '101.00',
      mark: '101.00',
      open: '100.00',
      high: '110.00',
      low: '90.00',
      change_pct: '-0.40',
      volume: '12.5',
      turnover: '1250.00',
      updated_at: 1_700_000_000_000,
      state: 'stale',
      move: 'up',
    });
    expect(map.get('ETH/USDT')?.move).toBeNull();
    marketStore.ingest(tickers(9, [wsTicker('BTC/USDT', '100.99')]));
    expect(marketStore.getState().tickers.get('BTC/USDT')?.move).toBe('down');
  });

  it('rejects malformed tickers and messages without changing anything', () => {
    marketStore.ingest(tickers(1, [wsTicker('BTC/USDT', '1.00')], true));
    const before = marketStore.getState().list;
    expect(marketStore.ingest(tickers(2, [{ ...wsTicker('X', '1'), p: 1 as unknown as string }]))).toBe(
      'applied',
    );
    expect(marketStore.ingest(tickers(3, [{ ...wsTicker('Y', '1'), x: 'weird' as WsTicker['x'] }]))).toBe(
      'applied',
    );
    expect(marketStore.ingest({ channel: 'tickers', data: [] })).toBe('malformed');
    expect(marketStore.ingest('nonsense')).toBe('malformed');
    expect(marketStore.getState().list).toBe(before);
    expect(parseWsTicker({ s: 'A', p: '1e5' })).toBeNull();
  });

  it('ignores repeats, and on a gap drops messages until a fresh snapshot arrives', () => {
    marketStore.ingest(tickers(10, [wsTicker('BTC/USDT', '1.00')], true));
    expect(marketStore.ingest(tickers(10, [wsTicker('BTC/USDT', '9.00')]))).toBe('duplicate');
    expect(marketStore.getState().tickers.get('BTC/USDT')?.last).toBe('1.00');
    expect(marketStore.ingest(tickers(12, [wsTicker('BTC/USDT', '2.00')]))).toBe('gap');
    expect(marketStore.ingest(tickers(13, [wsTicker('BTC/USDT', '3.00')]))).toBe('waiting');
    expect(marketStore.getState().tickers.get('BTC/USDT')?.last).toBe('1.00');
    expect(
      marketStore.ingest(tickers(13, [wsTicker('BTC/USDT', '3.00'), wsTicker('SOL/USDT', '5.0')], true)),
    ).toBe('applied');
    expect(marketStore.getState().tickers.get('BTC/USDT')?.last).toBe('3.00');
    expect(marketStore.getState().snapshots).toBe(2);
    expect(marketStore.ingest(tickers(14, [wsTicker('BTC/USDT', '4.00')]))).toBe('applied');
  });

  it('treats a message before any snapshot as a gap', () => {
    expect(marketStore.ingest(tickers(3, [wsTicker('BTC/USDT', '1.00')]))).toBe('gap');
  });

  it('hands other channels to their listeners, in order only', () => {
    const seen: unknown[] = [];
    const off = marketStore.onChannel('candles:BTC/USDT:1m', (e) => seen.push([e.snapshot, e.data]));
    marketStore.ingest({ channel: 'candles:BTC/USDT:1m', seq: 4, snapshot: true, data: { items: ['a'] } });
    marketStore.ingest({ channel: 'candles:BTC/USDT:1m', seq: 5, data: { items: ['b'] } });
    marketStore.ingest({ channel: 'candles:BTC/USDT:1m', seq: 7, data: { items: ['c'] } });
    off();
    expect(seen).toEqual([
      [true, { items: ['a'] }],
      [false, { items: ['b'] }],
    ]);
  });
});

describe('compareDecimal', () => {
  it('orders decimal strings exactly by value', () => {
    const values = ['-1.5', '0.0', '10', '9.99', '-0.01', '0.010', '100.1', '-20'];
    const sorted = [...values].sort(compareDecimal);
    expect(sorted).toEqual(['-20', '-1.5', '-0.01', '0.0', '0.010', '9.99', '10', '100.1']);
    expect(compareDecimal('0.10', '0.1')).toBe(0);
    expect(compareDecimal('-0', '0.00')).toBe(0);
    expect(compareDecimal('12345678901234567890.1', '12345678901234567890.09')).toBe(1);
  });
});

class FakeSocket {
  static sockets: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  private handlers = new Map<string, Array<(e: { data?: unknown }) => void>>();
  constructor() {
    FakeSocket.sockets.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.emit('close');
  }
  addEventListener(type: string, fn: (e: { data?: unknown }) => void) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), fn]);
  }
  emit(type: string, data?: unknown) {
    if (type === 'open') this.readyState = 1;
    if (type === 'close') this.readyState = 3;
    for (const fn of this.handlers.get(type) ?? [])
      fn({ data: data === undefined ? undefined : JSON.stringify(data) });
  }
}

describe('market socket', () => {
  beforeEach(() => {
    FakeSocket.sockets = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  const start = () =>
    createMarketSocket({ url: 'ws://test/ws', createSocket: () => new FakeSocket(), openState: 1 });

  it('subscribes with the server protocol and re-subscribes a channel after a gap', () => {
    const socket = start();
    const ws = FakeSocket.sockets[0] as FakeSocket;
    ws.emit('open');
    expect(ws.sent).toContainEqual({ main_type: 2, channel: 'tickers' });
    expect(ws.sent[0]).toMatchObject({ main_type: 1 });
    const leave = socket.subscribe('candles:BTC/USDT:5m');
    expect(ws.sent.at(-1)).toEqual({ main_type: 2, channel: 'candles:BTC/USDT:5m' });

    ws.emit('message', tickers(1, [wsTicker('BTC/USDT', '1.00')], true));
    ws.emit('message', tickers(2, [wsTicker('BTC/USDT', '2.00')]));
    const before = ws.sent.length;
    ws.emit('message', tickers(5, [wsTicker('BTC/USDT', '5.00')]));
    expect(ws.sent.slice(before)).toEqual([{ main_type: 2, channel: 'tickers' }]);
    ws.emit('message', tickers(6, [wsTicker('BTC/USDT', '6.00')]));
    expect(ws.sent.length).toBe(before + 1);
    ws.emit('message', tickers(6, [wsTicker('BTC/USDT', '6.00')], true));
    expect(marketStore.getState().tickers.get('BTC/USDT')?.last).toBe('6.00');

    leave();
    expect(ws.sent.at(-1)).toEqual({ main_type: 3, channel: 'candles:BTC/USDT:5m' });
    socket.stop();
  });

  it('reconnects with backoff and subscribes everything again', () => {
    expect([0, 1, 2, 3, 10].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 30000]);
    const socket = start();
    socket.subscribe('trades:BTC/USDT');
    const first = FakeSocket.sockets[0] as FakeSocket;
    first.emit('close');
    vi.advanceTimersByTime(999);
    expect(FakeSocket.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    const second = FakeSocket.sockets[1] as FakeSocket;
    second.emit('close');
    vi.advanceTimersByTime(1999);
    expect(FakeSocket.sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    const third = FakeSocket.sockets[2] as FakeSocket;
    third.emit('open');
    expect(third.sent).toEqual(
      expect.arrayContaining([
        { main_type: 2, channel: 'tickers' },
        { main_type: 2, channel: 'trades:BTC/USDT' },
      ]),
    );
    // An open resets the backoff.
    third.emit('close');
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.sockets).toHaveLength(4);
    socket.stop();
  });
});
