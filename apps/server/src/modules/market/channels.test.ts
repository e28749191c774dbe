import type { AddressInfo } from 'node:net';
import type { WsTicker } from '@bourse/protocol';
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp, testNow } from '../../../test/harness.ts';
import { manualClock } from '../../lib/clock.ts';
import { ChannelRegistry, registerWebsocket, type Subscriber } from '../../ws/index.ts';
import { connectClient, type Received, type TestClient } from './fixtures/ws-client.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
});
afterAll(async () => t.close());

async function step(): Promise<void> {
  t.clock.advance(1_000);
  await t.app.market.step();
}

const on = (channel: string) => (m: Received) => m.channel === channel;
const tickers = (m: Received) => (m.data as { items: WsTicker[] }).items;

async function subscribe(client: TestClient, channel: string): Promise<Received> {
  client.send({ main_type: 2, channel });
  return client.next((m) => m.channel === channel || (m.main_type === 2 && m.channel === channel));
}

describe('websocket market channels', () => {
  it('tickers: a snapshot of every instrument, then batches of only the changed ones, seq +1 each', async () => {
    const client = await connectClient(url);
    const snapshot = await subscribe(client, 'tickers');
    expect(snapshot).toMatchObject({ channel: 'tickers', seq: 0, snapshot: true });
    const all = tickers(snapshot);
    expect(all.length).toBeGreaterThanOrEqual(60);
    expect(Object.keys(all[0] as object).sort()).toEqual([
      'a',
      'b',
      'c',
      'h',
      'l',
      'm',
      'o',
      'p',
      'q',
      's',
      't',
      'v',
      'x',
    ]);
    await step();
    const first = await client.next(on('tickers'));
    expect(first).toMatchObject({ channel: 'tickers', seq: 1 });
    expect(first.snapshot).toBeUndefined();
    // Saturday: only crypto trades, so only crypto tickers change.
    const changed = tickers(first);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(all.length);
    expect(changed.every((x) => x.x === 'live' && /USDT/.test(x.s))).toBe(true);
    await step();
    expect((await client.next(on('tickers'))).seq).toBe(2);
    await client.close();
  });

  it('candles and trades of one instrument, each numbered on its own', async () => {
    const client = await connectClient(url);
    const candles = await subscribe(client, 'candles:BTC/USDT:1m');
    expect(candles).toMatchObject({ channel: 'candles:BTC/USDT:1m', seq: 0, snapshot: true });
    expect((candles.data as { items: unknown[] }).items).toHaveLength(1);
    const trades = await subscribe(client, 'trades:BTC/USDT');
    expect(trades).toMatchObject({ seq: 0, snapshot: true, data: { symbol: 'BTC/USDT' } });
    for (let i = 1; i <= 6; i++) {
      await step();
      const candle = await client.next(on('candles:BTC/USDT:1m'));
      expect(candle.seq).toBe(i);
      const item = (candle.data as { items: Array<Record<string, unknown>> }).items.at(-1);
      expect(item).toMatchObject({ open: expect.stringMatching(/^\d+\.\d{2}$/), ticks: expect.any(Number) });
      const last = (await call(t.app, { method: 'GET', call: 'getTickers', fields: { symbols: 'BTC/USDT' } }))
        .data.items[0];
      expect(item?.close).toBe(last.last);
    }
    // Every BTC step printed (the sim forces a print after 5 s at most, and trades are sparse otherwise).
    const prints = client.pending().filter(on('trades:BTC/USDT'));
    expect(prints.map((m) => m.seq)).toEqual(prints.map((_, i) => i + 1));
    for (const m of prints) {
      for (const trade of (m.data as { items: Array<Record<string, unknown>> }).items) {
        expect(trade).toMatchObject({
          price: expect.any(String),
          size: expect.any(String),
          side: expect.stringMatching(/buy|sell/),
        });
      }
    }
    await client.close();
  });

  it('a client that misses a message notices the gap and resubscribes for a fresh snapshot', async () => {
    const client = await connectClient(url);
    let expected = (await subscribe(client, 'tickers')).seq as number;
    const seen: Record<string, string> = {};
    const missed = 2;
    let resynced = false;
    for (let i = 1; i <= 5; i++) {
      await step();
      const message = await client.next(on('tickers'));
      if (i === missed) continue; // lost on the way, as if dropped by a proxy
      if (message.seq !== expected + 1) {
        expect(message.seq).toBe(expected + 2);
        client.send({ main_type: 2, channel: 'tickers' });
        const fresh = await client.next(on('tickers'));
        expect(fresh).toMatchObject({ snapshot: true, seq: message.seq });
        for (const x of tickers(fresh)) seen[x.s] = x.p;
        expected = fresh.seq as number;
        resynced = true;
        continue;
      }
      for (const x of tickers(message)) seen[x.s] = x.p;
      expected = message.seq as number;
    }
    expect(resynced).toBe(true);
    // After the resync the client's view equals the server's.
    const http = await call(t.app, { method: 'GET', call: 'getTickers', fields: { page_size: '500' } });
    for (const item of http.data.items) expect(seen[item.symbol] ?? item.last).toBe(item.last);
    await client.close();
  });

  it('refuses unknown channels with a reason, unsubscribes, and keeps answering heartbeats', async () => {
    const client = await connectClient(url);
    for (const [channel, reason, params] of [
      ['orders', 'CHANNEL_UNKNOWN', { channel: 'orders' }],
      ['candles:NOPE/USD:1m', 'INSTRUMENT_UNKNOWN', { symbol: 'NOPE/USD' }],
      ['candles:BTC/USDT:2m', 'BAD_INPUT', { field: 'interval' }],
      ['trades:', 'INSTRUMENT_UNKNOWN', { symbol: '' }],
    ] as const) {
      expect(await subscribe(client, channel)).toEqual({ main_type: 2, channel, reason, params });
    }
    client.send({ main_type: 2 });
    expect(await client.next()).toEqual({
      main_type: 2,
      channel: '',
      reason: 'BAD_INPUT',
      params: { field: 'channel' },
    });
    await subscribe(client, 'tickers');
    await subscribe(client, 'trades:ETH/USDT');
    client.send({ main_type: 3, channel: 'tickers' });
    expect(await client.next((m) => m.main_type === 3)).toEqual({ main_type: 3, channel: 'tickers' });
    for (let i = 0; i < 6; i++) await step();
    await client.next(on('trades:ETH/USDT'));
    expect(client.pending().some(on('tickers'))).toBe(false);
    client.send({ main_type: 1, timestamp: 42 });
    expect(await client.next((m) => m.main_type === 1)).toMatchObject({ main_type: 1, pong: 42 });
    await client.close();
  });

  it('limits the channels one socket may hold', async () => {
    const client = await connectClient(url);
    const symbols = (
      await call(t.app, { method: 'GET', call: 'getInstruments', fields: { page_size: '100' } })
    ).data.items.map((i: { symbol: string }) => i.symbol);
    for (let i = 0; i < 64; i++) {
      expect((await subscribe(client, `trades:${symbols[i]}`)).snapshot).toBe(true);
    }
    expect(await subscribe(client, `trades:${symbols[64]}`)).toMatchObject({
      reason: 'SUBSCRIPTIONS_LIMIT',
      params: { max: 64 },
    });
    await client.close();
  });
});

describe('the channel registry', () => {
  function fake(accept: boolean): Subscriber & { frames: string[] } {
    const frames: string[] = [];
    return {
      channels: new Set(),
      frames,
      send(frame) {
        if (accept) frames.push(String(frame));
        return accept;
      },
    };
  }

  it('numbers per channel, serialises once, drops a subscriber that cannot take more', () => {
    const registry = new ChannelRegistry();
    let built = 0;
    registry.provide('x:', { check: () => null, snapshot: (c) => ({ c }) });
    const fast = fake(true);
    const slow = fake(true);
    registry.subscribe(fast, 'x:1');
    registry.subscribe(slow, 'x:1');
    registry.subscribe(fast, 'x:2');
    registry.publish('x:1', () => ({ n: ++built }));
    registry.publish('x:1', () => ({ n: ++built }));
    registry.publish('x:2', () => ({ n: ++built }));
    expect(built).toBe(3);
    expect(fast.frames.map((f) => JSON.parse(f).seq)).toEqual([0, 0, 1, 2, 1]);
    // Nobody listening: nothing is built, and the numbering is not advanced.
    expect(registry.publish('x:3', () => ({ n: ++built }))).toBe(0);
    expect(built).toBe(3);
    const dropped = fake(false);
    registry.subscribe(dropped, 'x:1');
    expect(dropped.channels.size).toBe(0);
    expect(registry.stats()).toMatchObject({ channels: 2, subscriptions: 3 });
  });

  it('terminates a socket that stops reading once its queue passes the limit', async () => {
    const app = Fastify();
    await app.register(websocket);
    const registry = new ChannelRegistry();
    const big = 'x'.repeat(256 * 1024);
    registry.provide('big', { check: () => null, snapshot: () => 'hello' });
    const hub = registerWebsocket(app, {
      clock: manualClock(testNow()),
      registry,
      maxBufferedBytes: 512 * 1024,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const client = await connectClient(`ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`);
    await subscribe(client, 'big');
    const closed = new Promise<void>((resolve) => client.socket.once('close', () => resolve()));
    // Stop reading: the kernel buffers fill, then the server's queue grows.
    (client.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    for (let i = 0; i < 400 && hub.dropped() === 0; i++) {
      registry.publish('big', () => big);
      await new Promise((r) => setImmediate(r));
    }
    expect(hub.dropped()).toBe(1);
    expect(registry.stats().subscriptions).toBe(0);
    (client.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    await closed;
    hub.close();
    await app.close();
  });
});
