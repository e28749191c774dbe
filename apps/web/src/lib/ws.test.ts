import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { marketStore } from './marketStore.ts';
import { createMarketSocket, getSocketUid, type MarketSocket } from './ws.ts';

type Sent = { main_type: number; channel?: string; token?: string };

class FakeSocket {
  static sockets: FakeSocket[] = [];
  readyState = 0;
  sent: Sent[] = [];
  closed = false;
  private handlers = new Map<string, Array<(e: { data?: unknown }) => void>>();
  constructor() {
    FakeSocket.sockets.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.closed = true;
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

const nth = (i: number) => FakeSocket.sockets[i] as FakeSocket;
const kinds = (ws: FakeSocket) => ws.sent.filter((m) => m.main_type !== 1);
const subscribes = (ws: FakeSocket) => ws.sent.filter((m) => m.main_type === 2).map((m) => m.channel);

describe('market socket authentication', () => {
  let socket: MarketSocket;
  beforeEach(() => {
    marketStore.reset();
    FakeSocket.sockets = [];
    vi.useFakeTimers();
    socket = createMarketSocket({ url: 'ws://test/ws', createSocket: () => new FakeSocket(), openState: 1 });
  });
  afterEach(() => {
    socket.stop();
    vi.useRealTimers();
  });

  it('sends the token on open before any subscribe, and subscribes once the server answered', () => {
    socket.authenticate('tok-1');
    socket.subscribe('spot_private:U1');
    const ws = nth(0);
    expect(ws.sent).toEqual([]);
    ws.emit('open');
    expect(ws.sent[0]).toMatchObject({ main_type: 1 });
    expect(kinds(ws)).toEqual([{ main_type: 4, token: 'tok-1' }]);
    // A channel asked for while the answer is pending waits for it too.
    socket.subscribe('trades:BTC/USDT');
    expect(kinds(ws)).toEqual([{ main_type: 4, token: 'tok-1' }]);
    ws.emit('message', { main_type: 4, uid: 'U1' });
    expect(getSocketUid()).toBe('U1');
    expect(kinds(ws)).toEqual([
      { main_type: 4, token: 'tok-1' },
      { main_type: 2, channel: 'tickers' },
      { main_type: 2, channel: 'spot_private:U1' },
      { main_type: 2, channel: 'trades:BTC/USDT' },
    ]);
    // Later subscribes go straight out.
    socket.subscribe('candles:BTC/USDT:5m');
    expect(ws.sent.at(-1)).toEqual({ main_type: 2, channel: 'candles:BTC/USDT:5m' });
  });

  it('authenticates again after every reconnect, before resubscribing', () => {
    socket.authenticate('tok-1');
    socket.subscribe('spot_private:U1');
    nth(0).emit('open');
    nth(0).emit('message', { main_type: 4, uid: 'U1' });
    nth(0).emit('close');
    vi.advanceTimersByTime(1000);
    const second = nth(1);
    second.emit('open');
    expect(kinds(second)).toEqual([{ main_type: 4, token: 'tok-1' }]);
    second.emit('message', { main_type: 4, uid: 'U1' });
    expect(kinds(second)).toEqual([
      { main_type: 4, token: 'tok-1' },
      { main_type: 2, channel: 'tickers' },
      { main_type: 2, channel: 'spot_private:U1' },
    ]);
    // The private channel is an ordinary channel: a gap resubscribes it for a snapshot.
    second.emit('message', { channel: 'spot_private:U1', seq: 3, snapshot: true, data: {} });
    second.emit('message', { channel: 'spot_private:U1', seq: 5, data: {} });
    expect(second.sent.at(-1)).toEqual({ main_type: 2, channel: 'spot_private:U1' });
  });

  it('a refused token still lets public channels through; no token means no auth message', () => {
    socket.authenticate('expired');
    nth(0).emit('open');
    expect(subscribes(nth(0))).toEqual([]);
    nth(0).emit('message', { main_type: 4, reason: 'LOGIN_REQUIRED', params: {} });
    expect(getSocketUid()).toBeNull();
    expect(subscribes(nth(0))).toEqual(['tickers']);

    socket.authenticate(null);
    const anonymous = nth(1);
    anonymous.emit('open');
    expect(kinds(anonymous)).toEqual([{ main_type: 2, channel: 'tickers' }]);
  });

  it('a session ended on the server: the socket forgets its uid and private channels and reports it', () => {
    const ended: unknown[] = [];
    socket.stop();
    FakeSocket.sockets = [];
    socket = createMarketSocket({
      url: 'ws://test/ws',
      createSocket: () => new FakeSocket(),
      openState: 1,
      onSessionEnded: (message) => ended.push(message),
    });
    socket.authenticate('tok-1');
    socket.subscribe('spot_private:U1');
    const ws = nth(0);
    ws.emit('open');
    ws.emit('message', { main_type: 4, uid: 'U1' });
    expect(getSocketUid()).toBe('U1');
    const message = {
      main_type: 4,
      event: 'session_ended',
      code: 1000,
      reason: 'SESSION_EXPIRED',
      params: {},
      channels: ['spot_private:U1'],
    };
    ws.emit('message', message);
    expect(getSocketUid()).toBeNull();
    expect(ended).toEqual([message]);
    // Not an authentication answer: subscribes are not held back, and the dropped channel is not "sent".
    socket.subscribe('trades:BTC/USDT');
    expect(ws.sent.at(-1)).toEqual({ main_type: 2, channel: 'trades:BTC/USDT' });
  });

  it('a login on an open socket authenticates it; a logout replaces it with an anonymous one', () => {
    const ws = nth(0);
    ws.emit('open');
    expect(kinds(ws)).toEqual([{ main_type: 2, channel: 'tickers' }]);
    socket.authenticate('tok-2');
    expect(ws.sent.at(-1)).toEqual({ main_type: 4, token: 'tok-2' });
    ws.emit('message', { main_type: 4, uid: 'U2' });
    expect(getSocketUid()).toBe('U2');

    socket.authenticate(null);
    expect(getSocketUid()).toBeNull();
    expect(ws.closed).toBe(true);
    expect(FakeSocket.sockets).toHaveLength(2);
    // The dropped socket schedules no reconnect of its own.
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.sockets).toHaveLength(2);
    nth(1).emit('open');
    expect(kinds(nth(1))).toEqual([{ main_type: 2, channel: 'tickers' }]);
  });
});
